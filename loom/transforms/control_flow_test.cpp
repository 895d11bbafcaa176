// loom::lax's loops on cpu(): while_loop and fori_loop against the same loop written in C++,
// with 0, 1 and many iterations; under jit (one trace for every trip count), with arrays
// captured from the enclosing trace, nested; under vmap with per-example trip counts and
// batched captures; grad and jvp against the unrolled loop, reverse over reverse's refusal,
// and the errors that name the loop.
#include "loom/transforms/control_flow.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "loom/core/error.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/indexing.h"
#include "loom/ops/reduce.h"
#include "loom/transforms/autodiff.h"
#include "loom/transforms/jit.h"
#include "loom/transforms/vmap.h"

namespace loom {
namespace {

std::vector<double> host(const Array& a) {
  const Array c = a.astype(float64).contiguous();
  std::vector<double> v(static_cast<size_t>(c.size()));
  c.copy_to_host(v.data());
  return v;
}

Array from(const std::vector<float>& v, const Shape& shape) {
  return from_host(HostView{v.data(), float32, shape, contiguous_strides(shape, 4)}, cpu());
}

std::vector<float> random_values(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(0.5f, 1.5f);
  std::vector<float> v(n);
  for (float& x : v) x = d(gen);
  return v;
}

Array scalar_i64(int64_t v) { return full({}, Scalar(v), int64, cpu()); }

// (i, x) -> (i + 1, x * 1.5 + 1) while i < n: the C++ loop it stands for is below.
std::vector<Array> count_loop(const std::vector<Array>& a) {
  const Array n = a[2];
  return lax::while_loop([n](const std::vector<Array>& c) { return std::vector<Array>{less(c[0], n)}; },
                         [](const std::vector<Array>& c) {
                           return std::vector<Array>{add(c[0], Scalar(1)), add(multiply(c[1], Scalar(1.5)), Scalar(1))};
                         },
                         {a[0], a[1]});
}
std::vector<double> count_loop_ref(int64_t i, int64_t n, std::vector<float> x) {
  for (; i < n; ++i)
    for (float& v : x) v = v * 1.5f + 1.0f;
  return std::vector<double>(x.begin(), x.end());
}

TEST(WhileLoop, RunsAsTheLoopItStandsFor) {
  const std::vector<float> x = random_values(6, 1);
  for (int64_t n : {0, 1, 7}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto r = count_loop({scalar_i64(0), from(x, {2, 3}), scalar_i64(n)});
    EXPECT_EQ(host(r[0])[0], static_cast<double>(n));
    EXPECT_EQ(r[1].shape(), (Shape{2, 3}));
    EXPECT_EQ(host(r[1]), count_loop_ref(0, n, x));
  }
}

TEST(WhileLoop, ResultsAreFreshArrays) {  // no iteration: a copy of the carry, not the carry
  const Array x = from({1, 2}, {2});
  const auto r = count_loop({scalar_i64(3), x, scalar_i64(3)});
  EXPECT_NE(r[1].buffer(), x.buffer());
  EXPECT_EQ(host(r[1]), (std::vector<double>{1, 2}));
}

TEST(WhileLoop, ABodyThatWritesItsCarryInPlaceLeavesTheStartingArraysAlone) {
  const Array x = from({1, 2, 3}, {3});
  const auto r = lax::while_loop(
      [](const std::vector<Array>& c) { return std::vector<Array>{less(c[0], Scalar(3))}; },
      [](const std::vector<Array>& c) {
        copyto(c[1], multiply(c[1], Scalar(2)));  // in place, as Python code may write it
        return std::vector<Array>{add(c[0], Scalar(1)), c[1]};
      },
      {scalar_i64(0), x});
  EXPECT_EQ(host(r[1]), (std::vector<double>{8, 16, 24}));
  EXPECT_EQ(host(x), (std::vector<double>{1, 2, 3}));
}

TEST(WhileLoop, JitTracesOnceForEveryTripCountAndCapturesItsArguments) {
  const std::vector<float> x = random_values(4, 2);
  // n is an argument of the jitted function: the loop's cond reads it from the outer trace.
  const Jitted f = jit(count_loop);
  for (int64_t n : {0, 1, 5, 12}) {
    const auto r = f({scalar_i64(0), from(x, {4}), scalar_i64(n)});
    EXPECT_EQ(host(r[1]), count_loop_ref(0, n, x)) << n;
  }
  EXPECT_EQ(f.num_traces(), 1u);
  ASSERT_EQ(f.graph(0).ops.size(), 1u);
  EXPECT_STREQ(f.graph(0).ops[0].op->name, "while_loop");
}

TEST(WhileLoop, NestsInsideItsOwnBody) {
  // sum over i < n of (sum over j < i of 1) = n (n - 1) / 2, under jit, with both bounds captured.
  const Jitted f = jit([](const std::vector<Array>& a) {
    const Array n = a[0];
    return lax::fori_loop(scalar_i64(0), n,
                          [](const Array& i, const std::vector<Array>& c) {
                            return lax::fori_loop(scalar_i64(0), i,
                                                  [](const Array&, const std::vector<Array>& d) {
                                                    return std::vector<Array>{add(d[0], Scalar(1))};
                                                  },
                                                  c);
                          },
                          {scalar_i64(0)});
  });
  for (int64_t n : {0, 1, 2, 9}) EXPECT_EQ(host(f({scalar_i64(n)})[0])[0], static_cast<double>(n * (n - 1) / 2)) << n;
}

TEST(ForiLoop, SumsItsIndex) {
  const Array w = from(random_values(3, 3), {3});
  for (int64_t n : {0, 1, 10}) {
    const auto r = lax::fori_loop(
        2, 2 + n, [w](const Array& i, const std::vector<Array>& c) { return std::vector<Array>{add(c[0], multiply(w, i.astype(float32)))}; },
        {zeros({3}, float32, cpu())});
    const std::vector<double> wv = host(w);
    const std::vector<double> got = host(r[0]);
    for (size_t k = 0; k < 3; ++k) {
      float want = 0;
      for (int64_t i = 2; i < 2 + n; ++i) want += static_cast<float>(wv[k]) * static_cast<float>(i);
      EXPECT_NEAR(got[k], want, 1e-5 * (1 + std::abs(want)));
    }
  }
}

TEST(WhileLoop, VmapStopsEachExampleWhereItsOwnPredicateFails) {
  // Examples with trip counts 0, 3 and 9; y (captured, batched) is added each step.
  const std::vector<float> y = random_values(3, 4);
  const ArrayFn f = [](const std::vector<Array>& a) {
    const Array limit = a[1], y = a[2];
    return lax::while_loop([limit](const std::vector<Array>& c) { return std::vector<Array>{less(c[0], limit)}; },
                           [y](const std::vector<Array>& c) {
                             return std::vector<Array>{add(c[0], Scalar(1)), add(c[1], y)};
                           },
                           {a[0], zeros({}, float32, cpu())});
  };
  const Array start = full({3}, Scalar(int64_t{0}), int64, cpu());
  std::vector<int64_t> limits{0, 3, 9};
  const Array limit = from_host(HostView{limits.data(), int64, {3}, {8}}, cpu());
  const auto r = vmap(f)({start, limit, from(y, {3})});
  EXPECT_EQ(host(r[0]), (std::vector<double>{0, 3, 9}));
  const std::vector<double> got = host(r[1]);
  for (size_t b = 0; b < 3; ++b) {
    float want = 0;
    for (int64_t k = 0; k < limits[b]; ++k) want += y[b];
    EXPECT_NEAR(got[b], want, 1e-5) << b;
  }
  // The same under jit, and with the limit unbatched (in_axes None): all stop together.
  const auto j = jit(vmap(f))({start, limit, from(y, {3})});
  EXPECT_EQ(host(j[0]), (std::vector<double>{0, 3, 9}));
  const auto u = vmap(f, {0, std::nullopt, 0})({start, scalar_i64(2), from(y, {3})});
  EXPECT_EQ(host(u[0]), (std::vector<double>{2, 2, 2}));
  EXPECT_NEAR(host(u[1])[1], 2 * y[1], 1e-5);
}

// f(x, w) = sum of the carry after the loop x <- x * w + sin(x) runs while i < n (w captured),
// and the same loop unrolled in C++ (the trace of a Python loop): their derivatives agree.
std::vector<Array> sin_loop(const Array& x, const Array& w, const Array& n) {
  return lax::while_loop([n](const std::vector<Array>& c) { return std::vector<Array>{less(c[0], n)}; },
                         [w](const std::vector<Array>& c) {
                           return std::vector<Array>{add(c[0], Scalar(1)), add(multiply(c[1], w), sin(c[1]))};
                         },
                         {scalar_i64(0), x});
}
Array sin_unrolled(Array x, const Array& w, int64_t n) {
  for (int64_t i = 0; i < n; ++i) x = add(multiply(x, w), sin(x));
  return x;
}

TEST(WhileLoop, GradMatchesTheUnrolledLoopForTheCarryAndCapturedArrays) {
  const Array x = from(random_values(3, 5), {3}), w = from(random_values(3, 6), {3});
  for (int64_t n : {0, 1, 7}) {
    const ArrayFn f = [n](const std::vector<Array>& a) {
      return std::vector<Array>{sum(sin_loop(a[0], a[1], scalar_i64(n))[1])};
    };
    const ArrayFn ref = [n](const std::vector<Array>& a) { return std::vector<Array>{sum(sin_unrolled(a[0], a[1], n))}; };
    const auto got = grad(f, {0, 1})({x, w});
    const auto want = grad(ref, {0, 1})({x, w});
    const auto jitted = jit(grad(f, {0, 1}))({x, w});
    for (size_t k = 0; k < 2; ++k) {
      const std::vector<double> g = host(got[k]), wv = host(want[k]), j = host(jitted[k]);
      for (size_t i = 0; i < 3; ++i) {
        EXPECT_NEAR(g[i], wv[i], 1e-4 * (1 + std::abs(wv[i]))) << "n " << n << " arg " << k;
        EXPECT_NEAR(j[i], wv[i], 1e-4 * (1 + std::abs(wv[i]))) << "jit, n " << n << " arg " << k;
      }
    }
  }
}

TEST(WhileLoop, JvpIsTheTangentLoopUnderJitAndVmap) {
  const Array x = from(random_values(3, 7), {3}), w = from(random_values(3, 8), {3});
  const Array tx = from(random_values(3, 9), {3}), tw = from(random_values(3, 10), {3});
  const int64_t n = 5;
  const ArrayFn f = [](const std::vector<Array>& a) { return std::vector<Array>{sin_loop(a[0], a[1], scalar_i64(n))[1]}; };
  const ArrayFn ref = [](const std::vector<Array>& a) { return std::vector<Array>{sin_unrolled(a[0], a[1], n)}; };
  const auto [out, tan] = jvp(f, {x, w}, {tx, tw});
  const auto [ref_out, ref_tan] = jvp(ref, {x, w}, {tx, tw});
  const ArrayFn jvp_fn = [f, tx, tw](const std::vector<Array>& a) { return jvp(f, a, {tx, tw}).second; };
  const auto jitted = jit(jvp_fn)({x, w});
  const std::vector<double> o = host(out[0]), ro = host(ref_out[0]), t = host(tan[0]), rt = host(ref_tan[0]),
                            jt = host(jitted[0]);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_NEAR(o[i], ro[i], 1e-4 * (1 + std::abs(ro[i])));
    EXPECT_NEAR(t[i], rt[i], 1e-4 * (1 + std::abs(rt[i])));
    EXPECT_NEAR(jt[i], rt[i], 1e-4 * (1 + std::abs(rt[i])));
  }
  // vmap over tangents (jacfwd's form) and over primals through grad (the transpose record
  // runs once per example).
  const std::vector<float> rows = random_values(6, 11);
  const Array ts = from(rows, {2, 3});
  const ArrayFn along = [f, x, w](const std::vector<Array>& a) { return jvp(f, {x, w}, {a[0], zeros_like(w)}).second; };
  const ArrayFn ref_along = [ref, x, w](const std::vector<Array>& a) { return jvp(ref, {x, w}, {a[0], zeros_like(w)}).second; };
  const ArrayFn sum_f = [f](const std::vector<Array>& a) { return std::vector<Array>{sum(f(a)[0])}; };
  const ArrayFn sum_ref = [ref](const std::vector<Array>& a) { return std::vector<Array>{sum(ref(a)[0])}; };
  const std::vector<double> vt = host(vmap(along)({ts})[0]), vg = host(vmap(grad(sum_f), {0, std::nullopt})({ts, w})[0]);
  for (int64_t b = 0; b < 2; ++b) {
    const Array tb = from(std::vector<float>(rows.begin() + 3 * b, rows.begin() + 3 * b + 3), {3});
    const std::vector<double> rt_b = host(ref_along({tb})[0]), rg_b = host(grad(sum_ref)({tb, w})[0]);
    for (size_t i = 0; i < 3; ++i) {
      EXPECT_NEAR(vt[3 * b + i], rt_b[i], 1e-4 * (1 + std::abs(rt_b[i]))) << "vmap of jvp, example " << b;
      EXPECT_NEAR(vg[3 * b + i], rg_b[i], 1e-4 * (1 + std::abs(rg_b[i]))) << "vmap of grad, example " << b;
    }
  }
  // Forward mode twice: the second derivative in x along tx (a loop of loops).
  const ArrayFn df = [f, tx, w](const std::vector<Array>& a) { return jvp(f, {a[0], w}, {tx, zeros_like(w)}).second; };
  const ArrayFn dref = [ref, tx, w](const std::vector<Array>& a) { return jvp(ref, {a[0], w}, {tx, zeros_like(w)}).second; };
  const std::vector<double> h = host(jvp(df, {x}, {tx}).second[0]), rh = host(jvp(dref, {x}, {tx}).second[0]);
  for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(h[i], rh[i], 1e-3 * (1 + std::abs(rh[i])));
}

TEST(WhileLoop, ReverseOverReverseRefusesNamingTheLoop) {
  const ArrayFn f = [](const std::vector<Array>& a) {
    return std::vector<Array>{sum(sin_loop(a[0], a[0], scalar_i64(3))[1])};
  };
  const ArrayFn g = [f](const std::vector<Array>& a) { return std::vector<Array>{sum(grad(f)(a)[0])}; };
  try {
    grad(g)({from({1, 2}, {2})});
    FAIL() << "grad of grad of a while_loop ran";
  } catch (const UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("while_loop"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("jacfwd(jacfwd"), std::string::npos) << e.what();
  }
}

TEST(WhileLoop, ErrorsNameTheLoopAndTheProblem) {
  const Array x = from({1, 2}, {2});
  auto expect = [](const std::function<void()>& run, const std::string& words) {
    try {
      run();
      ADD_FAILURE() << "no error; wanted " << words;
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find("while_loop"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  const ArrayFn same = [](const std::vector<Array>& c) { return c; };
  const ArrayFn yes = [](const std::vector<Array>& c) { return std::vector<Array>{less(sum(c[0]), Scalar(0))}; };
  expect([&] { lax::while_loop([](const std::vector<Array>& c) { return c; }, same, {x}); }, "one bool scalar");
  expect([&] { lax::while_loop([](const std::vector<Array>& c) { return std::vector<Array>{less(c[0], Scalar(0))}; }, same, {x}); },
         "bool(2,)");
  expect([&] { lax::while_loop(yes, [](const std::vector<Array>& c) { return std::vector<Array>{c[0].astype(float64)}; }, {x}); },
         "element 0 is float64(2,)");
  expect([&] { lax::while_loop(yes, [](const std::vector<Array>&) { return std::vector<Array>{}; }, {x}); },
         "got 0");
  expect([&] { lax::while_loop(yes, same, {}); }, "carry is empty");
  // Writing an array of the enclosing trace in place.
  expect([&] {
    jit([&](const std::vector<Array>& a) {
      const Array outer = a[0];
      return lax::while_loop(yes,
                             [outer](const std::vector<Array>& c) {
                               copyto(outer, c[0]);
                               return c;
                             },
                             {a[1]});
    })({x, x.copy()});
  }, "in place");
}

}  // namespace
}  // namespace loom
