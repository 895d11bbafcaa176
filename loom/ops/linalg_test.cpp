// Matrix products on the CPU: BLAS layouts, the BLAS path against loom's own loop, wrapping
// integers, shape errors, einsum and the precision switch.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "loom/backend/cpu/linalg_loop.h"
#include "loom/backend/linalg.h"
#include "loom/backend/linalg_gemm_layout.h"
#include "loom/core/error.h"
#include "loom/ops/creation.h"
#include "loom/ops/linalg.h"

namespace loom {
namespace {

template <class T>
Array filled(const Shape& shape, DType dt, std::mt19937& g) {
  Array a = Array::allocate(shape, dt, cpu());
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  T* p = static_cast<T*>(a.data());
  for (int64_t i = 0; i < a.size(); ++i) p[i] = static_cast<T>(std::is_integral_v<T> ? u(g) * 50 : u(g));
  return a;
}

template <class T>
const T* at(const Array& a) { return static_cast<const T*>(a.data()); }

TEST(GemmLayout, RowColumnBroadcastAndCopy) {
  const Array x = Array::allocate({2, 3, 4}, float32, cpu());
  GemmOperand g = gemm_operand(x);
  EXPECT_TRUE(g.ok);
  EXPECT_FALSE(g.transposed);
  EXPECT_EQ(g.ld, 4);
  EXPECT_EQ(g.batch_stride, 12);
  // Each matrix transposed (a view of x): column-major with ld = 4.
  g = gemm_operand(x.view({2, 4, 3}, {48, 4, 16}, 0));
  EXPECT_TRUE(g.ok);
  EXPECT_TRUE(g.transposed);
  EXPECT_EQ(g.ld, 4);
  // One matrix broadcast over a batch.
  g = gemm_operand(x.view({5, 3, 4}, {0, 16, 4}, 0));
  EXPECT_TRUE(g.ok);
  EXPECT_EQ(g.batch_stride, 0);
  // Every other column: no BLAS layout.
  EXPECT_FALSE(gemm_operand(x.view({1, 3, 2}, {0, 16, 8}, 0)).ok);
  // Size-1 dimensions take any stride.
  EXPECT_TRUE(gemm_operand(x.view({1, 1, 4}, {7, 1000, 4}, 0)).ok);
  EXPECT_TRUE(gemm_operand(x.view({1, 3, 1}, {0, 16, 999}, 0)).ok);
}

TEST(CpuGemm, BlasPathMatchesOwnLoop) {
  std::mt19937 g(7);
  for (DType dt : {float32, float64}) {
    for (bool transposed : {false, true}) {
      const int64_t nb = 3, m = 37, k = 53, n = 29;
      Array a = dt == float32 ? filled<float>({nb, m, k}, dt, g) : filled<double>({nb, m, k}, dt, g);
      Array b = dt == float32 ? filled<float>({nb, n, k}, dt, g) : filled<double>({nb, n, k}, dt, g);
      const int64_t it = static_cast<int64_t>(itemsize(dt));
      // b viewed as (nb, k, n) column-major matrices, or copied to row-major ones.
      Array bv = b.view({nb, k, n}, {n * k * it, it, k * it}, 0);
      if (!transposed) bv = bv.contiguous();
      Array blas = Array::allocate({nb, m, n}, dt, cpu()), loop = Array::allocate({nb, m, n}, dt, cpu());
      cpu_backend::gemm(a, bv, blas, false);
      cpu_backend::gemm_loop(a, bv, loop);
      for (int64_t i = 0; i < blas.size(); ++i) {
        const double x = dt == float32 ? at<float>(blas)[i] : at<double>(blas)[i];
        const double y = dt == float32 ? at<float>(loop)[i] : at<double>(loop)[i];
        EXPECT_NEAR(x, y, (dt == float32 ? 1e-4 : 1e-12) * k) << dtype_name(dt) << " " << i;
      }
    }
  }
}

TEST(Matmul, IntegersWrapAround) {
  Array a = Array::allocate({1, 2}, int8, cpu()), b = Array::allocate({2, 1}, int8, cpu());
  const int8_t av[] = {100, -100}, bv[] = {3, 2};
  std::memcpy(a.data(), av, 2);
  std::memcpy(b.data(), bv, 2);
  const Array c = matmul(a, b);  // 300 - 200 = 100; wraps in between
  ASSERT_EQ(c.shape(), (Shape{1, 1}));
  EXPECT_EQ(at<int8_t>(c)[0], 100);
  std::memcpy(b.data(), (const int8_t[]){3, -2}, 2);
  EXPECT_EQ(at<int8_t>(matmul(a, b))[0], static_cast<int8_t>(500 & 0xff));
}

TEST(Matmul, BoolIsOrOfAnds) {
  Array a = Array::allocate({2, 2}, bool_, cpu()), b = Array::allocate({2}, bool_, cpu());
  const bool av[] = {true, false, false, false}, bv[] = {true, true};
  std::memcpy(a.data(), av, 4);
  std::memcpy(b.data(), bv, 2);
  const Array c = matmul(a, b);
  ASSERT_EQ(c.shape(), (Shape{2}));
  EXPECT_TRUE(at<bool>(c)[0]);
  EXPECT_FALSE(at<bool>(c)[1]);
}

TEST(Matmul, ShapesAndErrors) {
  const Array s = zeros({}, float32, cpu()), v = ones({3}, float32, cpu()), m = ones({2, 3}, float32, cpu());
  EXPECT_THROW(matmul(s, v), std::invalid_argument);
  EXPECT_THROW(matmul(m, m), std::invalid_argument);
  EXPECT_EQ(matmul(v, v).ndim(), 0);
  EXPECT_FLOAT_EQ(at<float>(matmul(v, v))[0], 3.0f);
  EXPECT_EQ(matmul(m, v).shape(), (Shape{2}));
  const Array k0 = matmul(ones({2, 0}, float32, cpu()), ones({0, 4}, float32, cpu()));
  ASSERT_EQ(k0.shape(), (Shape{2, 4}));
  for (int i = 0; i < 8; ++i) EXPECT_EQ(at<float>(k0)[i], 0.0f);
  EXPECT_EQ(matmul(ones({4, 1, 2, 3}, int32, cpu()), ones({5, 3, 2}, int16, cpu())).shape(),
            (Shape{4, 5, 2, 2}));
  EXPECT_EQ(matmul(ones({2, 3}, int32, cpu()), ones({3, 2}, float32, cpu())).dtype(), float64);
}

TEST(Einsum, TraceDiagonalAndErrors) {
  Array a = Array::allocate({3, 3}, float64, cpu());
  for (int i = 0; i < 9; ++i) static_cast<double*>(a.data())[i] = i;
  EXPECT_DOUBLE_EQ(at<double>(einsum("ii", {a}))[0], 12.0);
  const Array d = einsum("ii->i", {a});
  ASSERT_EQ(d.shape(), (Shape{3}));
  EXPECT_EQ(d.strides(), (Strides{32}));  // a view with the diagonal's stride
  EXPECT_THROW(einsum("ij,jk", {a}), std::invalid_argument);
  EXPECT_THROW(einsum("ij->k", {a}), std::invalid_argument);
  EXPECT_THROW(einsum("i", {a}), std::invalid_argument);
}

TEST(MatmulPrecision, SetAndGet) {
  EXPECT_EQ(get_matmul_precision(), "float32");
  set_matmul_precision("tf32");
  EXPECT_EQ(get_matmul_precision(), "tf32");
  set_matmul_precision("highest");
  EXPECT_EQ(get_matmul_precision(), "float32");
  EXPECT_THROW(set_matmul_precision("medium"), std::invalid_argument);
}

}  // namespace
}  // namespace loom
