// The tiled matmul kernel (integers, bool, small float products) compiles with NVRTC (no GPU needed), and on a GPU every
// product path (cuBLAS per float dtype, transposed operands, batches, the NVRTC kernel)
// agrees with the CPU backend.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "loom/backend/cuda/linalg_programs.h"
#include "loom/backend/cuda/test_gpu.h"
#include "loom/backend/cuda/test_util.h"
#include "loom/ops/linalg.h"

namespace loom::testing {
namespace {

TEST(CudaLinalgCompile, TiledMatmulKernels) {
  for (int arch : {80, 90}) {
    for (int t = 0; t < kNumDTypes; ++t) {
      const DType dt = static_cast<DType>(t);
      if (!cuda::has_tiled_matmul(dt)) continue;
      const cuda::CompiledProgram c = cuda::compile_program(cuda::matmul_tiled_program(dt), arch);
      EXPECT_FALSE(c.is_ptx);
      ASSERT_EQ(c.lowered_names.size(), 1u) << dtype_name(dt);
      EXPECT_EQ(c.lowered_names[0].second.rfind("_Z", 0), 0u) << dtype_name(dt);
    }
  }
}

// A CPU array of `shape` with small random values (exact in every dtype's products).
Array small_values(const Shape& shape, DType dt) {
  const Array f = Array::allocate(shape, float64, cpu());
  auto& g = rng();
  for (int64_t i = 0; i < f.size(); ++i) static_cast<double*>(f.data())[i] = static_cast<double>(g() % 7) - 3.0;
  return f.astype(dt);
}

// A CPU array of `shape` with standard normal values.
Array random_normal(const Shape& shape, DType dt) {
  const Array f = Array::allocate(shape, float64, cpu());
  std::normal_distribution<double> normal;
  for (int64_t i = 0; i < f.size(); ++i) static_cast<double*>(f.data())[i] = normal(rng());
  return f.astype(dt);
}

std::vector<double> values(const Array& a) {
  const Array h = a.to(cpu()).astype(float64);
  const double* p = static_cast<const double*>(h.data());
  return std::vector<double>(p, p + h.size());
}

// f(a, b) on the CPU and on gpu(0) (where views of a and b keep their strided layouts).
template <class F>
void expect_gpu_matches_cpu(const Array& a, const Array& b, double tol, const std::string& what, F f) {
  const Array want = f(a, b);
  const Array got = f(a.copy_to(gpu0()), b.copy_to(gpu0()));
  ASSERT_EQ(got.shape(), want.shape()) << what;
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  EXPECT_EQ(got.device(), gpu0()) << what;
  const std::vector<double> g = values(got), w = values(want);
  for (size_t i = 0; i < g.size(); ++i) ASSERT_NEAR(g[i], w[i], tol * (1 + std::abs(w[i]))) << what << " at " << i;
}

Array product(const Array& a, const Array& b) { return matmul(a, b); }

// Each matrix of a 3-d array transposed (a view).
Array mT(const Array& a) {
  return a.view({a.shape()[0], a.shape()[2], a.shape()[1]}, {a.strides()[0], a.strides()[2], a.strides()[1]},
                a.offset());
}

TEST(CudaLinalg, EveryDtypeMatchesCpu) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  for (int t = 0; t < kNumRealDTypes; ++t) {  // complex products: test_complex.py
    const DType dt = static_cast<DType>(t);
    // Small integer values: products and sums are exact even in bfloat16 (|sum| <= 9 * 40).
    const Array a = small_values({3, 33, 40}, dt), b = small_values({40, 17}, dt);
    const double tol = dt == bfloat16 ? 1e-2 : 0;
    expect_gpu_matches_cpu(a, b, tol, std::string("broadcast ") + dtype_name(dt), product);
    expect_gpu_matches_cpu(a, b, tol, std::string("transposed ") + dtype_name(dt),
                           [](const Array& x, const Array& y) { return matmul(y.transpose(), mT(x)); });
    expect_gpu_matches_cpu(small_values({2, 1, 5, 40}, dt), small_values({4, 40, 3}, dt), tol,
                           std::string("batched ") + dtype_name(dt), product);
  }
}

TEST(CudaLinalg, LargeFloat32AndTf32) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  const Array a = small_values({300, 700}, float32), b = small_values({700, 500}, float32);
  expect_gpu_matches_cpu(a, b, 0, "float32 exact", product);
  set_matmul_precision("tf32");  // small integers are exact in TF32 too
  expect_gpu_matches_cpu(a, b, 0, "float32 tf32", product);
  set_matmul_precision("float32");
}

// Random normal operands around the size where products move from the tiled kernel to
// cuBLAS (float32 sums of up to 256 products: a relative 1e-3 is many ulps).
TEST(CudaLinalg, SmallAndLargeFloatProductsMatchCpu) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  const std::vector<std::pair<Shape, Shape>> cases = {
      {{10, 100}, {100, 150}}, {{3, 64, 128}, {128, 96}}, {{512, 256}, {256, 64}}, {{1, 7}, {7, 1}}};
  for (DType dt : {float32, float64}) {
    const double tol = dt == float32 ? 1e-3 : 1e-10;
    for (const auto& [sa, sb] : cases) {
      const Array a = random_normal(sa, dt), b = random_normal(sb, dt);
      const std::string what = shape_str(sa) + " @ " + shape_str(sb) + " " + dtype_name(dt);
      expect_gpu_matches_cpu(a, b, tol, what, product);
      const Array bt = random_normal({sb[1], sb[0]}, dt);
      expect_gpu_matches_cpu(a, bt, tol, what + " transposed",
                             [](const Array& x, const Array& y) { return matmul(x, y.transpose()); });
    }
  }
}

}  // namespace
}  // namespace loom::testing
