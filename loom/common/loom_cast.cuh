// Element types and casts shared by loom's device code. Self-contained (NVRTC gets no
// include path) and also compilable as host C++ so tests can check the casts on a CPU.
// The rules match the CPU backend: see backend/creation.h and core/convert.h.
#pragma once

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define LOOM_DEV __device__ __forceinline__
#else
#include <cmath>
#include <cstring>
#define LOOM_DEV inline
#endif

#define LOOM_MAX_DIMS 64

// float16 and bfloat16 as raw 16-bit patterns (no cuda_fp16.h needed).
struct loom_f16 { unsigned short bits; };
struct loom_bf16 { unsigned short bits; };

template <typename A, typename B> struct loom_same { static constexpr bool value = false; };
template <typename A> struct loom_same<A, A> { static constexpr bool value = true; };

template <typename T> struct loom_kind { static constexpr int value = 0; };  // 0: integer
template <> struct loom_kind<bool> { static constexpr int value = 1; };
template <> struct loom_kind<float> { static constexpr int value = 2; };
template <> struct loom_kind<double> { static constexpr int value = 2; };
template <> struct loom_kind<loom_f16> { static constexpr int value = 3; };
template <> struct loom_kind<loom_bf16> { static constexpr int value = 3; };

// complex64 and complex128: two T's, real part first, laid out as NumPy's and as
// std::complex / cuComplex (aligned to their size, as cuFloatComplex is). The arithmetic
// and math of complex values are in loom_complex.cuh; here only what casts need.
template <typename T> struct alignas(2 * sizeof(T)) loom_complex {
  T re, im;
  LOOM_DEV constexpr loom_complex() : re(T(0)), im(T(0)) {}
  // From a real value (a real element widened, a Python scalar): imaginary part 0.
  LOOM_DEV constexpr loom_complex(T r) : re(r), im(T(0)) {}  // NOLINT: implicit, as std::complex
  LOOM_DEV constexpr loom_complex(T r, T i) : re(r), im(i) {}
  template <typename U>
  LOOM_DEV explicit constexpr loom_complex(const loom_complex<U>& o) : re(T(o.re)), im(T(o.im)) {}
};
typedef loom_complex<float> loom_complex64;
typedef loom_complex<double> loom_complex128;
template <> struct loom_kind<loom_complex64> { static constexpr int value = 4; };
template <> struct loom_kind<loom_complex128> { static constexpr int value = 4; };
enum { loom_int = 0, loom_boolean = 1, loom_float = 2, loom_half = 3, loom_cplx = 4 };

// ---- bit casts ------------------------------------------------------------------
LOOM_DEV unsigned loom_float_bits(float f) {
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
  return __float_as_uint(f);
#else
  unsigned u; std::memcpy(&u, &f, 4); return u;
#endif
}
LOOM_DEV float loom_bits_float(unsigned u) {
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
  return __uint_as_float(u);
#else
  float f; std::memcpy(&f, &u, 4); return f;
#endif
}
LOOM_DEV unsigned long long loom_double_bits(double d) {
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
  return static_cast<unsigned long long>(__double_as_longlong(d));
#else
  unsigned long long u; std::memcpy(&u, &d, 8); return u;
#endif
}

// ---- 16-bit floats ---------------------------------------------------------------
LOOM_DEV float loom_f16_to_float(loom_f16 h) {
  const unsigned sign = (h.bits & 0x8000u) << 16, exp = (h.bits >> 10) & 0x1fu, man = h.bits & 0x3ffu;
  if (exp == 0) {  // zero or subnormal: man * 2^-24 is exact in float
    const float v = static_cast<float>(man) * 5.9604644775390625e-8f;
    return sign ? -v : v;
  }
  if (exp == 31) return loom_bits_float(sign | 0x7f800000u | (man << 13));
  return loom_bits_float(sign | ((exp + 112u) << 23) | (man << 13));
}
LOOM_DEV float loom_bf16_to_float(loom_bf16 b) { return loom_bits_float(static_cast<unsigned>(b.bits) << 16); }

// Rounds value = M * 2^(E - P) (M < 2^(P+1)) to nearest even in a float format with
// EB exponent and MB mantissa bits; overflow gives inf. Works from float and double alike.
template <int EB, int MB>
LOOM_DEV unsigned short loom_round_small_float(unsigned sign, int E, unsigned long long M, int P) {
  const int bias = (1 << (EB - 1)) - 1;
  const unsigned inf = ((1u << EB) - 1u) << MB;
  if (M == 0) return static_cast<unsigned short>(sign);
  if (E > bias) return static_cast<unsigned short>(sign | inf);
  const bool normal = E >= 1 - bias;
  const int shift = normal ? P - MB : P - MB + (1 - bias - E);
  unsigned long long q = 0;
  if (shift <= P + 1) {
    q = M >> shift;
    const unsigned long long rem = M & ((1ull << shift) - 1ull), half = 1ull << (shift - 1);
    if (rem > half || (rem == half && (q & 1ull))) ++q;
  }
  unsigned bits = normal ? (static_cast<unsigned>(E + bias - 1) << MB) + static_cast<unsigned>(q)
                         : static_cast<unsigned>(q);
  if (bits > inf) bits = inf;
  return static_cast<unsigned short>(sign | bits);
}

template <int EB, int MB>
LOOM_DEV unsigned short loom_float_to_small(float f) {
  const unsigned x = loom_float_bits(f);
  const unsigned sign = (x >> 16) & 0x8000u;
  const unsigned e = (x >> 23) & 0xffu, m = x & 0x7fffffu;
  const unsigned inf = ((1u << EB) - 1u) << MB;
  if (e == 0xffu) {
    if (m == 0) return static_cast<unsigned short>(sign | inf);
    // NaN stays NaN: quiet, with the top payload bits (as the CPU backend does).
    return static_cast<unsigned short>(sign | inf | (1u << (MB - 1)) | (m >> (23 - MB)));
  }
  if (e == 0) return loom_round_small_float<EB, MB>(sign, -126, m, 23);
  return loom_round_small_float<EB, MB>(sign, static_cast<int>(e) - 127, m | 0x800000u, 23);
}

template <int EB, int MB>
LOOM_DEV unsigned short loom_double_to_small(double d) {
  const unsigned long long x = loom_double_bits(d);
  const unsigned sign = static_cast<unsigned>(x >> 48) & 0x8000u;
  const unsigned e = static_cast<unsigned>(x >> 52) & 0x7ffu;
  const unsigned long long m = x & 0xfffffffffffffull;
  const unsigned inf = ((1u << EB) - 1u) << MB;
  if (e == 0x7ffu) {
    if (m == 0) return static_cast<unsigned short>(sign | inf);
    return static_cast<unsigned short>(sign | inf | (1u << (MB - 1)) | static_cast<unsigned>(m >> (52 - MB)));
  }
  if (e == 0) return loom_round_small_float<EB, MB>(sign, -1022, m, 52);
  return loom_round_small_float<EB, MB>(sign, static_cast<int>(e) - 1023, m | (1ull << 52), 52);
}

LOOM_DEV loom_f16 loom_float_to_f16(float f) { return loom_f16{loom_float_to_small<5, 10>(f)}; }
LOOM_DEV loom_f16 loom_double_to_f16(double d) { return loom_f16{loom_double_to_small<5, 10>(d)}; }
LOOM_DEV loom_bf16 loom_float_to_bf16(float f) { return loom_bf16{loom_float_to_small<8, 7>(f)}; }
LOOM_DEV loom_bf16 loom_double_to_bf16(double d) { return loom_bf16{loom_double_to_small<8, 7>(d)}; }

// ---- float -> integer: (T)(long long)x with x86's result for NaN / out of range ----
LOOM_DEV long long loom_to_i64(double x) {
  if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0)) return (-9223372036854775807ll - 1);
  return static_cast<long long>(x);
}
LOOM_DEV unsigned long long loom_to_u64(double x) {
  if (x < 0) return static_cast<unsigned long long>(loom_to_i64(x));
  if (!(x < 18446744073709551616.0)) return 9223372036854775808ull;  // NaN, too large
  return static_cast<unsigned long long>(x);
}

// ---- loads and stores of one element ------------------------------------------------
// Each dtype reads into a "value" type: bool -> bool, integers as themselves, float16 and
// bfloat16 -> float, float/double as themselves.
template <typename T> struct loom_value { typedef T type; };
template <> struct loom_value<loom_f16> { typedef float type; };
template <> struct loom_value<loom_bf16> { typedef float type; };

template <typename T>
LOOM_DEV typename loom_value<T>::type loom_widen(T x) {
  if constexpr (loom_same<T, loom_f16>::value) return loom_f16_to_float(x);
  else if constexpr (loom_same<T, loom_bf16>::value) return loom_bf16_to_float(x);
  else return x;
}
template <typename T>
LOOM_DEV T loom_load(const T* p) {
  if constexpr (loom_same<T, bool>::value) return *reinterpret_cast<const unsigned char*>(p) != 0;
  else return *p;
}

// loom_cast<D>(v): v is a value type (bool, an integer, float, double or complex).
// complex -> real keeps the real part (NumPy's cast, which warns); real -> complex has
// imaginary part 0; complex -> bool is true unless both parts are 0.
template <typename D, typename V>
LOOM_DEV D loom_cast(V v) {
  constexpr int dk = loom_kind<D>::value, vk = loom_kind<V>::value;
  if constexpr (loom_same<D, V>::value) {
    return v;
  } else if constexpr (vk == loom_cplx) {
    if constexpr (dk == loom_cplx) return D(v);
    else if constexpr (dk == loom_boolean) return v.re != 0 || v.im != 0;
    else return loom_cast<D>(v.re);
  } else if constexpr (dk == loom_cplx) {
    typedef decltype(D().re) R;
    return D(loom_cast<R>(v), R(0));
  } else if constexpr (dk == loom_boolean) {
    return v != V(0);
  } else if constexpr (vk == loom_boolean) {
    if constexpr (dk == loom_half) return loom_cast<D>(v ? 1.0f : 0.0f);
    else return static_cast<D>(v ? 1 : 0);
  } else if constexpr (vk == loom_int) {
    if constexpr (dk == loom_half) return loom_cast<D>(static_cast<float>(v));
    else return static_cast<D>(v);
  } else {  // v is float or double
    if constexpr (dk == loom_float) {
      return static_cast<D>(v);
    } else if constexpr (loom_same<D, loom_f16>::value) {
      if constexpr (loom_same<V, double>::value) return loom_double_to_f16(v);
      else return loom_float_to_f16(v);
    } else if constexpr (loom_same<D, loom_bf16>::value) {
      if constexpr (loom_same<V, double>::value) return loom_double_to_bf16(v);
      else return loom_float_to_bf16(v);
    } else if constexpr (loom_same<D, unsigned long long>::value) {
      return loom_to_u64(static_cast<double>(v));
    } else {
      return static_cast<D>(loom_to_i64(static_cast<double>(v)));
    }
  }
}

// Element of dtype S to dtype D, through S's value type.
template <typename D, typename S>
LOOM_DEV D loom_convert_element(S x) {
  return loom_cast<D>(loom_widen<S>(x));
}
