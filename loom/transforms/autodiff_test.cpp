// loom::vjp, jvp, grad and value_and_grad on cpu(): gradients against central finite
// differences in float64, jvp against the vjp transposed, nested grad and jit(grad),
// in-place writes, stop_gradient and the errors.
#include "loom/transforms/autodiff.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "loom/core/error.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/indexing.h"
#include "loom/ops/linalg.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/sorting.h"
#include "loom/ops/stop_gradient.h"
#include "loom/transforms/jit.h"

namespace loom {
namespace {

std::vector<double> host(const Array& a) {
  const Array c = a.astype(float64);
  std::vector<double> v(static_cast<size_t>(c.size()));
  c.copy_to_host(v.data());
  return v;
}

Array from(const std::vector<double>& v, const Shape& shape) {
  return from_host(HostView{v.data(), float64, shape, contiguous_strides(shape, 8)}, cpu());
}

Array normal(const Shape& shape, uint32_t seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> d;
  std::vector<double> v(static_cast<size_t>(shape_size(shape)));
  for (double& x : v) x = d(gen);
  return from(v, shape);
}

double scalar(const Array& a) { return host(a).at(0); }

// Checks grad(f) (f's first output a scalar) against central differences at `args`.
void check_grad(const ArrayFn& f, const std::vector<Array>& args, double tol = 1e-6) {
  std::vector<int> all;
  for (size_t i = 0; i < args.size(); ++i) all.push_back(static_cast<int>(i));
  const std::vector<Array> g = grad(f, all)(args);
  ASSERT_EQ(g.size(), args.size());
  const double h = 1e-6;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::vector<double> x = host(args[i]);
    const std::vector<double> gi = host(g[i]);
    ASSERT_EQ(gi.size(), x.size());
    for (size_t j = 0; j < x.size(); ++j) {
      std::vector<Array> lo = args, hi = args;
      std::vector<double> xl = x, xh = x;
      xl[j] -= h, xh[j] += h;
      lo[i] = from(xl, args[i].shape()), hi[i] = from(xh, args[i].shape());
      const double fd = (scalar(f(hi)[0]) - scalar(f(lo)[0])) / (2 * h);
      EXPECT_NEAR(gi[j], fd, tol * (1 + std::abs(fd))) << "argument " << i << " element " << j;
    }
  }
}

ArrayFn unary(std::function<Array(const Array&)> f) {
  return [f](const std::vector<Array>& in) { return std::vector<Array>{f(in[0])}; };
}

TEST(Grad, ArithmeticAndBroadcasting) {
  check_grad([](const std::vector<Array>& in) {
    return std::vector<Array>{sum(multiply(exp(in[0]), add(in[1], 2.0)))};  // (3,4) * (4,)
  }, {normal({3, 4}, 1), normal({4}, 2)});
}

TEST(Grad, Reductions) {
  const Array x = normal({3, 4, 5}, 3);
  check_grad(unary([](const Array& a) { return sum(multiply(sum(a, std::vector<int64_t>{1}), sin(mean(a, std::vector<int64_t>{1})))); }), {x});
  check_grad(unary([](const Array& a) { return sum(multiply(prod(a, std::vector<int64_t>{0, 2}), 1.0)); }), {x});
  check_grad(unary([](const Array& a) { return sum(multiply(max(a, std::vector<int64_t>{2}), min(a, std::vector<int64_t>{2}))); }), {x});
  check_grad(unary([](const Array& a) { return add(sum(var(a, std::vector<int64_t>{1})), sum(std(a, std::vector<int64_t>{0, 2}))); }), {x});
  check_grad(unary([](const Array& a) { return sum(transpose(a)); }), {x});
  check_grad(unary([](const Array& a) { return sum(sin(sum(swapaxes(a, 0, 2), std::vector<int64_t>{1}))); }), {x});
  using linalg::NormOrd;
  for (const NormOrd& ord : {NormOrd{}, NormOrd::number(1), NormOrd::number(3), NormOrd::number(INFINITY),
                             NormOrd::number(-INFINITY)})
    check_grad(unary([ord](const Array& a) { return sum(linalg::norm(a, ord, std::vector<int64_t>{1})); }),
               {normal({3, 4}, 4)});
}

TEST(Grad, Scans) {
  const Array x = normal({3, 4}, 5);
  check_grad(unary([](const Array& a) { return sum(sin(cumsum(a, 1))); }), {x});
  check_grad(unary([](const Array& a) { return sum(sin(cumprod(a, 0))); }), {x});
  check_grad(unary([](const Array& a) { return sum(sin(cumsum(a))); }), {x});
}

TEST(Grad, MatmulAndEinsum) {
  check_grad([](const std::vector<Array>& in) { return std::vector<Array>{sum(sin(matmul(in[0], in[1])))}; },
             {normal({3, 4}, 6), normal({4, 2}, 7)});
  check_grad([](const std::vector<Array>& in) { return std::vector<Array>{sum(sin(matmul(in[0], in[1])))}; },
             {normal({2, 3, 4}, 8), normal({4, 2}, 9)});  // b broadcast over the batch
  check_grad([](const std::vector<Array>& in) { return std::vector<Array>{sum(sin(einsum("ij,jk->ik", in)))}; },
             {normal({3, 4}, 10), normal({4, 2}, 11)});
  check_grad([](const std::vector<Array>& in) { return std::vector<Array>{sum(sin(matmul(in[0], in[0])))}; },
             {normal({3, 3}, 12)});
}

TEST(Grad, IndexingAndUpdates) {
  const Array x = normal({5, 3}, 13);
  const std::vector<int64_t> iv{4, 0, 4};
  const Array idx = from_host(HostView{iv.data(), int64, {3}, {8}}, cpu());
  check_grad(unary([idx](const Array& a) { return sum(sin(getitem(a, {idx}))); }), {x});
  check_grad(unary([idx](const Array& a) { return sum(sin(getitem(a, {Slice{}, Index(int64_t{1})}))); }), {x});
  check_grad([idx](const std::vector<Array>& in) {
    return std::vector<Array>{sum(sin(at_update(in[0], {idx}, in[1], AtOp::add)))};
  }, {x, normal({3, 3}, 14)});
  const std::vector<int64_t> uv{1, 3};
  const Array uidx = from_host(HostView{uv.data(), int64, {2}, {8}}, cpu());
  for (AtOp op : {AtOp::set, AtOp::multiply, AtOp::min, AtOp::max})
    check_grad([uidx, op](const std::vector<Array>& in) {
      return std::vector<Array>{sum(sin(at_update(in[0], {uidx}, in[1], op)))};
    }, {x, normal({2, 3}, 15)});
  check_grad([](const std::vector<Array>& in) {  // x[1:3] = y into a copy: in place
    Array c = in[0].copy();
    setitem(c, {Slice{1, 3, std::nullopt}}, sin(in[1]));
    return std::vector<Array>{sum(multiply(c, c))};
  }, {x, normal({2, 3}, 16)});
}

TEST(Grad, ShapesConvertsAndSort) {
  const Array x = normal({3, 4}, 17);
  check_grad(unary([](const Array& a) { return sum(sin(repeat(a, std::vector<int64_t>{1, 3, 2}, 0))); }), {x});
  check_grad(unary([](const Array& a) { return sum(sin(concatenate({a, flip(a)}, 1))); }), {x});
  // Through float32 (finite differences would measure its rounding): d/dx sin(x) = cos(x).
  const std::vector<double> gc = host(grad(unary([](const Array& a) { return sum(sin(a.astype(float32))); }))({x})[0]);
  const std::vector<double> want = host(cos(x));
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(gc[i], want[i], 1e-6);
  check_grad(unary([](const Array& a) { return sum(multiply(sort(a), arange(0, 4, 1, float64, cpu()))); }), {x});
}

TEST(Grad, StopGradientAndIntegerInputs) {
  const Array x = normal({4}, 18);
  const std::vector<Array> g = grad(unary([](const Array& a) { return sum(multiply(a, stop_gradient(a))); }))({x});
  EXPECT_EQ(host(g[0]), host(x));  // d/dx x * c = c
  const Array n = arange(0, 4, 1, int64, cpu());
  const auto gi = grad([](const std::vector<Array>& in) { return std::vector<Array>{sum(multiply(in[0], in[1]))}; },
                       {0, 1})({x, n});
  EXPECT_EQ(host(gi[0]), host(n));
  EXPECT_EQ(gi[1].dtype(), int64);
  EXPECT_EQ(host(gi[1]), std::vector<double>(4, 0.0));
}

TEST(Grad, JvpIsTheVjpTransposed) {
  const ArrayFn f = [](const std::vector<Array>& in) {
    return std::vector<Array>{sin(matmul(in[0], in[1])), sum(exp(in[0]), std::vector<int64_t>{1})};
  };
  const std::vector<Array> x{normal({3, 4}, 19), normal({4, 2}, 20)};
  const std::vector<Array> t{normal({3, 4}, 21), normal({4, 2}, 22)};
  const std::vector<Array> u{normal({3, 2}, 23), normal({3}, 24)};
  auto [outs, jt] = jvp(f, x, t);
  auto [outs2, pullback] = vjp(f, x);
  const std::vector<Array> jtu = pullback(u);
  double lhs = 0, rhs = 0;
  for (size_t i = 0; i < u.size(); ++i) lhs += scalar(sum(multiply(jt[i], u[i])));
  for (size_t i = 0; i < t.size(); ++i) rhs += scalar(sum(multiply(t[i], jtu[i])));
  EXPECT_NEAR(lhs, rhs, 1e-9 * (1 + std::abs(lhs)));
  EXPECT_EQ(host(outs[0]), host(outs2[0]));
}

TEST(Grad, JvpOfAnArgumentPassedThrough) {
  // The tangent of an output that is an argument unchanged, shifted or reshaped is the
  // argument's tangent (the pullback's copy of a shared cotangent must stay differentiable).
  const Array x = normal({2, 3}, 40);
  const Array t = normal({2, 3}, 41);
  const ArrayFn f = [](const std::vector<Array>& in) {
    return std::vector<Array>{in[0], add(in[0], full({}, 2.0, float64, cpu())), reshape(in[0], {3, 2}),
                              subtract(in[0], stop_gradient(in[0]))};
  };
  auto [outs, jt] = jvp(f, {x}, {t});
  ASSERT_EQ(jt.size(), 4u);
  for (const Array& d : jt) EXPECT_EQ(host(d), host(t));
  EXPECT_EQ(jt[2].shape(), (Shape{3, 2}));
}

TEST(Grad, Compositions) {
  // d2/dx2 sum(sin(x)) = -sin(x); jit(grad) equals grad.
  const ArrayFn f = unary([](const Array& a) { return sum(sin(a)); });
  const ArrayFn df = grad(f);
  const ArrayFn sum_df = [df](const std::vector<Array>& in) { return std::vector<Array>{sum(df(in)[0])}; };
  const Array x = normal({5}, 25);
  const std::vector<double> d2 = host(grad(sum_df)({x})[0]);
  const std::vector<double> want = host(negative(sin(x)));
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(d2[i], want[i], 1e-12);
  Jitted jdf = jit(df);
  EXPECT_EQ(host(jdf({x})[0]), host(df({x})[0]));
  EXPECT_EQ(host(jdf({x})[0]), host(cos(x)));
  auto [value, grads] = value_and_grad(f)({x});
  EXPECT_EQ(scalar(value[0]), scalar(sum(sin(x))));
}

TEST(Grad, Errors) {
  const Array x = normal({3}, 26);
  try {
    grad(unary([](const Array& a) { return sin(a); }))({x});
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("must be a scalar"), std::string::npos) << e.what();
  }
  try {
    grad(unary([](const Array& a) { return sum(sin(argsort(a).astype(float64))) + sum(a); }))({x});
  } catch (...) {
    FAIL() << "argsort's integer result carries no cotangent";
  }
  try {
    grad(unary([](const Array& a) { return sum(sqrt(a)); }))({x});
  } catch (const UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("[grad] no derivative rule for 'sqrt'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace loom
