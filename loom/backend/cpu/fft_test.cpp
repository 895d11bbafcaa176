// The CPU FFT evals against a direct DFT in long double, over the (outer, n, inner) layouts
// (inner 1 and > 1, both precisions, odd, even and prime n), and the plan cache's reuse.
#include "loom/backend/fft.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "loom/backend/cpu/fft_plan.h"
#include "loom/core/error.h"
#include "loom/ops/creation.h"

namespace loom::cpu_backend {
namespace {

using cld = std::complex<long double>;

// x (outer, n, inner) as complex long doubles, read from a complex or real array.
std::vector<cld> values(const Array& a) {
  const Array h = a.contiguous();
  std::vector<cld> v(h.size());
  for (int64_t i = 0; i < h.size(); ++i) {
    switch (h.dtype()) {
      case DType::complex64: v[i] = cld(static_cast<const std::complex<float>*>(h.data())[i]); break;
      case DType::complex128: v[i] = cld(static_cast<const std::complex<double>*>(h.data())[i]); break;
      case DType::float32: v[i] = static_cast<const float*>(h.data())[i]; break;
      default: v[i] = static_cast<const double*>(h.data())[i]; break;
    }
  }
  return v;
}

Array random_array(const Shape& shape, DType t) {
  static std::mt19937 g(1234);
  std::normal_distribution<double> normal;
  const bool cplx = is_complex(t);
  const Array f = Array::allocate(cplx ? Shape{shape[0], shape[1], shape[2], 2} : shape, float64, cpu());
  for (int64_t i = 0; i < f.size(); ++i) static_cast<double*>(f.data())[i] = normal(g);
  if (!cplx) return f.astype(t);
  const Array c = Array::allocate(shape, complex128, cpu());
  std::copy_n(static_cast<const double*>(f.data()), f.size(), static_cast<double*>(c.data()));
  return c.astype(t);
}

// The DFT of x (outer, n, inner) along the middle axis, `m` outputs per row.
std::vector<cld> dft(const std::vector<cld>& x, int64_t outer, int64_t n, int64_t inner, int64_t m, int sign) {
  std::vector<cld> y(outer * m * inner);
  const long double pi = std::acos(-1.0L);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i)
      for (int64_t k = 0; k < m; ++k) {
        cld s = 0;
        for (int64_t j = 0; j < n; ++j)
          s += x[(o * n + j) * inner + i] * std::polar(1.0L, sign * 2 * pi * ((j * k) % n) / n);
        y[(o * m + k) * inner + i] = s;
      }
  return y;
}

// A build without FFTW must refuse clearly instead of computing: what the FFT tests check
// there (true), in place of the values (false: FFTW is present, test on).
bool refuses_without_fftw() {
  if (have_fftw()) return false;
  const Array x = Array::allocate({1, 4, 1}, complex64, cpu()), y = Array::allocate({1, 4, 1}, complex64, cpu());
  EXPECT_THROW(fft_c2c(x, y, false), UnsupportedError);
  return true;
}

void expect_close(const std::vector<cld>& got, const std::vector<cld>& want, double eps, int64_t n) {
  ASSERT_EQ(got.size(), want.size());
  long double scale = 1;
  for (const cld& w : want) scale = std::max(scale, std::abs(w));
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_LE(std::abs(got[i] - want[i]), 20 * eps * std::log2(n + 1.0) * scale) << "element " << i;
}

TEST(CpuFft, MatchesDirectDft) {
  if (refuses_without_fftw()) return;
  for (DType t : {complex64, complex128})
    for (int64_t n : {1, 2, 7, 16, 17})
      for (Shape s : {Shape{3, n, 1}, Shape{2, n, 5}, Shape{1, n, 4}}) {
        const double eps = t == complex64 ? 1.2e-7 : 2.3e-16;
        const Array x = random_array(s, t);
        for (bool inverse : {false, true}) {
          const Array y = Array::allocate(s, t, cpu());
          fft_c2c(x, y, inverse);
          expect_close(values(y), dft(values(x), s[0], n, s[2], n, inverse ? 1 : -1), eps, n);
        }
        // r2c, then c2r of its result returns n times the input.
        const DType rt = t == complex64 ? float32 : float64;
        const Array r = random_array(s, rt);
        const Array h = Array::allocate({s[0], n / 2 + 1, s[2]}, t, cpu());
        fft_r2c(r, h);
        expect_close(values(h), dft(values(r), s[0], n, s[2], n / 2 + 1, -1), eps, n);
        const Array back = Array::allocate(s, rt, cpu());
        fft_c2r(h.copy(), back);
        std::vector<cld> want = values(r);
        for (cld& w : want) w *= static_cast<long double>(n);
        expect_close(values(back), want, eps, n);
      }
}

TEST(CpuFft, PlansAreReused) {
  if (refuses_without_fftw()) return;
  fft_plan_clear();
  const FftPlanStats before = fft_plan_stats();
  const Array x = random_array({4, 64, 3}, complex64);
  const Array y = Array::allocate({4, 64, 3}, complex64, cpu());
  for (int i = 0; i < 5; ++i) fft_c2c(x, y, false);
  const FftPlanStats after = fft_plan_stats();
  EXPECT_EQ(after.misses - before.misses, 1u);
  EXPECT_EQ(after.hits - before.hits, 4u);
  EXPECT_EQ(after.size, 1u);
}

}  // namespace
}  // namespace loom::cpu_backend
