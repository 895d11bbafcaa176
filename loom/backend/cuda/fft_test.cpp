// On a GPU, the cuFFT evals agree with the CPU's FFTW over every layout the op layer hands
// them (inner 1: one batched plan; inner > 1: one call per outer row), both precisions,
// and the plan cache serves repeated and interleaved shapes (more than it holds).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "loom/backend/cuda/test_gpu.h"
#include "loom/backend/cuda/test_util.h"
#include "loom/ops/complex.h"
#include "loom/ops/fft.h"

namespace loom::testing {
namespace {

Array normal(const Shape& shape, DType dt) {
  const Array f = Array::allocate(shape, float64, cpu());
  std::normal_distribution<double> d;
  for (int64_t i = 0; i < f.size(); ++i) static_cast<double*>(f.data())[i] = d(rng());
  return f.astype(dt);
}

// The values of a real array, or the real then the imaginary parts of a complex one.
std::vector<double> parts(const Array& a) {
  const Array h = a.to(cpu());
  std::vector<double> v;
  for (const Array& p : is_complex(h.dtype()) ? std::vector<Array>{real(h), imag(h)} : std::vector<Array>{h}) {
    const Array d = p.astype(float64);
    const double* q = static_cast<const double*>(d.data());
    v.insert(v.end(), q, q + d.size());
  }
  return v;
}

template <class F>
void expect_gpu_matches_cpu(const Array& x, const std::string& what, F f) {
  const Array want = f(x);
  const Array got = f(x.copy_to(gpu0()));
  ASSERT_EQ(got.shape(), want.shape()) << what;
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  const std::vector<double> g = parts(got), w = parts(want);
  double scale = 1;
  for (double v : w) scale = std::max(scale, std::abs(v));
  const bool single = got.dtype() == complex64 || got.dtype() == float32;
  const double tol = (single ? 1e-5 : 1e-13) * scale;
  for (size_t i = 0; i < g.size(); ++i) ASSERT_NEAR(g[i], w[i], tol) << what << " at " << i;
}

TEST(CudaFft, EveryLayoutMatchesCpu) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  for (DType dt : {float32, float64}) {
    for (int64_t n : {1, 16, 17, 97, 1024}) {
      const Array x = normal({3, n, 5}, dt);
      for (int64_t axis : {0, 1, 2}) {
        const std::string what = std::string(dtype_name(dt)) + " n=" + std::to_string(n) + " axis " +
                                 std::to_string(axis);
        expect_gpu_matches_cpu(x, "fft " + what, [axis](const Array& a) { return fft::fft(a, std::nullopt, axis); });
        expect_gpu_matches_cpu(x, "ifft " + what, [axis](const Array& a) { return fft::ifft(a, std::nullopt, axis); });
        expect_gpu_matches_cpu(x, "rfft " + what, [axis](const Array& a) { return fft::rfft(a, std::nullopt, axis); });
        if (x.shape()[axis] > 1)  // irfft's default length 2 (m - 1) is 0 points for m = 1: NumPy's error
          expect_gpu_matches_cpu(x, "irfft " + what,
                                 [axis](const Array& a) { return fft::irfft(a, std::nullopt, axis); });
      }
    }
  }
}

TEST(CudaFft, ManyShapesCycleThroughThePlanCache) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  for (int round = 0; round < 2; ++round)
    for (int64_t n = 2; n < 40; ++n)
      expect_gpu_matches_cpu(normal({2, n}, float64), "n=" + std::to_string(n),
                             [](const Array& a) { return fft::fftn(a); });
}

}  // namespace
}  // namespace loom::testing
