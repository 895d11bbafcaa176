// loom::custom_vjp_call on cpu(): the outputs are fwd's; grad is bwd's, even a bwd that is not
// linear in the cotangent (a clipped gradient); bwd's own ops are differentiated (second
// order); jit keeps one op; vmap batches fwd and bwd; bwd's errors name the op.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/reduce.h"
#include "loom/transforms/autodiff.h"
#include "loom/transforms/control_flow.h"
#include "loom/transforms/transform_test_util.h"
#include "loom/transforms/jit.h"
#include "loom/transforms/vmap.h"

namespace loom {
namespace {

using transform_test::expect_near;
using transform_test::host;
// Uniform in [-2, 2): cos crosses the clipping bounds of the rule below.
Array random_array(const Shape& shape, uint32_t seed) { return transform_test::random_array(shape, seed, -2.0, 2.0); }

// sin(x) with the residual cos(x); bwd clips the cotangent times cos(x) to [-0.5, 0.5].
std::vector<Array> clipped_sin(const Array& x) {
  const ArrayFn fwd = [](const std::vector<Array>& a) { return std::vector<Array>{sin(a[0]), cos(a[0])}; };
  const ArrayFn bwd = [](const std::vector<Array>& a) {
    return std::vector<Array>{clip(multiply(a[1], a[0]), Scalar(-0.5), Scalar(0.5))};
  };
  return custom_vjp_call(fwd, bwd, {x}, [] { return size_t{1}; });
}

ArrayFn loss = [](const std::vector<Array>& a) {
  const Array y = clipped_sin(a[0])[0];
  return std::vector<Array>{sum(multiply(y, Scalar(3.0)))};
};

TEST(CustomVjp, OutputsAreFwdsAndTheGradientIsBwds) {
  const Array x = random_array({16}, 1);
  const auto r = clipped_sin(x);
  ASSERT_EQ(r.size(), 2u);  // the output, then the residual
  expect_near(r[0], sin(x));
  const Array want = clip(multiply(full({}, Scalar(3.0), float64, cpu()), cos(x)), Scalar(-0.5), Scalar(0.5));
  expect_near(grad(loss)({x})[0], want);
  const Jitted j = jit(grad(loss));
  expect_near(j({x})[0], want);
}

TEST(CustomVjp, BwdIsDifferentiatedForSecondOrder) {
  // d/dx of the bwd above with cotangent 1 where it is not clipped: -sin(x).
  std::vector<double> v{0.1, -0.2, 0.3, 1.9};
  const Array x = from_host(HostView{v.data(), float64, {4}, {8}}, cpu());
  const ArrayFn g = [](const std::vector<Array>& a) {
    const ArrayFn inner = [](const std::vector<Array>& b) { return std::vector<Array>{sum(clipped_sin(b[0])[0])}; };
    return std::vector<Array>{sum(grad(inner)(a)[0])};
  };
  const std::vector<double> got = host(grad(g)({x})[0]);
  for (size_t i = 0; i < v.size(); ++i) {
    const double want = std::abs(std::cos(v[i])) < 0.5 ? -std::sin(v[i]) : 0.0;
    EXPECT_NEAR(got[i], want, 1e-12) << i;
  }
}

TEST(CustomVjp, VmapBatchesFwdAndBwd) {
  const Array xs = random_array({3, 5}, 2);
  const ArrayFn per_row = [](const std::vector<Array>& a) { return grad(loss)(a); };
  const auto g = vmap(per_row)({xs});
  expect_near(g[0], clip(multiply(full({}, Scalar(3.0), float64, cpu()), cos(xs)), Scalar(-0.5), Scalar(0.5)));
}

TEST(CustomVjp, ABwdOfTheWrongShapeIsNamed) {
  const ArrayFn fwd = [](const std::vector<Array>& a) { return std::vector<Array>{sin(a[0])}; };
  const ArrayFn bad = [](const std::vector<Array>& a) { return std::vector<Array>{sum(a[0])}; };
  const ArrayFn f = [&](const std::vector<Array>& a) {
    return std::vector<Array>{sum(custom_vjp_call(fwd, bad, {a[0]}, [] { return size_t{1}; })[0])};
  };
  try {
    grad(f)({random_array({4}, 3)});
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("custom_vjp"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("shape ()"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace loom
