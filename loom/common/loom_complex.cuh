// Arithmetic and math of complex64/complex128 values (loom_complex<T> of loom_cast.cuh), host and
// device, with NumPy 2's results: +, -, *, /, reciprocal, sign, expm1 (see loom_expm1), the
// comparisons and small integer powers by NumPy's own formulas, operation for operation (so that
// infinities, NaNs and overflows come out as NumPy's), the rest as glibc's C99 functions (csqrt,
// cexp, clog, casin, ...: their branch cuts, signed zeros, infinities and NaNs, C99 Annex G and
// glibc's choices), with careful formulas for the values (Hull, Fairgrieve and Tang for asin/acos,
// Kahan for tanh/atanh, a compensated |z|^2 for log|z|). Exact where NumPy's formula loses digits:
// exp2, log1p and sign of huge or subnormal z. Templates over T in {float, double}; complex64 in float.
#pragma once
#include "loom_math.cuh"

template <typename T> struct loom_cplx_id { typedef T type; };  // a non-deduced T operand

template <typename T> struct loom_cplx_k {
  static constexpr bool f = sizeof(T) == 4;
  static constexpr T eps = T(f ? 1.1920928955078125e-07 : 2.220446049250313e-16);
  static constexpr T max = T(f ? 3.4028234663852886e+38 : 1.7976931348623157e+308);
  static constexpr T min = T(f ? 1.1754943508222875e-38 : 2.2250738585072014e-308);  // smallest normal
  static constexpr T sqrt_eps = T(f ? 3.4526698300124393e-04 : 1.4901161193847656e-08);
  static constexpr T log_inv_eps = T(f ? 15.942385152878742 : 36.04365338911715);  // log(1/eps)
  static constexpr T log_max = T(f ? 88.72 : 709.78);  // exp overflows a little above
  static constexpr T big_t = T(f ? 88 : 709), e_big_t = T(f ? 1.6516362549940018e+38 : 8.218407461554972e+307);
  static constexpr T big_t2 = T(f ? 127 : 1023), e_big_t2 = T(f ? 1.7014118346046923e+38 : 8.98846567431158e+307);
  static constexpr T tanh_big = T(f ? 11 : 22);        // tanh(x) rounds to +-1 beyond
  static constexpr T ln2 = T(0.6931471805599453), ln2_lo = T(f ? -1.904654299957768e-09 : 2.3190468138462996e-17);
  static constexpr T log2e = T(1.4426950408889634), log10e = T(0.4342944819032518);
  static constexpr T pi = T(3.141592653589793), pi_2 = T(1.5707963267948966), pi_4 = T(0.7853981633974483);
};

template <typename T> LOOM_DEV T loom_cplx_inf() {
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
  if constexpr (sizeof(T) == 4) return __int_as_float(0x7f800000);
  else return __longlong_as_double(0x7ff0000000000000ll);
#else
  return T(HUGE_VAL);
#endif
}
template <typename T> LOOM_DEV T loom_cplx_nan() {
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
  if constexpr (sizeof(T) == 4) return __int_as_float(0x7fc00000);
  else return __longlong_as_double(0x7ff8000000000000ll);
#else
  return T(NAN);
#endif
}
template <typename T> LOOM_DEV bool loom_cplx_signbit(T x) { return loom_copysign(T(1), x) < T(0); }
template <typename T> LOOM_DEV T loom_cplx_fma(T a, T b, T c) {
  if constexpr (sizeof(T) == 4) return fmaf(a, b, c);
  else return fma(a, b, c);
}
// a * b rounded on its own: the device compiler would fuse it into a later add.
template <typename T> LOOM_DEV T loom_cplx_mul_rn(T a, T b) {
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
  if constexpr (sizeof(T) == 4) return __fmul_rn(a, b);
  else return __dmul_rn(a, b);
#else
  return a * b;
#endif
}

// ---- operators (NumPy's loops) --------------------------------------------------------------
template <typename T> LOOM_DEV loom_complex<T> operator+(loom_complex<T> a, loom_complex<T> b) {
  return loom_complex<T>(a.re + b.re, a.im + b.im);
}
template <typename T> LOOM_DEV loom_complex<T> operator-(loom_complex<T> a, loom_complex<T> b) {
  return loom_complex<T>(a.re - b.re, a.im - b.im);
}
// NumPy's SIMD product (what its arrays use on x86-64 with FMA3 and on ARM): a.re times each
// part of b fused with the rounded other product.
template <typename T> LOOM_DEV loom_complex<T> operator*(loom_complex<T> a, loom_complex<T> b) {
  return loom_complex<T>(loom_cplx_fma(a.re, b.re, -(a.im * b.im)), loom_cplx_fma(a.re, b.im, a.im * b.re));
}
template <typename T> LOOM_DEV loom_complex<T> operator/(loom_complex<T> a, loom_complex<T> b) {
  const T abr = loom_fabs(b.re), abi = loom_fabs(b.im);
  if (abr >= abi) {
    if (abr == T(0) && abi == T(0)) return loom_complex<T>(a.re / abr, a.im / abi);  // inf or NaN parts
    const T rat = b.im / b.re, scl = T(1) / (b.re + b.im * rat);
    return loom_complex<T>((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl);
  }
  const T rat = b.re / b.im, scl = T(1) / (b.im + b.re * rat);  // also when a part of b is NaN
  return loom_complex<T>((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl);
}
template <typename T> LOOM_DEV loom_complex<T> operator-(loom_complex<T> a) { return loom_complex<T>(-a.re, -a.im); }
template <typename T> LOOM_DEV loom_complex<T> operator+(loom_complex<T> a) { return a; }

template <typename T> LOOM_DEV bool operator==(loom_complex<T> a, loom_complex<T> b) {
  return a.re == b.re && a.im == b.im;
}
template <typename T> LOOM_DEV bool operator!=(loom_complex<T> a, loom_complex<T> b) {
  return a.re != b.re || a.im != b.im;  // true where a part is NaN
}
// NumPy's lexicographic order: real parts first; a NaN imaginary part makes "real parts
// differ" false, and any NaN in a real part makes both tests false.
#define LOOM_CPLX_ORDER(op, strict_op)                                                     \
  template <typename T> LOOM_DEV bool operator op(loom_complex<T> a, loom_complex<T> b) {  \
    return (a.re strict_op b.re && !loom_isnan(a.im) && !loom_isnan(b.im)) ||            \
           (a.re == b.re && a.im op b.im);                                               \
  }
LOOM_CPLX_ORDER(<, <)
LOOM_CPLX_ORDER(<=, <)
LOOM_CPLX_ORDER(>, >)
LOOM_CPLX_ORDER(>=, >)
#undef LOOM_CPLX_ORDER

// A plain T (or an int literal, as in `z != 0`) on either side acts as T + 0i.
#define LOOM_CPLX_MIXED(op, R)                                                                           \
  template <typename T> LOOM_DEV R operator op(loom_complex<T> a, typename loom_cplx_id<T>::type b) {  \
    return a op loom_complex<T>(b);                                                                    \
  }                                                                                                    \
  template <typename T> LOOM_DEV R operator op(typename loom_cplx_id<T>::type a, loom_complex<T> b) {  \
    return loom_complex<T>(a) op b;                                                                    \
  }
LOOM_CPLX_MIXED(+, loom_complex<T>)
LOOM_CPLX_MIXED(-, loom_complex<T>)
LOOM_CPLX_MIXED(*, loom_complex<T>)
LOOM_CPLX_MIXED(/, loom_complex<T>)
LOOM_CPLX_MIXED(==, bool)
LOOM_CPLX_MIXED(!=, bool)
#undef LOOM_CPLX_MIXED
#define LOOM_CPLX_ASSIGN(op)                                                                                  \
  template <typename T> LOOM_DEV loom_complex<T>& operator op##=(loom_complex<T>& a, loom_complex<T> b) { \
    return a = a op b;                                                                                      \
  }
LOOM_CPLX_ASSIGN(+)
LOOM_CPLX_ASSIGN(-)
LOOM_CPLX_ASSIGN(*)
LOOM_CPLX_ASSIGN(/)
#undef LOOM_CPLX_ASSIGN

// ---- parts, predicates, NumPy's own elementwise functions ------------------------------------
template <typename T> LOOM_DEV T loom_real(loom_complex<T> z) { return z.re; }
template <typename T> LOOM_DEV T loom_imag(loom_complex<T> z) { return z.im; }
template <typename T> LOOM_DEV loom_complex<T> loom_conj(loom_complex<T> z) { return loom_complex<T>(z.re, -z.im); }
template <typename T> LOOM_DEV T loom_angle(loom_complex<T> z) { return loom_arctan2(z.im, z.re); }
template <typename T> LOOM_DEV T loom_abs(loom_complex<T> z) { return loom_hypot(z.re, z.im); }
template <typename T> LOOM_DEV loom_complex<T> loom_negative(loom_complex<T> z) { return -z; }
template <typename T> LOOM_DEV bool loom_isnan(loom_complex<T> z) { return loom_isnan(z.re) || loom_isnan(z.im); }
template <typename T> LOOM_DEV bool loom_isinf(loom_complex<T> z) { return loom_isinf(z.re) || loom_isinf(z.im); }
template <typename T> LOOM_DEV bool loom_isfinite(loom_complex<T> z) {
  return loom_isfinite(z.re) && loom_isfinite(z.im);
}
template <typename T> LOOM_DEV loom_complex<T> loom_rint(loom_complex<T> z) {
  return loom_complex<T>(loom_rint(z.re), loom_rint(z.im));
}

// NumPy's reciprocal loop (1/0 is NaN + NaN i there, unlike 1 / (0 + 0i)).
template <typename T> LOOM_DEV loom_complex<T> loom_reciprocal(loom_complex<T> z) {
  if (loom_fabs(z.im) <= loom_fabs(z.re)) {
    const T r = z.im / z.re, d = z.re + z.im * r;
    return loom_complex<T>(T(1) / d, -r / d);
  }
  const T r = z.re / z.im, d = z.re * r + z.im;
  return loom_complex<T>(r / d, T(-1) / d);
}

// NumPy 2: z / |z|; 0 for 0; an infinite part gives the unit along it (NaN if both are
// infinite); else a NaN gives NaN. |z| is scaled so that huge and subnormal z keep |sign| = 1.
template <typename T> LOOM_DEV loom_complex<T> loom_sign(loom_complex<T> z) {
  typedef loom_cplx_k<T> K;
  const bool ir = loom_isinf(z.re), ii = loom_isinf(z.im);
  if (ir || ii) {
    if (ir && ii) return loom_complex<T>(loom_cplx_nan<T>(), loom_cplx_nan<T>());
    return ir ? loom_complex<T>(z.re > T(0) ? T(1) : T(-1), T(0)) : loom_complex<T>(T(0), z.im > T(0) ? T(1) : T(-1));
  }
  if (loom_isnan(z.re) || loom_isnan(z.im)) return loom_complex<T>(loom_cplx_nan<T>(), loom_cplx_nan<T>());
  if (z.re == T(0) && z.im == T(0)) return loom_complex<T>(T(0), T(0));
  const T m = loom_fabs(z.re) > loom_fabs(z.im) ? loom_fabs(z.re) : loom_fabs(z.im);
  const T s = m > K::max * T(0.5) ? T(0.5) : m < K::min / K::eps ? T(1) / K::eps : T(1);
  const T x = z.re * s, y = z.im * s, h = loom_hypot(x, y);
  return loom_complex<T>(x / h, y / h);
}

// NumPy's clip: max(x, lo) then min(., hi) in lexicographic order; NaN in x (or the bound it takes) propagates.
template <typename T> LOOM_DEV loom_complex<T> loom_clip(loom_complex<T> x, loom_complex<T> lo, loom_complex<T> hi) {
  const auto gt = [](loom_complex<T> a, loom_complex<T> b) { return a.re == b.re ? a.im > b.im : a.re > b.re; };
  const loom_complex<T> t = (loom_isnan(x) || gt(x, lo)) ? x : lo;
  return (loom_isnan(t) || gt(hi, t)) ? t : hi;
}

// ---- exp and log -----------------------------------------------------------------------------
// x^2 + y^2 - h^2 for h near |x + iy|: the squares split exactly with fma, summed with their
// rounding errors (two-sum), so that the result keeps its relative accuracy.
template <typename T> LOOM_DEV T loom_cplx_sumsq_minus(T x, T y, T h) {
  const auto two_sum = [](T a, T b, T& err) {
    const T s = a + b, bb = s - a;
    err += (a - (s - bb)) + (b - bb);
    return s;
  };
  const T p = loom_cplx_mul_rn(x, x), ep = loom_cplx_fma(x, x, -p);
  const T q = loom_cplx_mul_rn(y, y), eq = loom_cplx_fma(y, y, -q);
  const T m = loom_cplx_mul_rn(h, h), em = loom_cplx_fma(h, h, -m);
  T err = T(0);
  const T s = two_sum(two_sum(p, -m, err), q, err);
  return s + (((err + ep) + eq) - em);
}

// log|x + iy| without overflow or underflow: log(h) for h = hypot(x, y), plus the rounding
// error of h, (x^2 + y^2 - h^2) / (2 h^2), where log|z| is small enough for it to matter.
template <typename T> LOOM_DEV T loom_cplx_logabs(T x, T y) {
  typedef loom_cplx_k<T> K;
  const T ax = loom_fabs(x), ay = loom_fabs(y), m = ax > ay ? ax : ay;
  if (m > K::max * T(0.5)) return loom_log(loom_hypot(ax * T(0.5), ay * T(0.5))) + K::ln2;
  if (m < K::min / K::eps) return loom_log(loom_hypot(ax / K::eps, ay / K::eps)) - K::log_inv_eps;
  const T h = loom_hypot(ax, ay), l = loom_log(h);
  if (!(h >= T(0.125) && h <= T(8))) return l;
  return l + loom_cplx_sumsq_minus(ax, ay, h) / (T(2) * h * h);
}

template <typename T> LOOM_DEV loom_complex<T> loom_log(loom_complex<T> z) {
  return loom_complex<T>(loom_cplx_logabs(z.re, z.im), loom_arctan2(z.im, z.re));
}
template <typename T> LOOM_DEV loom_complex<T> loom_log2(loom_complex<T> z) {
  const loom_complex<T> l = loom_log(z);
  return loom_complex<T>(l.re * loom_cplx_k<T>::log2e, l.im * loom_cplx_k<T>::log2e);
}
template <typename T> LOOM_DEV loom_complex<T> loom_log10(loom_complex<T> z) {
  const loom_complex<T> l = loom_log(z);
  return loom_complex<T>(l.re * loom_cplx_k<T>::log10e, l.im * loom_cplx_k<T>::log10e);
}
// log(1 + z) = log(w + e + iy), w = 1 + x rounded and e its rounding error: log(w + iy)
// plus e times the derivative, e (w - iy) / |w + iy|^2. NumPy takes log(hypot(1 + x, y)) and
// loses the real part's digits for small z; its special values are those of log(w + iy).
template <typename T> LOOM_DEV loom_complex<T> loom_log1p(loom_complex<T> z) {
  const T x = z.re, y = z.im, w = T(1) + x, e = loom_fabs(x) <= T(1) ? (T(1) - w) + x : (x - w) + T(1);
  T re = loom_cplx_logabs(w, y), im = loom_arctan2(y, w);
  if (e != T(0) && loom_isfinite(x) && loom_isfinite(y)) {
    const T d = w * w + y * y;
    const T dim = e * (y / d);
    re += e * (w / d);
    if (dim != T(0)) im -= dim;  // (keeps the sign of a zero im)
  }
  return loom_complex<T>(re, im);
}

// (b^x c, b^x s) for b = e, or 2 if `two`, where b^x may overflow while b^x c does not (|c|
// down to the smallest subnormal): b^t taken out of b^x up to twice, as glibc does.
template <typename T> LOOM_DEV loom_complex<T> loom_cplx_scaled_exp(T x, T c, T s, bool two) {
  typedef loom_cplx_k<T> K;
  const T t = two ? K::big_t2 : K::big_t, bt = two ? K::e_big_t2 : K::e_big_t;
  for (int i = 0; i < 2 && x > t; ++i) x -= t, c *= bt, s *= bt;
  const T e = two ? loom_exp2(x) : loom_exp(x);
  return loom_complex<T>(e * c, e * s);
}

template <typename T> LOOM_DEV loom_complex<T> loom_exp(loom_complex<T> z) {
  const T x = z.re, y = z.im;
  if (y == T(0)) return loom_complex<T>(loom_exp(x), y);
  if (loom_isinf(x) && !loom_isfinite(y))
    return x < T(0) ? loom_complex<T>(T(0), loom_copysign(T(0), y)) : loom_complex<T>(x, y - y);
  return loom_cplx_scaled_exp(x, loom_cos(y), loom_sin(y), false);
}
// 2^x cis(y ln 2) with real exp2 (NumPy's exp(z ln 2) is off by up to |z| ln2 / 2 ulps), the
// rounding error dt of y ln 2 put back into the angle. Special values are NumPy's.
template <typename T> LOOM_DEV loom_complex<T> loom_exp2(loom_complex<T> z) {
  typedef loom_cplx_k<T> K;
  const T x = z.re, y = z.im;
  if (!loom_isfinite(x) || !loom_isfinite(y)) return loom_exp(loom_complex<T>(x * K::ln2, y * K::ln2));
  if (y == T(0)) return loom_complex<T>(loom_exp2(x), y);
  const T t = y * K::ln2;  // beyond 2^p, an angle more exact than NumPy's needs more than 2p bits of ln 2
  const T dt = loom_fabs(y) < T(2) / K::eps ? loom_cplx_fma(y, K::ln2, -t) + y * K::ln2_lo : T(0);
  const T c0 = loom_cos(t), s0 = loom_sin(t);
  T c = c0 - dt * s0, s = s0 + dt * c0;  // to first order, while dt^2 < eps
  if (loom_fabs(dt) >= K::sqrt_eps) {
    const T cd = loom_cos(dt), sd = loom_sin(dt);
    c = c0 * cd - s0 * sd, s = s0 * cd + c0 * sd;
  }
  return loom_cplx_scaled_exp(x, c, s, true);
}

// NumPy's expm1(x) cos(y) - 2 sin^2(y/2) + i e^x sin y, but C99's cexp(z) - 1 where it makes a NaN of a
// defined value: the real axis (expm1(x) + 0 + yi), x = +-inf with y not finite (-1 + 0i, inf + NaN i).
template <typename T> LOOM_DEV loom_complex<T> loom_expm1(loom_complex<T> z) {
  if (z.im == T(0)) return loom_complex<T>(loom_expm1(z.re) + T(0), z.im);
  if (loom_isinf(z.re) && !loom_isfinite(z.im))
    return z.re < T(0) ? loom_complex<T>(T(-1), T(0)) : loom_complex<T>(z.re, z.im - z.im);
  const T a = loom_sin(z.im / T(2));
  return loom_complex<T>(loom_expm1(z.re) * loom_cos(z.im) - T(2) * a * a, loom_exp(z.re) * loom_sin(z.im));
}

template <typename T> LOOM_DEV loom_complex<T> loom_sqrt(loom_complex<T> z) {
  typedef loom_cplx_k<T> K;
  const T x = z.re, y = z.im;
  if (loom_isinf(y)) return loom_complex<T>(loom_cplx_inf<T>(), y);
  if (loom_isinf(x)) {
    if (x > T(0)) return loom_complex<T>(x, loom_isnan(y) ? y : loom_copysign(T(0), y));
    return loom_complex<T>(loom_isnan(y) ? y : T(0), loom_copysign(loom_cplx_inf<T>(), y));
  }
  if (loom_isnan(x) || loom_isnan(y)) return loom_complex<T>(loom_cplx_nan<T>(), loom_cplx_nan<T>());
  if (x == T(0) && y == T(0)) return loom_complex<T>(T(0), y);
  // t = sqrt((|x| + |z|) / 2), z scaled by 1/16 or 1/eps^2 (the result by 4 or eps) near the ends.
  T ax = loom_fabs(x), ay = loom_fabs(y), s = T(1);
  if (ax > K::max * T(0.25) || ay > K::max * T(0.25)) {
    ax *= T(0.0625), ay *= T(0.0625), s = T(4);
  } else if (ax < K::min * T(4) && ay < K::min * T(4)) {
    ax /= K::eps * K::eps, ay /= K::eps * K::eps, s = K::eps;
  }
  const T t = loom_sqrt((ax + loom_hypot(ax, ay)) * T(0.5)), u = ay / (T(2) * t);
  if (x >= T(0)) return loom_complex<T>(t * s, loom_copysign(u * s, y));
  return loom_complex<T>(u * s, loom_copysign(t * s, y));
}

// glibc's cpow is cexp(w * clog(z)) with C99's product (Annex G): a product whose parts are
// both NaN is recomputed when a factor or a partial product is infinite.
template <typename T> LOOM_DEV loom_complex<T> loom_cplx_mul_c99(loom_complex<T> z, loom_complex<T> w) {
  T a = z.re, b = z.im, c = w.re, d = w.im;
  const T ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  T x = ac - bd, y = ad + bc;
  if (loom_isnan(x) && loom_isnan(y)) {
    const auto box = [](T v) { return loom_copysign(loom_isinf(v) ? T(1) : T(0), v); };
    const auto unnan = [](T v) { return loom_isnan(v) ? loom_copysign(T(0), v) : v; };
    bool again = false;
    if (loom_isinf(a) || loom_isinf(b)) a = box(a), b = box(b), c = unnan(c), d = unnan(d), again = true;
    if (loom_isinf(c) || loom_isinf(d)) c = box(c), d = box(d), a = unnan(a), b = unnan(b), again = true;
    if (!again && (loom_isinf(ac) || loom_isinf(bd) || loom_isinf(ad) || loom_isinf(bc)))
      a = unnan(a), b = unnan(b), c = unnan(c), d = unnan(d), again = true;
    if (again) x = loom_cplx_inf<T>() * (a * c - b * d), y = loom_cplx_inf<T>() * (a * d + b * c);
  }
  return loom_complex<T>(x, y);
}

// NumPy's power: w = 0 gives 1; 0**w is 0 for Re w > 0, else NaN; integer w in (-100, 100)
// by repeated products (and a quotient for w < 0), as NumPy; otherwise glibc's cpow.
template <typename T> LOOM_DEV loom_complex<T> loom_power(loom_complex<T> z, loom_complex<T> w) {
  typedef loom_complex<T> C;
  if (w.re == T(0) && w.im == T(0)) return C(T(1), T(0));
  if (z.re == T(0) && z.im == T(0)) return w.re > T(0) ? C(T(0), T(0)) : C(loom_cplx_nan<T>(), loom_cplx_nan<T>());
  if (w.im == T(0) && w.re > T(-100) && w.re < T(100) && T(static_cast<int>(w.re)) == w.re) {
    const auto mul = [](C a, C b) { return C(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); };  // npy_cpow's
    const int n = static_cast<int>(w.re);
    if (n == 1) return z;
    if (n == 2) return mul(z, z);
    if (n == 3) return mul(z, mul(z, z));
    unsigned m = static_cast<unsigned>(n < 0 ? -n : n);
    C acc(T(1), T(0)), p = z;
    for (;;) {
      if (m & 1u) acc = mul(acc, p);
      m >>= 1;
      if (m == 0) break;
      p = mul(p, p);
    }
    return n < 0 ? C(T(1), T(0)) / acc : acc;
  }
  return loom_exp(loom_cplx_mul_c99(w, loom_log(z)));
}

// ---- hyperbolic and circular functions ---------------------------------------------------------
// Past log_max, cosh(x) overflows while cosh(x) cos(y) may not: there, e^|x| / 2 scaled.
template <typename T> LOOM_DEV loom_complex<T> loom_sinh(loom_complex<T> z) {
  const T x = z.re, y = z.im;
  if (y == T(0)) return loom_complex<T>(loom_sinh(x), y);
  if (x == T(0) && !loom_isfinite(y)) return loom_complex<T>(x, y - y);
  if (loom_isinf(x) && !loom_isfinite(y)) return loom_complex<T>(loom_fabs(x), y - y);
  const T c = loom_cos(y), s = loom_sin(y);
  if (loom_fabs(x) > loom_cplx_k<T>::log_max)
    return loom_cplx_scaled_exp(loom_fabs(x), loom_copysign(T(0.5), x) * c, T(0.5) * s, false);
  return loom_complex<T>(loom_sinh(x) * c, loom_cosh(x) * s);
}
template <typename T> LOOM_DEV loom_complex<T> loom_cosh(loom_complex<T> z) {
  const T x = z.re, y = z.im;
  if (y == T(0)) return loom_complex<T>(loom_cosh(x), loom_isnan(x) ? y : y * loom_copysign(T(1), x));
  if (x == T(0) && !loom_isfinite(y)) return loom_complex<T>(y - y, T(0));
  if (loom_isinf(x) && !loom_isfinite(y)) return loom_complex<T>(loom_fabs(x), y - y);
  const T c = loom_cos(y), s = loom_sin(y);
  if (loom_fabs(x) > loom_cplx_k<T>::log_max)
    return loom_cplx_scaled_exp(loom_fabs(x), T(0.5) * c, loom_copysign(T(0.5), x) * s, false);
  return loom_complex<T>(loom_cosh(x) * c, loom_sinh(x) * s);
}
// Kahan's tanh: with t = tan y, b = 1 + t^2, s = sinh x: (b s cosh x + i t) / (1 + b s^2).
template <typename T> LOOM_DEV loom_complex<T> loom_tanh(loom_complex<T> z) {
  const T x = z.re, y = z.im, ax = loom_fabs(x);
  if (loom_isinf(x)) {  // +-1 + 0i, the zero with the sign of sin 2y
    const T s2 = loom_isfinite(y) ? loom_sin(y) * loom_cos(y) : y;
    return loom_complex<T>(loom_copysign(T(1), x), loom_copysign(T(0), s2));
  }
  if (loom_isnan(x)) return loom_complex<T>(x, y == T(0) ? y : x);
  if (!loom_isfinite(y)) return loom_complex<T>(x == T(0) ? x : y - y, y - y);
  if (ax > loom_cplx_k<T>::tanh_big)
    return loom_complex<T>(loom_copysign(T(1), x), (T(4) * loom_sin(y) * loom_cos(y)) * loom_exp(T(-2) * ax));
  if (ax >= T(1)) {  // 1 - (e^-2x + cos 2y) / (cosh 2x + cos 2y) + i sin 2y / (cosh 2x + cos 2y)
    const T c = loom_cos(y), s = loom_sin(y), c2 = (c - s) * (c + s), d = loom_cosh(T(2) * ax) + c2;
    return loom_complex<T>(loom_copysign(T(1) - (loom_exp(T(-2) * ax) + c2) / d, x), T(2) * s * c / d);
  }
  const T t = loom_tan(y), s = loom_sinh(x), bs = loom_cplx_fma(t, t, T(1)) * s, d = loom_cplx_fma(bs, s, T(1));
  return loom_complex<T>(bs * loom_cosh(x) / d, t / d);
}
// sin z = -i sinh(iz), cos z = cosh(iz), tan z = -i tanh(iz).
template <typename T> LOOM_DEV loom_complex<T> loom_sin(loom_complex<T> z) {
  if (loom_isinf(z.im) && !loom_isfinite(z.re)) return loom_complex<T>(z.re - z.re, loom_cplx_inf<T>());  // glibc's
  const loom_complex<T> w = loom_sinh(loom_complex<T>(-z.im, z.re));
  return loom_complex<T>(w.im, -w.re);
}
template <typename T> LOOM_DEV loom_complex<T> loom_cos(loom_complex<T> z) {
  return loom_cosh(loom_complex<T>(-z.im, z.re));
}
template <typename T> LOOM_DEV loom_complex<T> loom_tan(loom_complex<T> z) {
  const loom_complex<T> w = loom_tanh(loom_complex<T>(-z.im, z.re));
  return loom_complex<T>(w.im, -w.re);
}

// ---- inverse functions ---------------------------------------------------------------------------
// For x, y >= 0 (no NaN): the real part of asin(x + iy) (of acos if `acos`) and the magnitude
// of their imaginary part, by Hull, Fairgrieve and Tang (ACM TOMS 23(3), 1997): with
// r = |z + 1|, s = |z - 1|, a = (r + s) / 2, b = x / a: Re asin = asin(b), Re acos = acos(b),
// |Im| = log(a + sqrt(a^2 - 1)), each rewritten without cancellation where b ~ 1 or a ~ 1.
template <typename T> LOOM_DEV loom_complex<T> loom_cplx_asin_kernel(T x, T y, bool acos) {
  typedef loom_cplx_k<T> K;
  const T big = T(2) / K::sqrt_eps;
  if (x > big || y > big)  // asin z = -i log(2iz) + O(1/z^2)
    return loom_complex<T>(acos ? loom_arctan2(y, x) : loom_arctan2(x, y), loom_cplx_logabs(x, y) + K::ln2);
  const T xp1 = x + T(1), xm1 = x - T(1), r = loom_hypot(xp1, y), s = loom_hypot(xm1, y);
  const T a = T(0.5) * (r + s), b = x / a, yy = y * y;
  T re;
  if (b <= T(0.6417)) {
    re = acos ? loom_arccos(b) : loom_arcsin(b);
  } else {
    const T d = x <= T(1) ? loom_sqrt(T(0.5) * (a + x) * (yy / (r + xp1) + (s - xm1)))
                          : y * loom_sqrt(T(0.5) * ((a + x) / (r + xp1) + (a + x) / (s + xm1)));
    re = acos ? loom_arctan(d / x) : loom_arctan(x / d);
  }
  T h = T(2) * (a - T(1));  // 2 (a - 1), without cancellation where a <= 1.5 (exact for subnormal y)
  if (a <= T(1.5)) {
    if (x < T(1)) {
      if (y < K::eps * -xm1) return loom_complex<T>(re, y / loom_sqrt(-xm1 * xp1));
      h = yy / (r + xp1) + yy / (s - xm1);
    } else {
      h = yy / (r + xp1) + (s + xm1);
    }
  }
  return loom_complex<T>(re, loom_log1p(T(0.5) * h + loom_sqrt(T(0.5) * (a + T(1)) * h)));
}

// asinh z = -i asin(iz): the kernel at (|y|, |x|), signs by oddness and conjugation.
template <typename T> LOOM_DEV loom_complex<T> loom_arcsinh(loom_complex<T> z) {
  const T x = z.re, y = z.im;
  if (loom_isnan(x) || loom_isnan(y)) {
    if (loom_isinf(x)) return loom_complex<T>(x, y);
    if (loom_isinf(y)) return loom_complex<T>(loom_copysign(loom_cplx_inf<T>(), x), x);
    return loom_complex<T>(loom_cplx_nan<T>(), y == T(0) ? y : loom_cplx_nan<T>());
  }
  const loom_complex<T> w = loom_cplx_asin_kernel(loom_fabs(y), loom_fabs(x), false);
  return loom_complex<T>(loom_copysign(w.im, x), loom_copysign(w.re, y));
}
template <typename T> LOOM_DEV loom_complex<T> loom_arcsin(loom_complex<T> z) {
  const loom_complex<T> w = loom_arcsinh(loom_complex<T>(-z.im, z.re));
  return loom_complex<T>(w.im, -w.re);
}
template <typename T> LOOM_DEV loom_complex<T> loom_arccos(loom_complex<T> z) {
  typedef loom_cplx_k<T> K;
  const T x = z.re, y = z.im;
  if (loom_isnan(x) || loom_isnan(y)) {
    if (loom_isinf(x)) return loom_complex<T>(y, -loom_cplx_inf<T>());
    if (loom_isinf(y)) return loom_complex<T>(x, -y);
    return loom_complex<T>(x == T(0) ? K::pi_2 : loom_cplx_nan<T>(), loom_cplx_nan<T>());
  }
  const loom_complex<T> w = loom_cplx_asin_kernel(loom_fabs(x), loom_fabs(y), true);
  return loom_complex<T>(loom_cplx_signbit(x) ? K::pi - w.re : w.re, loom_copysign(w.im, -y));
}
// acosh z = +-i acos z, with the sign that makes the real part >= 0.
template <typename T> LOOM_DEV loom_complex<T> loom_arccosh(loom_complex<T> z) {
  typedef loom_cplx_k<T> K;
  const T x = z.re, y = z.im;
  if (loom_isnan(x) || loom_isnan(y)) {
    if (loom_isinf(x) || loom_isinf(y)) return loom_complex<T>(loom_cplx_inf<T>(), loom_cplx_nan<T>());
    return loom_complex<T>(loom_cplx_nan<T>(), x == T(0) ? K::pi_2 : loom_cplx_nan<T>());
  }
  const loom_complex<T> w = loom_cplx_asin_kernel(loom_fabs(x), loom_fabs(y), true);
  return loom_complex<T>(w.im, loom_copysign(loom_cplx_signbit(x) ? K::pi - w.re : w.re, y));
}

// atanh z = log1p(4x / ((1 - x)^2 + y^2)) / 4 + i atan2(2y, (1 - x)(1 + x) - y^2) / 2
// (Kahan), with 1/z + i pi/2 for huge z and the log singularity at z = +-1 taken apart.
template <typename T> LOOM_DEV loom_complex<T> loom_arctanh(loom_complex<T> z) {
  typedef loom_cplx_k<T> K;
  const T x = z.re, y = z.im, ax = loom_fabs(x), ay = loom_fabs(y);
  if (loom_isnan(x) || loom_isnan(y)) {
    if (loom_isinf(y)) return loom_complex<T>(loom_copysign(T(0), x), loom_copysign(K::pi_2, y));
    if (loom_isinf(x) || x == T(0)) return loom_complex<T>(loom_copysign(T(0), x), y);
    return loom_complex<T>(loom_cplx_nan<T>(), loom_cplx_nan<T>());
  }
  if (ax > T(2) / K::eps || ay > T(2) / K::eps) {
    T re = T(0);
    if (!loom_isinf(ax) && !loom_isinf(ay)) {
      const T m = ax > ay ? ax : ay, u = ax / m, v = ay / m;
      re = (u / m) / (u * u + v * v);
    }
    return loom_complex<T>(loom_copysign(re, x), loom_copysign(K::pi_2, y));
  }
  if (ax < K::sqrt_eps * T(0.5) && ay < K::sqrt_eps * T(0.5)) return z;  // atanh z = z + z^3/3
  if (ax == T(1) && ay < K::sqrt_eps) {  // log1p(4/y^2)/4 = (log 2 - log|y|)/2 to working precision
    const T re = (K::ln2 - loom_log(ay)) * T(0.5);
    return loom_complex<T>(loom_copysign(re, x), ay == T(0) ? y : loom_copysign(K::pi_4 + ay * T(0.25), y));
  }
  const T omx = T(1) - ax, d = omx * omx + ay * ay;
  const T re = T(0.25) * loom_log1p(T(4) * ax / d);
  return loom_complex<T>(loom_copysign(re, x), T(0.5) * loom_arctan2(T(2) * y, omx * (T(1) + ax) - ay * ay));
}
template <typename T> LOOM_DEV loom_complex<T> loom_arctan(loom_complex<T> z) {
  const loom_complex<T> w = loom_arctanh(loom_complex<T>(-z.im, z.re));
  return loom_complex<T>(w.im, -w.re);
}
