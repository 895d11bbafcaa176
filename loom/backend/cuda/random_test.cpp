// loom.random's NVRTC programs compile for Ampere and Hopper (no GPU needed), and on a GPU
// every draw gives the CPU's bits exactly, normals included.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "loom/common/loom_philox.cuh"
#include "loom/runtime/cuda/module_cache.h"
#include "loom/backend/cuda/random.h"
#include "loom/backend/cuda/test_gpu.h"
#include "loom/core/error.h"
#include "loom/ops/random.h"

namespace loom::random {
namespace {

class CudaRandomCompile : public ::testing::TestWithParam<int> {};

TEST_P(CudaRandomCompile, EveryDtypeProgram) {
  for (int t = 0; t < kNumRealDTypes; ++t) {
    const cuda::Program& p = cuda::random_program(static_cast<DType>(t));
    const cuda::CompiledProgram c = cuda::compile_program(p, GetParam());
    EXPECT_FALSE(c.is_ptx);
    EXPECT_GT(c.image.size(), 1000u) << p.name();
    ASSERT_EQ(c.lowered_names.size(), p.name_expressions().size());
    for (const auto& [expr, lowered] : c.lowered_names) EXPECT_EQ(lowered.rfind("_Z", 0), 0u) << expr;
  }
}

INSTANTIATE_TEST_SUITE_P(Archs, CudaRandomCompile, ::testing::Values(80, 90),
                         [](const auto& info) { return "sm_" + std::to_string(info.param); });

TEST(CudaRandomNames, KernelPerDraw) {
  EXPECT_EQ(cuda::random_kernel_name(float32, loom_rng_normal, 1), "loom_random<float, 1, 1>");
  EXPECT_EQ(cuda::random_kernel_name(float64, loom_rng_uniform, 2), "loom_random<double, 0, 2>");
  EXPECT_EQ(cuda::random_kernel_name(int8, loom_rng_randint, 4), "loom_random<signed char, 2, 4>");
  EXPECT_EQ(cuda::random_kernel_name(bool_, loom_rng_bernoulli, 1), "loom_random<bool, 3, 1>");
  EXPECT_THROW(cuda::random_kernel_name(int32, loom_rng_normal, 1), DTypeError);
}

std::vector<unsigned char> bytes_of(const Array& a) {
  std::vector<unsigned char> b(a.nbytes());
  a.copy_to_host(b.data());
  return b;
}

void expect_same(const Array& gpu_result, const Array& cpu_result, const std::string& what) {
  ASSERT_EQ(gpu_result.dtype(), cpu_result.dtype()) << what;
  ASSERT_EQ(gpu_result.shape(), cpu_result.shape()) << what;
  EXPECT_TRUE(gpu_result.device().is_gpu()) << what;
  const auto g = bytes_of(gpu_result), c = bytes_of(cpu_result);
  size_t first = 0;
  while (first < g.size() && g[first] == c[first]) ++first;
  EXPECT_EQ(first, g.size()) << what << ": first differing byte " << first << " of " << g.size();
}

TEST(CudaRandom, SameBitsAsCpu) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  const Device gpu0 = gpu(0);
  // Odd sizes end in a partial block; 1 << 20 + 3 spans many grid-stride rounds.
  for (int64_t n : {int64_t{1}, int64_t{7}, int64_t{4099}, (int64_t{1} << 20) + 3}) {
    const Key k = fold_in(key(2024), static_cast<uint64_t>(n));
    for (DType dt : {float16, bfloat16, float32, float64}) {
      const std::string what = std::string(dtype_name(dt)) + " n=" + std::to_string(n);
      expect_same(uniform(k, {n}, dt, 0.0, 1.0, gpu0), uniform(k, {n}, dt, 0.0, 1.0, cpu()), "uniform " + what);
      expect_same(uniform(k, {n}, dt, -3.0, 5.5, gpu0), uniform(k, {n}, dt, -3.0, 5.5, cpu()), "uniform ab " + what);
      expect_same(normal(k, {n}, dt, gpu0), normal(k, {n}, dt, cpu()), "normal " + what);
    }
    for (int t = 0; t < kNumRealDTypes; ++t) {
      const DType dt = static_cast<DType>(t);
      if (is_floating(dt)) continue;
      const std::string what = std::string(dtype_name(dt)) + " n=" + std::to_string(n);
      const Scalar hi = dt == bool_ ? Scalar(2) : Scalar(100);
      expect_same(randint(k, {n}, Scalar(0), hi, dt, gpu0), randint(k, {n}, Scalar(0), hi, dt, cpu()),
                  "randint " + what);
    }
    const Scalar lo(static_cast<long long>(-(1ll << 40))), hi(static_cast<long long>(1ll << 41));
    expect_same(randint(k, {n}, lo, hi, int64, gpu0), randint(k, {n}, lo, hi, int64, cpu()), "randint 128-bit");
    const Scalar min64(static_cast<long long>(INT64_MIN)), max64(1ull << 63);
    expect_same(randint(k, {n}, min64, max64, int64, gpu0), randint(k, {n}, min64, max64, int64, cpu()),
                "randint full");
    expect_same(bernoulli(k, 0.3, {n}, gpu0), bernoulli(k, 0.3, {n}, cpu()), "bernoulli");
  }
}

TEST(CudaRandom, GlobalGeneratorSameOnBothDevices) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  seed(5);
  const Array g1 = randn({1001}, float32, gpu(0)), g2 = rand({33}, float64, gpu(0));
  seed(5);
  const Array c1 = randn({1001}, float32, cpu()), c2 = rand({33}, float64, cpu());
  expect_same(g1, c1, "randn");
  expect_same(g2, c2, "rand after randn");
  expect_same(permutation(key(3), 777, gpu(0)), permutation(key(3), 777, cpu()), "permutation");
}

}  // namespace
}  // namespace loom::random
