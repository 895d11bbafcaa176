// The scalar functions behind the elementwise op table (loom/graph/op_table.h), with
// NumPy 2's results: integer division by zero gives 0, floor_divide/remainder follow
// Python's sign rules, maximum/minimum propagate NaN, shifts beyond the width saturate.
// Host+device: the CPU backend includes this file too, so both backends compute the
// same expression. Arguments are "value" types (bool, integers, float, double): float16
// and bfloat16 compute in float. Self-contained and small: every generated elementwise
// kernel includes it, and its parse time is part of the first call's cost.
#pragma once
#include "loom_cast.cuh"

#if !defined(__CUDACC__) && !defined(__CUDACC_RTC__)
#include <math.h>

#include <cstdint>
#include <cstring>
#endif

template <typename T> struct loom_is_signed { static constexpr bool value = T(-1) < T(0); };
template <typename T> struct loom_unsigned { typedef T type; };
template <> struct loom_unsigned<signed char> { typedef unsigned char type; };
template <> struct loom_unsigned<short> { typedef unsigned short type; };
template <> struct loom_unsigned<int> { typedef unsigned int type; };
template <> struct loom_unsigned<long long> { typedef unsigned long long type; };
template <> struct loom_unsigned<long> { typedef unsigned long type; };

// One-argument math: float -> the f-suffixed C function, double -> the plain one.
#define LOOM_MATH1(name, fn)                                   \
  LOOM_DEV float loom_##name(float x) { return fn##f(x); }     \
  LOOM_DEV double loom_##name(double x) { return fn(x); }
LOOM_MATH1(sqrt, sqrt)
LOOM_MATH1(cbrt, cbrt)
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
LOOM_MATH1(exp, exp)
LOOM_MATH1(tanh, tanh)
#else
// exp of a float on the host, branch-free in float arithmetic so that the CPU loops over
// it vectorize (glibc's expf is a call per element): Cody-Waite reduction by ln 2 and
// Cephes's degree-6 polynomial. At most 0.98 ulp from exp over every float (checked
// against double exp); glibc rounds 0.8% of floats the other way. NumPy's SIMD exp differs
// from glibc likewise. Clamped to [-104, 89] with integer masks (a float compare in a loop
// is not if-converted, as a NaN operand may trap); NaN stays NaN through the arithmetic.
inline float loom_host_expf(float xf) {
  int32_t xb;
  std::memcpy(&xb, &xf, 4);
  const int32_t mag = xb & 0x7fffffff;
  const bool not_nan = mag <= 0x7f800000;
  const int32_t low = -static_cast<int32_t>(xb < 0 && mag > 0x42d00000 && not_nan);    // below -104
  const int32_t high = -static_cast<int32_t>(xb >= 0 && mag > 0x42b20000 && not_nan);  // above 89
  xb = (xb & ~(low | high)) | (static_cast<int32_t>(0xc2d00000u) & low) | (0x42b20000 & high);
  float x;
  std::memcpy(&x, &xb, 4);
  const float shift = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer
  const float t = x * 1.44269504088896341f + shift;
  const float k = t - shift;
  const float r = (x - k * 0.693359375f) - k * -2.12194440e-4f;  // ln 2 in two parts
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * (r * r) + r + 1.0f;
  int32_t ki;
  std::memcpy(&ki, &t, 4);
  ki -= 0x4b400000;                          // k as an integer, in [-150, 129]
  const int32_t k1 = ki >> 1, k2 = ki - k1;  // 2^k as two normal factors (subnormal results)
  // Shifted as unsigned: for a NaN x, ki holds the NaN's bits and a signed shift would
  // overflow (undefined); the result is NaN whatever the factors' bits are.
  const uint32_t b1 = static_cast<uint32_t>(k1 + 127) << 23;
  const uint32_t b2 = static_cast<uint32_t>(k2 + 127) << 23;
  float s1, s2;
  std::memcpy(&s1, &b1, 4);
  std::memcpy(&s2, &b2, 4);
  return p * s1 * s2;
}
inline float loom_exp(float x) { return loom_host_expf(x); }
inline double loom_exp(double x) { return exp(x); }

// tanh of a float on the host, branch-free for the same reason (glibc's tanhf calls expm1f:
// about 20 ns an element, the whole cost of a small RNN step on the CPU). |x| < 0.625: Cephes's
// odd polynomial, x + x^3 P(x^2), free of cancellation near 0; beyond, 1 - 2 / (exp(2|x|) + 1),
// which exp's saturation to inf past |x| = 44.4 takes to 1. Both on |x|, x's sign put back by
// its bit (tanh(-0) is -0); NaN stays NaN. At most 1.31 ulp from tanh over every 13th float
// (against double tanh), where glibc's tanhf is off by up to 2.18.
inline float loom_host_tanhf(float xf) {
  uint32_t xb;
  std::memcpy(&xb, &xf, 4);
  const uint32_t sign = xb & 0x80000000u, mag = xb & 0x7fffffffu;
  float ax;
  std::memcpy(&ax, &mag, 4);
  const float z = ax * ax;
  float p = -5.70498872745e-3f;
  p = p * z + 2.06390887954e-2f;
  p = p * z - 5.37397155531e-2f;
  p = p * z + 1.33314422036e-1f;
  p = p * z - 3.33332819422e-1f;
  const float near0 = ax + ax * z * p;
  const float far = 1.0f - 2.0f / (loom_host_expf(ax + ax) + 1.0f);
  uint32_t nb, fb;
  std::memcpy(&nb, &near0, 4);
  std::memcpy(&fb, &far, 4);
  const uint32_t use_near = 0u - static_cast<uint32_t>(mag < 0x3f200000u);  // |x| < 0.625
  const uint32_t r = ((nb & use_near) | (fb & ~use_near)) | sign;
  float out;
  std::memcpy(&out, &r, 4);
  return out;
}
inline float loom_tanh(float x) { return loom_host_tanhf(x); }
inline double loom_tanh(double x) { return tanh(x); }
#endif
LOOM_MATH1(exp2, exp2)
LOOM_MATH1(expm1, expm1)
LOOM_MATH1(log, log)
LOOM_MATH1(log2, log2)
LOOM_MATH1(log10, log10)
LOOM_MATH1(log1p, log1p)
LOOM_MATH1(sin, sin)
LOOM_MATH1(cos, cos)
LOOM_MATH1(tan, tan)
LOOM_MATH1(arcsin, asin)
LOOM_MATH1(arccos, acos)
LOOM_MATH1(arctan, atan)
LOOM_MATH1(sinh, sinh)
LOOM_MATH1(cosh, cosh)
LOOM_MATH1(arcsinh, asinh)
LOOM_MATH1(arccosh, acosh)
LOOM_MATH1(arctanh, atanh)
LOOM_MATH1(rint, rint)
LOOM_MATH1(erf, erf)
LOOM_MATH1(fabs, fabs)
#undef LOOM_MATH1

#define LOOM_MATH2(name, fn)                                            \
  LOOM_DEV float loom_##name(float x, float y) { return fn##f(x, y); }   \
  LOOM_DEV double loom_##name(double x, double y) { return fn(x, y); }
LOOM_MATH2(arctan2, atan2)
LOOM_MATH2(hypot, hypot)
LOOM_MATH2(copysign, copysign)
LOOM_MATH2(fmod, fmod)
LOOM_MATH2(pow_fp, pow)
#undef LOOM_MATH2

template <typename T> LOOM_DEV bool loom_isnan(T x) { return x != x; }
template <typename T> LOOM_DEV bool loom_isinf(T x) {
  if constexpr (loom_kind<T>::value == loom_float) return x == x && x - x != x - x;  // inf - inf is NaN
  else return false;
}
template <typename T> LOOM_DEV bool loom_isfinite(T x) {
  if constexpr (loom_kind<T>::value == loom_float) return x - x == x - x;  // false for inf, NaN
  else return true;
}

// Rounding ops are the identity on integers and bools (NumPy 2 keeps their dtype).
#define LOOM_ROUNDING(name, fn)                                                    \
  template <typename T> LOOM_DEV T loom_##name(T x) {                              \
    if constexpr (loom_same<T, float>::value) return fn##f(x);                     \
    else if constexpr (loom_same<T, double>::value) return fn(x);                  \
    else return x;                                                                 \
  }
LOOM_ROUNDING(floor, floor)
LOOM_ROUNDING(ceil, ceil)
LOOM_ROUNDING(trunc, trunc)
#undef LOOM_ROUNDING

template <typename T> LOOM_DEV T loom_abs(T x) {
  if constexpr (loom_kind<T>::value == loom_float) return loom_fabs(x);
  else if constexpr (loom_kind<T>::value == loom_int && loom_is_signed<T>::value)
    return x < 0 ? static_cast<T>(-static_cast<typename loom_unsigned<T>::type>(x)) : x;
  else return x;
}

template <typename T> LOOM_DEV T loom_sign(T x) {
  if constexpr (loom_kind<T>::value == loom_float) return x > T(0) ? T(1) : x < T(0) ? T(-1) : x == T(0) ? T(0) : x;
  else return x > T(0) ? T(1) : x < T(0) ? static_cast<T>(-1) : T(0);
}

// The conjugate of a real value is itself (loom_complex.cuh overloads it for complex).
template <typename T> LOOM_DEV T loom_conj(T x) { return x; }

template <typename T> LOOM_DEV T loom_negative(T x) {
  if constexpr (loom_kind<T>::value == loom_int) return static_cast<T>(T(0) - x);
  else return -x;
}

// Integer 1/x: 0 for |x| > 1; x == 0 gives what NumPy's (T)(1.0 / 0) gives on x86-64.
template <typename T> LOOM_DEV T loom_reciprocal(T x) {
  if constexpr (loom_kind<T>::value == loom_float) {
    return T(1) / x;
  } else {
    if (x == 0) {
      if constexpr (loom_is_signed<T>::value && sizeof(T) >= 4)
        return static_cast<T>(static_cast<typename loom_unsigned<T>::type>(1) << (sizeof(T) * 8 - 1));
      else return T(0);
    }
    return static_cast<T>(T(1) / x);
  }
}

// ---- NumPy's floor division and Python remainder --------------------------------------
template <typename T> LOOM_DEV T loom_divmod_float(T a, T b, T* modulus) {
  T mod = loom_fmod(a, b);
  if (!b) {
    *modulus = mod;
    return a / b;
  }
  T div = (a - mod) / b;
  if (mod) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
      div -= T(1);
    }
  } else {
    mod = loom_copysign(T(0), b);
  }
  T floordiv;
  if (div) {
    floordiv = loom_floor(div);
    if (div - floordiv > T(0.5)) floordiv += T(1);
  } else {
    floordiv = loom_copysign(T(0), a / b);
  }
  *modulus = mod;
  return floordiv;
}

template <typename T> LOOM_DEV T loom_floor_divide(T a, T b) {
  if constexpr (loom_kind<T>::value == loom_float) {
    if (!b) return a / b;
    T mod;
    return loom_divmod_float(a, b, &mod);
  } else if constexpr (loom_is_signed<T>::value) {
    if (b == 0) return T(0);
    if (b == T(-1)) return loom_negative(a);  // MIN / -1 wraps to MIN, as NumPy
    T q = static_cast<T>(a / b);
    if ((a % b != 0) && ((a < 0) != (b < 0))) q = static_cast<T>(q - 1);
    return q;
  } else {
    return b == 0 ? T(0) : static_cast<T>(a / b);
  }
}

template <typename T> LOOM_DEV T loom_remainder(T a, T b) {
  if constexpr (loom_kind<T>::value == loom_float) {
    if (!b) return loom_fmod(a, b);
    T mod;
    loom_divmod_float(a, b, &mod);
    return mod;
  } else if constexpr (loom_is_signed<T>::value) {
    if (b == 0 || b == T(-1)) return T(0);
    T m = static_cast<T>(a % b);
    if (m != 0 && ((b < 0) != (m < 0))) m = static_cast<T>(m + b);
    return m;
  } else {
    return b == 0 ? T(0) : static_cast<T>(a % b);
  }
}

// Integer powers by squaring modulo 2^64 (NumPy wraps too). Negative exponents are
// rejected before the kernel runs (ValueError); here they give 0 as a defined fallback.
template <typename T> LOOM_DEV T loom_power(T a, T b) {
  if constexpr (loom_kind<T>::value == loom_float) {
    return loom_pow_fp(a, b);
  } else {
    if constexpr (loom_is_signed<T>::value) {
      if (b < 0) return T(0);
    }
    unsigned long long base = static_cast<unsigned long long>(a), e = static_cast<unsigned long long>(b);
    unsigned long long out = 1;
    while (e) {
      if (e & 1ull) out *= base;
      base *= base;
      e >>= 1;
    }
    return static_cast<T>(out);
  }
}

// ---- comparisons and selections -----------------------------------------------------
template <typename T> LOOM_DEV T loom_maximum(T a, T b) { return (a >= b || a != a) ? a : b; }
template <typename T> LOOM_DEV T loom_minimum(T a, T b) { return (a <= b || a != a) ? a : b; }
template <typename T> LOOM_DEV T loom_fmax(T a, T b) { return (a >= b || b != b) ? a : b; }
template <typename T> LOOM_DEV T loom_fmin(T a, T b) { return (a <= b || b != b) ? a : b; }
// NumPy's clip: NaN in x or in a bound propagates.
template <typename T> LOOM_DEV T loom_clip(T x, T lo, T hi) {
  const T t = x != x ? x : (x > lo ? x : lo);
  return t != t ? t : (t < hi ? t : hi);
}

// where's selection. Its condition is bool in generated kernels; the CPU loops widen it to
// the loop's value type first, which for complex is a pair: true when either part is nonzero.
template <typename C, typename T> LOOM_DEV T loom_where(C c, T a, T b) {
  if constexpr (loom_kind<C>::value == loom_cplx) return (c.re != 0 || c.im != 0) ? a : b;
  else return c ? a : b;
}

// ---- bits -----------------------------------------------------------------------------
template <typename T> LOOM_DEV T loom_invert(T x) {
  if constexpr (loom_same<T, bool>::value) return !x;
  else return static_cast<T>(~x);
}
// Shift counts outside [0, width) give 0 (left), or the sign fill (right), as NumPy.
template <typename T> LOOM_DEV T loom_left_shift(T a, T b) {
  typedef typename loom_unsigned<T>::type U;
  if (static_cast<unsigned long long>(b) < sizeof(T) * 8)
    return static_cast<T>(static_cast<U>(static_cast<U>(a) << static_cast<U>(b)));
  return T(0);
}
template <typename T> LOOM_DEV T loom_right_shift(T a, T b) {
  if (static_cast<unsigned long long>(b) < sizeof(T) * 8) return static_cast<T>(a >> b);
  if constexpr (loom_is_signed<T>::value) return a < 0 ? T(-1) : T(0);
  else return T(0);
}

// ---- NumPy's C-library ufuncs: fmod, gcd/lcm, nextafter, bitwise_count ------------------
// C's fmod (truncated division, the sign of a). Integers: a % b, 0 for b == 0 (NumPy warns
// and gives 0) and for b == -1 (whose quotient may overflow).
template <typename T> LOOM_DEV T loom_fmod_c(T a, T b) {
  if constexpr (loom_kind<T>::value == loom_float) {
    return loom_fmod(a, b);
  } else {
    if (b == 0) return T(0);
    if constexpr (loom_is_signed<T>::value) {
      if (b == T(-1)) return T(0);
    }
    return static_cast<T>(a % b);
  }
}

// |x| as the unsigned type (the most negative value maps to its magnitude, 2^(w-1)).
template <typename T> LOOM_DEV unsigned long long loom_magnitude(T x) {
  typedef typename loom_unsigned<T>::type U;
  if constexpr (loom_is_signed<T>::value) {
    if (x < 0) return static_cast<unsigned long long>(static_cast<U>(U(0) - static_cast<U>(x)));
  }
  return static_cast<unsigned long long>(static_cast<U>(x));
}

template <typename T> LOOM_DEV T loom_gcd(T a, T b) {
  unsigned long long x = loom_magnitude(a), y = loom_magnitude(b);
  while (y) {
    const unsigned long long r = x % y;
    x = y;
    y = r;
  }
  return static_cast<T>(x);
}
// lcm(a, b) = |a| / gcd * |b|, 0 when either is 0; wraps like NumPy's on overflow.
template <typename T> LOOM_DEV T loom_lcm(T a, T b) {
  const unsigned long long x = loom_magnitude(a), y = loom_magnitude(b);
  if (!x || !y) return T(0);
  const unsigned long long g = loom_magnitude(loom_gcd(a, b));
  return static_cast<T>(x / g * y);
}

LOOM_DEV float loom_nextafter(float x, float y) { return nextafterf(x, y); }
LOOM_DEV double loom_nextafter(double x, double y) { return nextafter(x, y); }

template <typename T> LOOM_DEV T loom_popcount(T x) {
  const unsigned long long m = loom_magnitude(x);
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
  return static_cast<T>(__popcll(m));
#else
  return static_cast<T>(__builtin_popcountll(m));
#endif
}

// ---- numpy.i0, ldexp, frexp ---------------------------------------------------------
// The modified Bessel function I0 (even) by its power series sum (x^2/4)^k / (k!)^2 in
// double: every term is positive, so the sum has no cancellation and its error stays within
// a few ulps; the terms peak near k = |x| / 2, which bounds the loop (about 500 steps at the
// largest finite result). Beyond 713.987 the result overflows (inf; NumPy's gives NaN at inf).
// One function for every backend (libstdc++'s std::cyl_bessel_i throws for large x).
LOOM_DEV double loom_i0(double x) {
  if (x != x) return x;
  const double a = x < 0 ? -x : x;
  if (a > 713.987) return 1e308 * (a - 703.0);  // inf: a - 703 > 10
  const double q = a * a * 0.25;
  double term = 1.0, sum = 1.0;
  for (int k = 1; k < 2000; ++k) {
    term *= q / (static_cast<double>(k) * k);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return sum;
}
LOOM_DEV float loom_i0(float x) { return static_cast<float>(loom_i0(static_cast<double>(x))); }
// I1 = I0' (odd), for i0's derivative: (x / 2) * sum (x^2/4)^k / (k! (k+1)!), the same way.
LOOM_DEV double loom_i1(double x) {
  if (x != x) return x;
  const double a = x < 0 ? -x : x;
  if (a > 713.987) return (x < 0 ? -1e308 : 1e308) * (a - 703.0);
  const double q = a * a * 0.25;
  double term = 1.0, sum = 1.0;
  for (int k = 1; k < 2000; ++k) {
    term *= q / (static_cast<double>(k) * (k + 1));
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return x * 0.5 * sum;
}
LOOM_DEV float loom_i1(float x) { return static_cast<float>(loom_i1(static_cast<double>(x))); }

// x * 2**e with e an integer value carried as a float; clamped to int's range (any
// exponent beyond +-2200 already saturates a double to 0 or inf).
template <typename T> LOOM_DEV T loom_ldexp(T x, T e) {
  const int n = e != e ? 0 : e > T(2200) ? 2200 : e < T(-2200) ? -2200 : static_cast<int>(e);
  if constexpr (loom_same<T, float>::value) return ldexpf(x, n);
  else return ldexp(x, n);
}

// frexp's parts. Infinities and NaN keep themselves as mantissa with exponent 0 (NumPy).
template <typename T> LOOM_DEV T loom_frexp_mantissa(T x) {
  int e = 0;
  if (!loom_isfinite(x)) return x;
  if constexpr (loom_same<T, float>::value) return frexpf(x, &e);
  else return frexp(x, &e);
}
template <typename T> LOOM_DEV T loom_frexp_exponent(T x) {
  int e = 0;
  if (!loom_isfinite(x)) return T(0);
  if constexpr (loom_same<T, float>::value) frexpf(x, &e);
  else frexp(x, &e);
  return static_cast<T>(e);
}
