// loom::jacrev, jacfwd and hessian on cpu(): against the analytic Jacobian and Hessian of
// functions with several outputs of several shapes, under jit; the errors.
#include "loom/transforms/jacobian.h"

#include <gtest/gtest.h>

#include <vector>

#include "loom/core/error.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/linalg.h"
#include "loom/ops/reduce.h"
#include "loom/transforms/jit.h"
#include "loom/transforms/transform_test_util.h"

namespace loom {
namespace {

using namespace transform_test;

// f(w, x) = (sin(x) * s, W x) with s = sum(x^2): outputs of shapes (3,) and (2,).
std::vector<Array> f(const std::vector<Array>& a) {
  const Array s = sum(multiply(a[1], a[1]));
  return {multiply(sin(a[1]), s), matmul(a[0], a[1])};
}

TEST(Jacobian, RevAndFwdMatchTheAnalyticJacobians) {
  const Array w = random_array({2, 3}, 1), x = random_array({3}, 2);
  const std::vector<double> xv = host(x), wv = host(w);
  double s = 0;
  for (double v : xv) s += v * v;
  for (const ArrayFn& jac : {jacrev(f, 1), jacfwd(f, 1), ArrayFn(jit(jacrev(f, 1))), ArrayFn(jit(jacfwd(f, 1)))}) {
    const auto j = jac({w, x});
    ASSERT_EQ(j.size(), 2u);
    EXPECT_EQ(j[0].shape(), (Shape{3, 3}));
    EXPECT_EQ(j[1].shape(), (Shape{2, 3}));
    const std::vector<double> j0 = host(j[0]), j1 = host(j[1]);
    for (size_t r = 0; r < 3; ++r)
      for (size_t c = 0; c < 3; ++c) {
        // d(sin(x_r) s)/dx_c = cos(x_r) s [r == c] + sin(x_r) 2 x_c
        const double want = (r == c ? std::cos(xv[r]) * s : 0.0) + std::sin(xv[r]) * 2 * xv[c];
        EXPECT_NEAR(j0[r * 3 + c], want, 1e-12);
      }
    for (size_t i = 0; i < 6; ++i) EXPECT_NEAR(j1[i], wv[i], 1e-12);
  }
}

TEST(Jacobian, HessianOfAScalarFunction) {
  // h(x) = sum(x^3) + (sum x)^2: H = diag(6 x) + 2.
  const ArrayFn h = [](const std::vector<Array>& a) {
    const Array t = sum(a[0]);
    return std::vector<Array>{add(sum(multiply(multiply(a[0], a[0]), a[0])), multiply(t, t))};
  };
  const Array x = random_array({2, 2}, 3);
  const std::vector<double> xv = host(x);
  const Array hm = hessian(h)({x})[0];
  EXPECT_EQ(hm.shape(), (Shape{2, 2, 2, 2}));
  const std::vector<double> got = host(hm);
  for (size_t i = 0; i < 4; ++i)
    for (size_t k = 0; k < 4; ++k) EXPECT_NEAR(got[i * 4 + k], (i == k ? 6 * xv[i] : 0.0) + 2.0, 1e-12);
}

TEST(Jacobian, Errors) {
  const Array x = random_array({3}, 4);
  EXPECT_THROW(jacrev(f, 5)({x, x}), std::invalid_argument);
  const Array n = arange(0, 3, 1, int64, cpu());
  EXPECT_THROW(jacfwd(f, 1)({x, n}), DTypeError);
  EXPECT_THROW(hessian([](const std::vector<Array>& a) { return a; })({x}), std::invalid_argument);
}

}  // namespace
}  // namespace loom
