// The CPU kernel emulator's CUDA math API (part of loom_cuda_emu.h, split out by purpose):
// inlined into that header where it says `#include "loom_cuda_emu_math.h"  // loom:inline`
// when the header is embedded (cmake/embed_file_run.cmake), so the host compile still sees
// one header. Not a header of its own: it relies on what loom_cuda_emu.h declares before it.
// ---------------------------------------------------------------- math
// CUDA's math API. The C library's functions are declared as glibc declares them (C
// linkage, noexcept); CUDA's float overloads (sin(float), ...) are templates taking float
// only, so that a kernel's own <math.h> (whose `using std::sin;` brings non-template float
// overloads into the global namespace) adds to them instead of conflicting.
namespace loom_emu {
template <class T>
using IfFloat = std::enable_if_t<std::is_same<T, float>::value, int>;
template <class T>
using IfFloating = std::enable_if_t<std::is_floating_point<T>::value, int>;
}  // namespace loom_emu
#define LOOM_EMU_F(T) template <class T, loom_emu::IfFloat<T> = 0>
#define LOOM_EMU_M1(n)                                                       \
  extern "C" double n(double) noexcept;                                      \
  extern "C" float n##f(float) noexcept;                                     \
  LOOM_EMU_F(T) inline float n(T x) { return n##f(x); }
#define LOOM_EMU_M2(n)                                                       \
  extern "C" double n(double, double) noexcept;                              \
  extern "C" float n##f(float, float) noexcept;                              \
  LOOM_EMU_F(T) inline float n(T x, T y) { return n##f(x, y); }
#define LOOM_EMU_MX(R, n, P, A, RF, PF, AF)                                  \
  extern "C" R n P noexcept;                                                 \
  extern "C" RF n##f PF noexcept;                                            \
  LOOM_EMU_F(T) inline RF n AF
LOOM_EMU_M1(acos) LOOM_EMU_M1(acosh) LOOM_EMU_M1(asin) LOOM_EMU_M1(asinh) LOOM_EMU_M1(atan) LOOM_EMU_M1(atanh)
LOOM_EMU_M1(cbrt) LOOM_EMU_M1(ceil) LOOM_EMU_M1(cos) LOOM_EMU_M1(cosh) LOOM_EMU_M1(erf) LOOM_EMU_M1(erfc)
LOOM_EMU_M1(exp) LOOM_EMU_M1(exp10) LOOM_EMU_M1(exp2) LOOM_EMU_M1(expm1) LOOM_EMU_M1(fabs) LOOM_EMU_M1(floor)
LOOM_EMU_M1(j0) LOOM_EMU_M1(j1) LOOM_EMU_M1(lgamma) LOOM_EMU_M1(log) LOOM_EMU_M1(log10) LOOM_EMU_M1(log1p)
LOOM_EMU_M1(log2) LOOM_EMU_M1(logb) LOOM_EMU_M1(nearbyint) LOOM_EMU_M1(rint) LOOM_EMU_M1(round) LOOM_EMU_M1(sin)
LOOM_EMU_M1(sinh) LOOM_EMU_M1(sqrt) LOOM_EMU_M1(tan) LOOM_EMU_M1(tanh) LOOM_EMU_M1(tgamma) LOOM_EMU_M1(trunc)
LOOM_EMU_M1(y0) LOOM_EMU_M1(y1)
LOOM_EMU_M2(atan2) LOOM_EMU_M2(copysign) LOOM_EMU_M2(fdim) LOOM_EMU_M2(fmax) LOOM_EMU_M2(fmin) LOOM_EMU_M2(fmod)
LOOM_EMU_M2(hypot) LOOM_EMU_M2(nextafter) LOOM_EMU_M2(pow) LOOM_EMU_M2(remainder)
LOOM_EMU_MX(double, fma, (double, double, double), (T x, T y, T z), float, (float, float, float), (T x, T y, T z)) { return fmaf(x, y, z); }
LOOM_EMU_MX(double, frexp, (double, int*), (T x, int* e), float, (float, int*), (T x, int* e)) { return frexpf(x, e); }
LOOM_EMU_MX(double, ldexp, (double, int), (T x, int e), float, (float, int), (T x, int e)) { return ldexpf(x, e); }
LOOM_EMU_MX(double, modf, (double, double*), (T x, float* i), float, (float, float*), (T x, float* i)) { return modff(x, i); }
LOOM_EMU_MX(double, remquo, (double, double, int*), (T x, T y, int* q), float, (float, float, int*), (T x, T y, int* q)) {
  return remquof(x, y, q);
}
LOOM_EMU_MX(double, scalbn, (double, int), (T x, int e), float, (float, int), (T x, int e)) { return scalbnf(x, e); }
LOOM_EMU_MX(double, scalbln, (double, long), (T x, long e), float, (float, long), (T x, long e)) { return scalblnf(x, e); }
LOOM_EMU_MX(int, ilogb, (double), (T x), int, (float), (T x)) { return ilogbf(x); }
LOOM_EMU_MX(long, lrint, (double), (T x), long, (float), (T x)) { return lrintf(x); }
LOOM_EMU_MX(long, lround, (double), (T x), long, (float), (T x)) { return lroundf(x); }
LOOM_EMU_MX(long long, llrint, (double), (T x), long long, (float), (T x)) { return llrintf(x); }
LOOM_EMU_MX(long long, llround, (double), (T x), long long, (float), (T x)) { return llroundf(x); }
LOOM_EMU_MX(double, jn, (int, double), (int n, T x), float, (int, float), (int n, T x)) { return jnf(n, x); }
LOOM_EMU_MX(double, yn, (int, double), (int n, T x), float, (int, float), (int n, T x)) { return ynf(n, x); }
LOOM_EMU_MX(void, sincos, (double, double*, double*), (T x, float* s, float* c), void, (float, float*, float*),
            (T x, float* s, float* c)) { sincosf(x, s, c); }
extern "C" double nan(const char*) noexcept;
extern "C" float nanf(const char*) noexcept;
extern "C" int abs(int) noexcept;
extern "C" long labs(long) noexcept;
extern "C" long long llabs(long long) noexcept;
#undef LOOM_EMU_M1
#undef LOOM_EMU_M2
#undef LOOM_EMU_MX
template <class T, class = std::enable_if_t<std::is_same<T, long>::value || std::is_same<T, long long>::value>>
inline T abs(T x) { return x < 0 ? -x : x; }
template <class T, loom_emu::IfFloating<T> = 0>
inline T abs(T x) { return __builtin_copysign(x, 1.0); }
// Classification: functions in CUDA, macros in C (a kernel's <cmath> #undefs those).
#define LOOM_EMU_CLASSIFY(f, b) template <class T, loom_emu::IfFloating<T> = 0> inline bool f(T x) { return b(x); }
LOOM_EMU_CLASSIFY(isnan, __builtin_isnan)
LOOM_EMU_CLASSIFY(isinf, __builtin_isinf)
LOOM_EMU_CLASSIFY(isfinite, __builtin_isfinite)
LOOM_EMU_CLASSIFY(signbit, __builtin_signbit)
#undef LOOM_EMU_CLASSIFY

// CUDA's functions that the C library lacks. Intrinsics map to the accurate functions: the
// CPU has no faster approximations to match, and the GPU's __expf differs from expf by a
// few ulp (documented tolerance).
namespace loom_emu {
inline double erfinv(double y) {  // Giles' single-precision start, then Newton on erf
  if (!(y > -1.0 && y < 1.0)) return y == 1.0 ? __builtin_inf() : y == -1.0 ? -__builtin_inf() : __builtin_nan("");
  const double w0 = -log((1.0 - y) * (1.0 + y));
  double x;
  if (w0 < 5.0) {
    const double w = w0 - 2.5;
    double p = 2.81022636e-08;
    for (double c : {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503, -0.00417768164,
                     0.246640727, 1.50140941})
      p = c + p * w;
    x = p * y;
  } else {
    const double w = sqrt(w0) - 3.0;
    double p = -0.000200214257;
    for (double c : {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613, 0.00943887047,
                     1.00167406, 2.83297682})
      p = c + p * w;
    x = p * y;
  }
  for (int i = 0; i < 3; ++i) x -= (erf(x) - y) / (1.1283791670955126 * exp(-x * x));
  return x;
}
inline double erfcinv(double y) {  // erfc(x) = y, with Newton on erfc (accurate for tiny y)
  if (!(y > 0.0 && y < 2.0)) return y == 0.0 ? __builtin_inf() : y == 2.0 ? -__builtin_inf() : __builtin_nan("");
  double x = erfinv(1.0 - y);
  if (y < 1e-300 || !__builtin_isfinite(x)) x = sqrt(-log(y));  // 1 - y rounded to 1
  for (int i = 0; i < 4; ++i) x += (erfc(x) - y) / (1.1283791670955126 * exp(-x * x));
  return x;
}
inline double erfcx(double x) {
  if (x < 25.0) return exp(x * x) * erfc(x);
  const double r = 1.0 / (x * x);  // asymptotic series
  return 0.5641895835477563 / x * (1.0 - 0.5 * r * (1.0 - 1.5 * r * (1.0 - 2.5 * r)));
}
inline double bessel_i(double x, int nu) {  // I0, I1: the power series (positive terms)
  const double h = 0.5 * x;
  double term = nu ? h : 1.0, sum = term;
  for (int k = 1; k < 2000 && term > sum * 1e-17; ++k) sum += term *= h * h / (k * (k + nu));
  return sum;
}
}  // namespace loom_emu
#define LOOM_EMU_CUDA1(n, body)                             \
  inline double n(double x) { return body; }                \
  inline float n##f(float x) { return static_cast<float>(n(static_cast<double>(x))); } \
  inline float n(float x) { return n##f(x); }
LOOM_EMU_CUDA1(rsqrt, 1.0 / sqrt(x))
LOOM_EMU_CUDA1(rcbrt, 1.0 / cbrt(x))
LOOM_EMU_CUDA1(sinpi, sin(3.14159265358979323846 * x))
LOOM_EMU_CUDA1(cospi, cos(3.14159265358979323846 * x))
LOOM_EMU_CUDA1(normcdf, 0.5 * erfc(-x * 0.70710678118654752))
LOOM_EMU_CUDA1(normcdfinv, -1.4142135623730951 * loom_emu::erfcinv(2.0 * x))
LOOM_EMU_CUDA1(erfinv, loom_emu::erfinv(x))
LOOM_EMU_CUDA1(erfcinv, loom_emu::erfcinv(x))
LOOM_EMU_CUDA1(erfcx, loom_emu::erfcx(x))
LOOM_EMU_CUDA1(cyl_bessel_i0, loom_emu::bessel_i(x < 0 ? -x : x, 0))
LOOM_EMU_CUDA1(cyl_bessel_i1, (x < 0 ? -1 : 1) * loom_emu::bessel_i(x < 0 ? -x : x, 1))
#undef LOOM_EMU_CUDA1
inline void sincospi(double x, double* s, double* c) { *s = sinpi(x); *c = cospi(x); }
inline void sincospif(float x, float* s, float* c) { *s = sinpif(x); *c = cospif(x); }
inline void sincospi(float x, float* s, float* c) { sincospif(x, s, c); }
inline double rhypot(double x, double y) { return 1.0 / hypot(x, y); }
inline float rhypotf(float x, float y) { return 1.0f / hypotf(x, y); }
inline double norm3d(double a, double b, double c) { return sqrt(a * a + b * b + c * c); }
inline float norm3df(float a, float b, float c) { return static_cast<float>(norm3d(a, b, c)); }
inline double norm4d(double a, double b, double c, double d) { return sqrt(a * a + b * b + c * c + d * d); }
inline float norm4df(float a, float b, float c, float d) { return static_cast<float>(norm4d(a, b, c, d)); }
inline double rnorm3d(double a, double b, double c) { return 1.0 / norm3d(a, b, c); }
inline float rnorm3df(float a, float b, float c) { return 1.0f / norm3df(a, b, c); }
inline double rnorm4d(double a, double b, double c, double d) { return 1.0 / norm4d(a, b, c, d); }
inline float rnorm4df(float a, float b, float c, float d) { return 1.0f / norm4df(a, b, c, d); }
inline double norm(int n, const double* a) { double s = 0; for (int i = 0; i < n; ++i) s += a[i] * a[i]; return sqrt(s); }
inline float normf(int n, const float* a) { double s = 0; for (int i = 0; i < n; ++i) s += double(a[i]) * a[i]; return float(sqrt(s)); }
inline double rnorm(int n, const double* a) { return 1.0 / norm(n, a); }
inline float rnormf(int n, const float* a) { return 1.0f / normf(n, a); }
inline float fdividef(float a, float b) { return a / b; }
// glibc declares these names too (its internal aliases of expf, ...): the same linkage
// and exception specification, so that a kernel's own <math.h> redeclares them.
extern "C" {
inline float __expf(float x) noexcept { return expf(x); }
inline float __exp10f(float x) noexcept { return exp10f(x); }
inline float __logf(float x) noexcept { return logf(x); }
inline float __log2f(float x) noexcept { return log2f(x); }
inline float __log10f(float x) noexcept { return log10f(x); }
inline float __sinf(float x) noexcept { return sinf(x); }
inline float __cosf(float x) noexcept { return cosf(x); }
inline float __tanf(float x) noexcept { return tanf(x); }
inline void __sincosf(float x, float* s, float* c) noexcept { sincosf(x, s, c); }
inline float __powf(float x, float y) noexcept { return powf(x, y); }
}
inline float __fdividef(float a, float b) { return a / b; }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }
inline float saturate(float x) { return __saturatef(x); }
template <class T>
inline T __ldg(const T* p) { return *p; }

// min/max as CUDA overloads them (mixed arguments take the common type).
template <class A, class B, class = std::enable_if_t<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value>>
inline std::common_type_t<A, B> min(A a, B b) {
  using C = std::common_type_t<A, B>;
  return static_cast<C>(b) < static_cast<C>(a) ? static_cast<C>(b) : static_cast<C>(a);
}
template <class A, class B, class = std::enable_if_t<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value>>
inline std::common_type_t<A, B> max(A a, B b) {
  using C = std::common_type_t<A, B>;
  return static_cast<C>(a) < static_cast<C>(b) ? static_cast<C>(b) : static_cast<C>(a);
}
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }
inline unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
inline unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
inline long long llmin(long long a, long long b) { return a < b ? a : b; }
inline long long llmax(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }

// Integer intrinsics.
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned int __brev(unsigned int x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
  return __builtin_bswap32(x);
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned int>(x))) << 32) |
         __brev(static_cast<unsigned int>(x >> 32));
}
inline int __mul24(int a, int b) { return a * b; }
inline unsigned int __umul24(unsigned int a, unsigned int b) { return a * b; }
inline int __mulhi(int a, int b) { return static_cast<int>((static_cast<long long>(a) * b) >> 32); }
inline unsigned int __umulhi(unsigned int a, unsigned int b) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(a) * b) >> 32);
}
inline long long __mul64hi(long long a, long long b) {
  return static_cast<long long>((static_cast<__int128>(a) * b) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
inline float __int_as_float(int x) { float f; memcpy(&f, &x, 4); return f; }
inline int __float_as_int(float f) { int x; memcpy(&x, &f, 4); return x; }
inline float __uint_as_float(unsigned int x) { float f; memcpy(&f, &x, 4); return f; }
inline unsigned int __float_as_uint(float f) { unsigned int x; memcpy(&x, &f, 4); return x; }
inline double __longlong_as_double(long long x) { double d; memcpy(&d, &x, 8); return d; }
inline long long __double_as_longlong(double d) { long long x; memcpy(&x, &d, 8); return x; }
inline int __float2int_rn(float x) { return static_cast<int>(nearbyintf(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(x); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
