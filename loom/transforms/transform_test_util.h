// Helpers of the transforms' tests on cpu() (scan, switch, checkpoint, custom_vjp, jacobian):
// an array's values as doubles, a fresh float64 array of uniform values, and an elementwise
// comparison within a relative tolerance.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "loom/array/array.h"
#include "loom/ops/creation.h"

namespace loom::transform_test {

inline std::vector<double> host(const Array& a) {
  const Array c = a.astype(float64).contiguous();
  std::vector<double> v(static_cast<size_t>(c.size()));
  c.copy_to_host(v.data());
  return v;
}

/// A float64 array of `shape` on cpu(), uniform in [lo, hi), from `seed`.
inline Array random_array(const Shape& shape, uint32_t seed, double lo = -1.0, double hi = 1.0) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<double> v(static_cast<size_t>(shape_size(shape)));
  for (double& x : v) x = d(gen);
  return from_host(HostView{v.data(), float64, shape, contiguous_strides(shape, 8)}, cpu());
}

/// got == want in shape, and element by element within tol * (1 + |want|).
inline void expect_near(const Array& got, const Array& want, double tol = 1e-12) {
  ASSERT_EQ(got.shape(), want.shape());
  const std::vector<double> g = host(got), w = host(want);
  for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], w[i], tol * (1 + std::abs(w[i]))) << "element " << i;
}

}  // namespace loom::transform_test
