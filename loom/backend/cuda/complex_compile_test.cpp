// NVRTC compiles every function and operator of common/loom_complex.cuh for complex64 and
// complex128, written as the elementwise op table writes its expressions (x0 + x1, x0 != 0,
// loom_maximum(x0, x1), ...), in loom's own dialect (--minimal) for Hopper; no GPU needed, so
// this runs in CI.
#include <gtest/gtest.h>

#include "loom/core/error.h"
#include "loom/runtime/cuda/module_cache.h"

namespace loom::cuda {
namespace {

const char* const kSource = R"(
#include "loom_complex.cuh"
template <typename T>
__global__ void loom_complex_every_function(const loom_complex<T>* in, loom_complex<T>* out, T* real, bool* flag) {
  typedef loom_complex<T> C;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const C x0 = in[3 * i], x1 = in[3 * i + 1], x2 = in[3 * i + 2];
  C* o = out + 64 * i;
  int k = 0;
  o[k++] = x0 + x1; o[k++] = x0 - x1; o[k++] = x0 * x1; o[k++] = x0 / x1; o[k++] = -x0; o[k++] = +x0;
  o[k++] = x0 * x0; o[k++] = x0 + T(1); o[k++] = T(2) * x0; o[k++] = x0 / 2; o[k++] = 1 - x0;
  C acc = x0;
  acc += x1; acc -= x2; acc *= x1; acc /= x2;
  o[k++] = acc;
  o[k++] = loom_negative(x0); o[k++] = loom_sign(x0); o[k++] = loom_sqrt(x0); o[k++] = loom_reciprocal(x0);
  o[k++] = loom_exp(x0); o[k++] = loom_exp2(x0); o[k++] = loom_expm1(x0); o[k++] = loom_log(x0);
  o[k++] = loom_log2(x0); o[k++] = loom_log10(x0); o[k++] = loom_log1p(x0); o[k++] = loom_sin(x0);
  o[k++] = loom_cos(x0); o[k++] = loom_tan(x0); o[k++] = loom_arcsin(x0); o[k++] = loom_arccos(x0);
  o[k++] = loom_arctan(x0); o[k++] = loom_sinh(x0); o[k++] = loom_cosh(x0); o[k++] = loom_tanh(x0);
  o[k++] = loom_arcsinh(x0); o[k++] = loom_arccosh(x0); o[k++] = loom_arctanh(x0); o[k++] = loom_rint(x0);
  o[k++] = loom_power(x0, x1); o[k++] = loom_conj(x0); o[k++] = loom_maximum(x0, x1);
  o[k++] = loom_minimum(x0, x1); o[k++] = loom_fmax(x0, x1); o[k++] = loom_fmin(x0, x1);
  o[k++] = loom_clip(x0, x1, x2); o[k++] = flag[i] ? x1 : x2;
  T* r = real + 8 * i;
  r[0] = loom_abs(x0); r[1] = loom_real(x0); r[2] = loom_imag(x0); r[3] = loom_angle(x0);
  bool* f = flag + 32 * i;
  f[0] = x0 == x1; f[1] = x0 != x1; f[2] = x0 < x1; f[3] = x0 <= x1; f[4] = x0 > x1; f[5] = x0 >= x1;
  f[6] = x0 != 0; f[7] = x0 == 0; f[8] = 0 == x0; f[9] = !(x0 != 0); f[10] = (x0 != 0) && (x1 != 0);
  f[11] = (x0 != 0) || (x1 != 0); f[12] = (x0 != 0) != (x1 != 0); f[13] = loom_isnan(x0);
  f[14] = loom_isinf(x0); f[15] = loom_isfinite(x0);
}
)";

TEST(ComplexCompile, EveryFunctionForBothDtypes) {
  const Program p("loom_complex_every_function.cu", kSource,
                  {"loom_complex_every_function<float>", "loom_complex_every_function<double>"});
  CompiledProgram c;
  try {
    c = compile_program(p, 90);
  } catch (const CompileError& e) {
    FAIL() << e.log();
  }
  EXPECT_FALSE(c.is_ptx);
  EXPECT_FALSE(c.image.empty());
  ASSERT_EQ(c.lowered_names.size(), 2u);
  for (const auto& [expr, lowered] : c.lowered_names) EXPECT_FALSE(lowered.empty()) << expr;
}

}  // namespace
}  // namespace loom::cuda
