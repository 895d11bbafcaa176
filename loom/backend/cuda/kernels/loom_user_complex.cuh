// complex<T> for users' CUDA C: CuPy's `complex<float>` and PyCUDA's `pycuda::complex<float>`
// (thrust::complex and std::complex in their libraries). It is loom's complex64/complex128
// (loom_complex.cuh: NumPy's arithmetic and math, the same on every GPU and in the emulator)
// with the members and free functions those programs call: real(), imag(), abs, arg, norm,
// conj, polar, exp, log, sqrt, pow, the trigonometric and hyperbolic functions and their
// inverses. Included by the kernels loom generates with complex operands, and by
// `#include <pycuda-complex.hpp>` in loom.pycuda's modules.
#pragma once
#include "loom_complex.cuh"

template <typename T> struct complex : loom_complex<T> {
  typedef T value_type;
  LOOM_DEV constexpr complex() : loom_complex<T>() {}
  LOOM_DEV constexpr complex(T r) : loom_complex<T>(r) {}  // NOLINT: implicit, as std::complex
  LOOM_DEV constexpr complex(T r, T i) : loom_complex<T>(r, i) {}
  LOOM_DEV constexpr complex(const loom_complex<T>& z) : loom_complex<T>(z) {}  // NOLINT
  template <typename U>
  LOOM_DEV constexpr complex(const complex<U>& o) : loom_complex<T>(T(o.re), T(o.im)) {}  // NOLINT
  LOOM_DEV constexpr T real() const { return this->re; }
  LOOM_DEV constexpr T imag() const { return this->im; }
  LOOM_DEV void real(T v) { this->re = v; }
  LOOM_DEV void imag(T v) { this->im = v; }
  LOOM_DEV complex& operator+=(const complex& b) { return *this = *this + b; }
  LOOM_DEV complex& operator-=(const complex& b) { return *this = *this - b; }
  LOOM_DEV complex& operator*=(const complex& b) { return *this = *this * b; }
  LOOM_DEV complex& operator/=(const complex& b) { return *this = *this / b; }
};

// The operators give complex<T> (not the base), so `(a * b).real()` works; a plain T or an
// integer on either side acts as T + 0i.
#define LOOM_USER_CPLX_OP(op)                                                                          \
  template <typename T> LOOM_DEV complex<T> operator op(const complex<T>& a, const complex<T>& b) {    \
    return complex<T>(static_cast<const loom_complex<T>&>(a) op static_cast<const loom_complex<T>&>(b)); \
  }                                                                                                    \
  template <typename T>                                                                                \
  LOOM_DEV complex<T> operator op(const complex<T>& a, typename loom_cplx_id<T>::type b) {             \
    return a op complex<T>(b);                                                                         \
  }                                                                                                    \
  template <typename T>                                                                                \
  LOOM_DEV complex<T> operator op(typename loom_cplx_id<T>::type a, const complex<T>& b) {             \
    return complex<T>(a) op b;                                                                         \
  }
LOOM_USER_CPLX_OP(+)
LOOM_USER_CPLX_OP(-)
LOOM_USER_CPLX_OP(*)
LOOM_USER_CPLX_OP(/)
#undef LOOM_USER_CPLX_OP
template <typename T> LOOM_DEV complex<T> operator-(const complex<T>& a) { return complex<T>(-a.re, -a.im); }
template <typename T> LOOM_DEV complex<T> operator+(const complex<T>& a) { return a; }

template <typename T> LOOM_DEV T real(const complex<T>& z) { return z.re; }
template <typename T> LOOM_DEV T imag(const complex<T>& z) { return z.im; }
template <typename T> LOOM_DEV T abs(const complex<T>& z) { return loom_abs(loom_complex<T>(z)); }
template <typename T> LOOM_DEV T arg(const complex<T>& z) { return loom_angle(loom_complex<T>(z)); }
template <typename T> LOOM_DEV T norm(const complex<T>& z) { return z.re * z.re + z.im * z.im; }
template <typename T> LOOM_DEV complex<T> conj(const complex<T>& z) { return complex<T>(z.re, -z.im); }
template <typename T> LOOM_DEV complex<T> polar(T r, T theta = T(0)) {
  return complex<T>(r * loom_cos(theta), r * loom_sin(theta));
}
template <typename T> LOOM_DEV complex<T> pow(const complex<T>& a, const complex<T>& b) {
  return loom_power(loom_complex<T>(a), loom_complex<T>(b));
}
template <typename T> LOOM_DEV complex<T> pow(const complex<T>& a, typename loom_cplx_id<T>::type b) {
  return loom_power(loom_complex<T>(a), loom_complex<T>(b));
}
template <typename T> LOOM_DEV complex<T> pow(typename loom_cplx_id<T>::type a, const complex<T>& b) {
  return loom_power(loom_complex<T>(a), loom_complex<T>(b));
}
#define LOOM_USER_CPLX_FN(name, impl) \
  template <typename T> LOOM_DEV complex<T> name(const complex<T>& z) { return impl(loom_complex<T>(z)); }
LOOM_USER_CPLX_FN(exp, loom_exp)
LOOM_USER_CPLX_FN(log, loom_log)
LOOM_USER_CPLX_FN(log10, loom_log10)
LOOM_USER_CPLX_FN(sqrt, loom_sqrt)
LOOM_USER_CPLX_FN(sin, loom_sin)
LOOM_USER_CPLX_FN(cos, loom_cos)
LOOM_USER_CPLX_FN(tan, loom_tan)
LOOM_USER_CPLX_FN(sinh, loom_sinh)
LOOM_USER_CPLX_FN(cosh, loom_cosh)
LOOM_USER_CPLX_FN(tanh, loom_tanh)
LOOM_USER_CPLX_FN(asin, loom_arcsin)
LOOM_USER_CPLX_FN(acos, loom_arccos)
LOOM_USER_CPLX_FN(atan, loom_arctan)
LOOM_USER_CPLX_FN(asinh, loom_arcsinh)
LOOM_USER_CPLX_FN(acosh, loom_arccosh)
LOOM_USER_CPLX_FN(atanh, loom_arctanh)
#undef LOOM_USER_CPLX_FN

// PyCUDA's spelling: pycuda::complex<float>, pycuda::abs(z), ...
namespace pycuda {
template <typename T> using complex = ::complex<T>;
using ::abs; using ::arg; using ::norm; using ::conj; using ::polar; using ::pow; using ::exp; using ::log;
using ::log10; using ::sqrt; using ::sin; using ::cos; using ::tan; using ::sinh; using ::cosh; using ::tanh;
using ::asin; using ::acos; using ::atan; using ::asinh; using ::acosh; using ::atanh; using ::real; using ::imag;
}  // namespace pycuda
