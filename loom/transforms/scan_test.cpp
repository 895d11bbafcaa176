// loom::lax::scan on cpu(): against the C++ loop it stands for (lengths 0, 1 and many, both
// directions); grad through it against grad of the same steps unrolled (carry, xs and the
// captured weights each get their cotangent), also under jit and twice; vmap with batched
// and unbatched xs; fori_loop with a known trip count differentiable; the errors.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "loom/core/error.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/linalg.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/take.h"
#include "loom/transforms/autodiff.h"
#include "loom/transforms/control_flow.h"
#include "loom/transforms/transform_test_util.h"
#include "loom/transforms/jit.h"
#include "loom/transforms/vmap.h"

namespace loom {
namespace {

using namespace transform_test;

// One step of a small recurrent cell: h' = tanh(h W + x), y = h' * 2 + x; W is captured.
std::vector<Array> cell(const Array& w, const Array& h, const Array& x) {
  const Array next = tanh(add(matmul(h, w), x));
  return {next, add(multiply(next, Scalar(2.0)), x)};
}

// The same recurrence through scan and as a C++ loop (unrolled into any trace around it):
// a = {h0, xs, W}; returns {final h, ys}.
std::vector<Array> scanned(const std::vector<Array>& a, bool reverse) {
  const Array w = a[2];
  const lax::ScanResult r = lax::scan([w](const std::vector<Array>& c) { return cell(w, c[0], c[1]); }, {a[0]}, {a[1]},
                                      std::nullopt, reverse);
  return {r.carry[0], r.ys[0]};
}
std::vector<Array> unrolled(const std::vector<Array>& a, bool reverse) {
  const int64_t n = a[1].shape()[0];
  Array h = a[0];
  std::vector<Array> ys(static_cast<size_t>(n));
  for (int64_t s = 0; s < n; ++s) {
    const int64_t t = reverse ? n - 1 - s : s;
    std::vector<Array> o = cell(a[2], h, take(a[1], full({}, Scalar(t), int64, cpu()), 0));
    h = o[0];
    ys[static_cast<size_t>(t)] = o[1];
  }
  Array stacked = n ? stack(ys, 0) : zeros({0, a[0].shape()[0]}, float64, cpu());
  return {h, stacked};
}

TEST(Scan, RunsAsTheLoopItStandsFor) {
  for (bool reverse : {false, true})
    for (int64_t n : {0, 1, 6}) {
      SCOPED_TRACE("n = " + std::to_string(n) + (reverse ? ", reverse" : ""));
      const std::vector<Array> a{random_array({3}, 1), random_array({n, 3}, 2), random_array({3, 3}, 3)};
      const auto got = scanned(a, reverse), want = unrolled(a, reverse);
      expect_near(got[0], want[0]);
      expect_near(got[1], want[1]);
    }
}

TEST(Scan, GradMatchesTheUnrolledLoopForCarryXsAndCapturedArrays) {
  for (bool reverse : {false, true})
    for (int64_t n : {0, 1, 5}) {
      SCOPED_TRACE("n = " + std::to_string(n) + (reverse ? ", reverse" : ""));
      auto loss = [reverse](bool scan) {
        return [scan, reverse](const std::vector<Array>& a) {
          const auto r = scan ? scanned(a, reverse) : unrolled(a, reverse);
          return std::vector<Array>{add(sum(multiply(r[0], r[0])), sum(sin(r[1])))};
        };
      };
      const std::vector<Array> a{random_array({3}, 4), random_array({n, 3}, 5), random_array({3, 3}, 6)};
      const auto got = grad(loss(true), {0, 1, 2})(a), want = grad(loss(false), {0, 1, 2})(a);
      for (size_t i = 0; i < 3; ++i) expect_near(got[i], want[i], 1e-10);
      // Under jit, the scan stays one op and the gradient is the same.
      const auto jitted = jit(grad(loss(true), {0, 1, 2}))(a);
      for (size_t i = 0; i < 3; ++i) expect_near(jitted[i], want[i], 1e-10);
    }
}

TEST(Scan, SecondDerivativeMatchesTheUnrolledLoop) {
  // d/dW of sum(dL/dh0): the backward scan is itself differentiated.
  auto outer = [](bool scan) {
    return [scan](const std::vector<Array>& a) {
      const ArrayFn inner = [scan](const std::vector<Array>& b) {
        const auto r = scan ? scanned(b, false) : unrolled(b, false);
        return std::vector<Array>{sum(multiply(r[0], r[0]))};
      };
      return std::vector<Array>{sum(grad(inner, {0})(a)[0])};
    };
  };
  const std::vector<Array> a{random_array({3}, 7), random_array({4, 3}, 8), random_array({3, 3}, 9)};
  expect_near(grad(outer(true), {2})(a)[0], grad(outer(false), {2})(a)[0], 1e-9);
}

TEST(Scan, JitKeepsOneOpForTheLoop) {
  const std::vector<Array> a{random_array({3}, 10), random_array({7, 3}, 11), random_array({3, 3}, 12)};
  const Jitted f = jit([](const std::vector<Array>& b) { return scanned(b, false); });
  const auto got = f(a), want = unrolled(a, false);
  expect_near(got[0], want[0]);
  expect_near(got[1], want[1]);
  // The loop is one op; the ys' 2 h + x, which the carry does not need, runs once after it
  // over every step's h (transforms/scan_sink.h).
  ASSERT_EQ(f.graph(0).ops.size(), 3u);
  EXPECT_STREQ(f.graph(0).ops[0].op->name, "scan_loop");
  EXPECT_STREQ(f.graph(0).ops[1].op->name, "multiply");
  EXPECT_STREQ(f.graph(0).ops[2].op->name, "add");
}

TEST(Scan, VmapBatchesCarryAndXsOrKeepsThemShared) {
  const Array h0 = random_array({4, 3}, 13), xs = random_array({4, 5, 3}, 14), w = random_array({3, 3}, 15);
  const ArrayFn f = [](const std::vector<Array>& a) { return scanned(a, false); };
  const auto got = vmap(f, {0, 0, std::nullopt})({h0, xs, w});
  const auto shared = vmap(f, {0, std::nullopt, std::nullopt})({h0, take(xs, full({}, Scalar(int64_t{1}), int64, cpu()), 0), w});
  for (int64_t b = 0; b < 4; ++b) {
    const Array i = full({}, Scalar(b), int64, cpu());
    const auto want = unrolled({take(h0, i, 0), take(xs, i, 0), w}, false);
    expect_near(take(got[0], i, 0), want[0]);
    expect_near(take(got[1], i, 0), want[1]);
    const auto want_shared = unrolled({take(h0, i, 0), take(xs, full({}, Scalar(int64_t{1}), int64, cpu()), 0), w}, false);
    expect_near(take(shared[1], i, 0), want_shared[1]);
  }
}

TEST(Scan, WithoutXsRunsLengthSteps) {
  const auto r = lax::scan(
      [](const std::vector<Array>& c) { return std::vector<Array>{multiply(c[0], Scalar(2.0)), c[0]}; },
      {full({}, Scalar(1.0), float64, cpu())}, {}, 4);
  EXPECT_EQ(host(r.carry[0]), (std::vector<double>{16}));
  EXPECT_EQ(host(r.ys[0]), (std::vector<double>{1, 2, 4, 8}));
}

TEST(ForiLoop, WithIntegerBoundsIsDifferentiable) {
  // c -> c * w + i, five times: grad with respect to w against the loop unrolled.
  auto f = [](bool loop) {
    return [loop](const std::vector<Array>& a) {
      const Array w = a[1];
      auto body = [w](const Array& i, const std::vector<Array>& c) {
        return std::vector<Array>{add(multiply(c[0], w), i.astype(float64))};
      };
      std::vector<Array> c{a[0]};
      if (loop)
        c = lax::fori_loop(1, 6, body, c);
      else
        for (int64_t i = 1; i < 6; ++i) c = body(full({}, Scalar(i), int64, cpu()), c);
      return std::vector<Array>{sum(c[0])};
    };
  };
  const std::vector<Array> a{random_array({3}, 16), random_array({3}, 17)};
  const auto got = grad(f(true), {0, 1})(a), want = grad(f(false), {0, 1})(a);
  expect_near(got[0], want[0]);
  expect_near(got[1], want[1]);
}

TEST(Scan, ErrorsNameTheScanAndTheProblem) {
  auto expect = [](const std::function<void()>& run, const std::string& words) {
    try {
      run();
      ADD_FAILURE() << "no error; wanted " << words;
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find("scan"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  const ArrayFn same = [](const std::vector<Array>& c) { return c; };
  const Array x = random_array({3}, 18);
  expect([&] { lax::scan(same, {x}, {}); }, "give the length");
  expect([&] { lax::scan(same, {x}, {random_array({2, 3}, 19), random_array({4}, 20)}); }, "leading extent 4");
  expect([&] { lax::scan(same, {x}, {random_array({2}, 21)}, 3); }, "length is 3");
  expect([&] { lax::scan(same, {}, {full({}, Scalar(1.0), float64, cpu())}); }, "scalar");
  expect([&] { lax::scan(same, {x}, {}, -1); }, "length must be >= 0");
  expect([&] { lax::scan([](const std::vector<Array>&) { return std::vector<Array>{}; }, {x}, {}, 2); }, "got 0");
  expect([&] {
    lax::scan([](const std::vector<Array>& c) { return std::vector<Array>{c[0].astype(float32)}; }, {x}, {}, 2);
  }, "element 0 is float32(3,)");
}

}  // namespace
}  // namespace loom
