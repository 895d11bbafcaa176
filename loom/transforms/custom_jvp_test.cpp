// loom::custom_jvp_call on cpu(): the outputs are fn's; grad is the transpose of the rule's
// tangent map, even a rule that differs from fn's true derivative; the rule's own ops are
// differentiated (second order); jit keeps one op; vmap batches fn and the rule; a rule with
// the wrong number of tangents names the op.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/reduce.h"
#include "loom/transforms/autodiff.h"
#include "loom/transforms/control_flow.h"
#include "loom/transforms/jit.h"
#include "loom/transforms/transform_test_util.h"
#include "loom/transforms/vmap.h"

namespace loom {
namespace {

using transform_test::expect_near;
using transform_test::host;
Array random_array(const Shape& shape, uint32_t seed) { return transform_test::random_array(shape, seed, -2.0, 2.0); }

// f(x, y) = sin(x) * y with the rule's tangent 2 cos(x) y tx + sin(x) ty: twice the true
// derivative in x, so a result taken from the rule cannot be mistaken for autodiff's.
std::vector<Array> doubled(const Array& x, const Array& y) {
  const ArrayFn fn = [](const std::vector<Array>& a) { return std::vector<Array>{multiply(sin(a[0]), a[1])}; };
  const ArrayFn rule = [](const std::vector<Array>& a) {
    const Array &x0 = a[0], &y0 = a[1], &tx = a[2], &ty = a[3];
    return std::vector<Array>{add(multiply(multiply(cos(x0), y0), multiply(tx, Scalar(2.0))), multiply(sin(x0), ty))};
  };
  return custom_jvp_call(fn, rule, {x, y});
}

ArrayFn loss = [](const std::vector<Array>& a) { return std::vector<Array>{sum(doubled(a[0], a[1])[0])}; };

TEST(CustomJvp, OutputsAreFnsAndGradTransposesTheRule) {
  const Array x = random_array({8}, 1), y = random_array({8}, 2);
  expect_near(doubled(x, y)[0], multiply(sin(x), y));
  const std::vector<Array> g = grad(loss, {0, 1})({x, y});
  expect_near(g[0], multiply(multiply(cos(x), y), Scalar(2.0)));
  expect_near(g[1], sin(x));
  const Jitted j = jit(grad(loss, {0, 1}));
  const std::vector<Array> gj = j({x, y});
  expect_near(gj[0], g[0]);
  expect_near(gj[1], g[1]);
}

TEST(CustomJvp, JvpUsesTheRule) {
  const Array x = random_array({5}, 3), y = random_array({5}, 4), tx = random_array({5}, 5), ty = random_array({5}, 6);
  const ArrayFn f = [](const std::vector<Array>& a) { return doubled(a[0], a[1]); };
  const auto [out, tangent] = jvp(f, {x, y}, {tx, ty});
  expect_near(out[0], multiply(sin(x), y));
  expect_near(tangent[0], add(multiply(multiply(cos(x), y), multiply(tx, Scalar(2.0))), multiply(sin(x), ty)));
}

TEST(CustomJvp, TheRuleIsDifferentiatedForSecondOrder) {
  // d/dx of the x-gradient 2 cos(x) y is -2 sin(x) y.
  const Array x = random_array({6}, 7), y = random_array({6}, 8);
  const ArrayFn g = [](const std::vector<Array>& a) { return std::vector<Array>{sum(grad(loss)(a)[0])}; };
  expect_near(grad(g)({x, y})[0], multiply(multiply(sin(x), y), Scalar(-2.0)));
}

TEST(CustomJvp, VmapBatchesFnAndRule) {
  const Array x = random_array({3, 4}, 9), y = random_array({3, 4}, 10);
  const ArrayFn per_row = [](const std::vector<Array>& a) { return grad(loss, {0})(a); };
  const std::vector<Array> g = vmap(per_row)({x, y});
  expect_near(g[0], multiply(multiply(cos(x), y), Scalar(2.0)));
}

TEST(CustomJvp, RuleWithTheWrongTangentCountNamesTheOp) {
  const ArrayFn fn = [](const std::vector<Array>& a) { return std::vector<Array>{sin(a[0])}; };
  const ArrayFn bad = [](const std::vector<Array>& a) { return std::vector<Array>{a[1], a[1]}; };
  const ArrayFn f = [&](const std::vector<Array>& a) { return std::vector<Array>{sum(custom_jvp_call(fn, bad, a)[0])}; };
  try {
    grad(f)({random_array({3}, 11)});
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("[custom_jvp]"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace loom
