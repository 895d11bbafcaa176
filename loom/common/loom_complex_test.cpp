// loom_complex.cuh on the host against glibc's C99 complex functions (std::complex calls
// csqrt, cexp, casin, ... as NumPy does on Linux) and against NumPy's own formulas where NumPy
// has them (arithmetic, reciprocal, sign, expm1, small integer powers, comparisons, clip).
// - Random data, a fresh seed each run (printed on failure): tiny, unit and huge magnitudes,
//   mixed, near the axes (where the branch cuts lie), near +-1 and +-i, near |z| = 1. The error
//   is |got - value| in ulps of |value| (normwise), value from glibc's long double functions
//   for complex128 and from its double ones for complex64. Tolerances per function in the
//   tables below, in those ulps (power: times 1 + |w| (1 + |log z|), the condition of z**w).
// - A grid of special values in each part (signed zeros, +-1/2, +-1, 1 +- ulp, +-2, tiny,
//   subnormal, huge, +-max, +-inf, NaN), which holds points on and beside every branch cut:
//   NaN, infinite and zero parts exactly as glibc's function of the same precision gives them
//   (csqrtf for complex64; zeros with their sign), other parts within the tolerance.
// - Values printed by NumPy 2.4 for cuts and special values, and NumPy's ordering rules.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "loom/common/loom_complex.cuh"

namespace {

using CF = std::complex<float>;
using CD = std::complex<double>;
using CL = std::complex<long double>;
template <typename T> using LC = loom_complex<T>;
template <typename T> using Lim = std::numeric_limits<T>;

#define LOG2E 1.442695040888963407359924681001892137L
#define LOG10E 0.434294481903251827651128918916605082L
#define LN2 0.693147180559945309417232121458176568L

// ---- NumPy's own definitions, written on std::complex<R> --------------------------------------
template <typename R> std::complex<R> np_cmul(std::complex<R> a, std::complex<R> b) {  // npy_cpow's
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}
template <typename R> std::complex<R> np_mul(std::complex<R> a, std::complex<R> b) {  // the SIMD loop's
  return {std::fma(a.real(), b.real(), -(a.imag() * b.imag())), std::fma(a.real(), b.imag(), a.imag() * b.real())};
}
template <typename R> std::complex<R> np_div(std::complex<R> a, std::complex<R> b) {  // Smith's
  const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  if (std::fabs(br) >= std::fabs(bi)) {
    if (br == 0 && bi == 0) return {ar / std::fabs(br), ai / std::fabs(bi)};
    const R rat = bi / br, scl = R(1) / (br + bi * rat);
    return {(ar + ai * rat) * scl, (ai - ar * rat) * scl};
  }
  const R rat = br / bi, scl = R(1) / (bi + br * rat);
  return {(ar * rat + ai) * scl, (ai * rat - ar) * scl};
}
template <typename R> std::complex<R> np_reciprocal(std::complex<R> z) {
  const R x = z.real(), y = z.imag();
  if (std::fabs(y) <= std::fabs(x)) {
    const R r = y / x, d = x + y * r;
    return {R(1) / d, -r / d};
  }
  const R r = x / y, d = x * r + y;
  return {r / d, R(-1) / d};
}
template <typename R> std::complex<R> np_sign(std::complex<R> z) {
  const R x = z.real(), y = z.imag(), nan = Lim<R>::quiet_NaN();
  if (std::isinf(x) && std::isinf(y)) return {nan, nan};
  if (std::isinf(x)) return {x > 0 ? R(1) : R(-1), 0};
  if (std::isinf(y)) return {0, y > 0 ? R(1) : R(-1)};
  if (std::isnan(x) || std::isnan(y)) return {nan, nan};
  if (x == 0 && y == 0) return {0, 0};
  const CL w = CL(x, y) / std::abs(CL(x, y));  // in long double: no overflow, no subnormal loss
  return {R(w.real()), R(w.imag())};
}
// NumPy's formula, but on the real axis and at an infinite x with y not finite, where it
// makes a NaN of a defined value: C99's cexp(z) - 1 there (loom_expm1 says why).
template <typename R> std::complex<R> ref_expm1(std::complex<R> z) {
  if (z.imag() == 0) return {std::expm1(z.real()) + R(0), z.imag()};
  if (std::isinf(z.real()) && !std::isfinite(z.imag()))
    return z.real() < 0 ? std::complex<R>(-1, 0) : std::complex<R>(z.real(), std::numeric_limits<R>::quiet_NaN());
  const R a = std::sin(z.imag() / 2);
  return {std::expm1(z.real()) * std::cos(z.imag()) - 2 * a * a, std::exp(z.real()) * std::sin(z.imag())};
}
// log(1 + z); NumPy's log(hypot(1 + x, y)) + i atan2(y, 1 + x) has the same special values.
template <typename R> std::complex<R> ref_log1p(std::complex<R> z) {
  const R x = z.real(), y = z.imag();
  if (std::fabs(x) < R(0.5) && std::fabs(y) < R(0.5))
    return {R(0.5) * std::log1p(2 * x + x * x + y * y), std::atan2(y, 1 + x)};
  return std::log(std::complex<R>(1 + x, y));
}
// 2^x cis(y ln 2), the angle from y ln 2 in two long double parts.
template <typename R> std::complex<R> ref_exp2(std::complex<R> z) {
  const R x = z.real(), y = z.imag();
  if (!std::isfinite(x) || !std::isfinite(y) || std::fabs(y) >= std::ldexp(R(1), Lim<R>::digits))
    return std::exp(z * R(LN2));  // NumPy's, as loom where R's ln 2 has too few bits for y
  if (y == 0) return {std::exp2(x), y};
  const long double ln2 = LN2, t = y * ln2, dt = std::fma((long double)y, ln2, -t) + y * -1.1458352726798733e-20L;
  const long double m = std::exp2((long double)x), c = std::cos(t), s = std::sin(t);
  return {R(m * (c * std::cos(dt) - s * std::sin(dt))), R(m * (s * std::cos(dt) + c * std::sin(dt)))};
}
template <typename R> std::complex<R> np_power(std::complex<R> a, std::complex<R> b) {
  const R nan = Lim<R>::quiet_NaN();
  if (b.real() == 0 && b.imag() == 0) return {1, 0};
  if (a.real() == 0 && a.imag() == 0) return b.real() > 0 ? std::complex<R>(0, 0) : std::complex<R>(nan, nan);
  const R br = b.real();
  if (b.imag() == 0 && br > -100 && br < 100 && R(int(br)) == br) {
    const int n = int(br);
    if (n == 1) return a;
    if (n == 2) return np_cmul(a, a);
    if (n == 3) return np_cmul(a, np_cmul(a, a));
    std::complex<R> r(1, 0), p = a;
    for (int m = n < 0 ? -n : n;; p = np_cmul(p, p)) {  // NumPy's loop over the bits of |n|
      if (m & 1) r = np_cmul(r, p);
      if ((m >>= 1) == 0) break;
    }
    return n < 0 ? np_div(std::complex<R>(1, 0), r) : r;
  }
  return std::pow(a, b);  // glibc's cpow (cpowf, cpowl)
}

// ---- comparing results ------------------------------------------------------------------------
// Normwise error of `got` in ulps (of T) of |value| over the finite parts. `want`, the result of
// T's precision, decides the special parts: NaN and infinite parts, and zero parts where value
// is zero (or not finite) too, must be matched exactly (zeros with their sign), else inf.
template <typename T> double err_ulps(LC<T> got, CL want, CL value, bool signs = true) {
  const long double w[2] = {want.real(), want.imag()}, v[2] = {value.real(), value.imag()};
  const T g[2] = {got.re, got.im};
  long double d2 = 0, m2 = 0;
  for (int i = 0; i < 2; ++i) {
    const T wt = T(w[i]);  // as T: a value past T's range is inf, as loom's result is
    const long double vi = std::isfinite(v[i]) ? v[i] : w[i];  // (long double may not overflow)
    if (std::isnan(w[i]) || std::isinf(wt)) {
      if (std::isnan(w[i]) ? !std::isnan(g[i]) : signs ? g[i] != wt : std::fabs(g[i]) != std::fabs(wt)) return HUGE_VAL;
    } else if (w[i] == 0 && vi == 0) {
      if (g[i] != 0 || (signs && std::signbit(g[i]) != std::signbit(w[i]))) return HUGE_VAL;
    } else if (!std::isfinite(g[i])) {
      return HUGE_VAL;
    } else {
      d2 += (g[i] - vi) * (g[i] - vi);
      m2 += vi * vi;
    }
  }
  if (m2 == 0) return 0;
  int e;
  std::frexp(std::sqrt(m2), &e);
  const long double ulp = std::max(std::ldexp(1.0L, e - Lim<T>::digits), (long double)Lim<T>::denorm_min());
  return double(std::sqrt(d2) / ulp);
}

template <typename T> std::string show(LC<T> z) {
  char b[96];
  std::snprintf(b, sizeof b, "(%.9g, %.9g)", double(z.re), double(z.im));
  return b;
}
std::string show(CL z) {
  char b[96];
  std::snprintf(b, sizeof b, "(%.17Lg, %.17Lg)", z.real(), z.imag());
  return b;
}

// ---- inputs ----------------------------------------------------------------------------------
template <typename T> std::vector<T> special_parts() {
  const T inf = Lim<T>::infinity(), big = sizeof(T) == 4 ? T(1e20) : T(1e200), small = T(1) / big;
  std::vector<T> v = {T(0.5), T(1), std::nextafter(T(1), T(0)), std::nextafter(T(1), T(2)), T(2), small, big,
                      Lim<T>::denorm_min() * 3, Lim<T>::max(), inf};
  for (size_t i = 0, n = v.size(); i < n; ++i) v.push_back(-v[i]);
  v.push_back(T(0));
  v.push_back(-T(0));
  v.push_back(Lim<T>::quiet_NaN());
  return v;
}
template <typename T> std::vector<LC<T>> special_grid() {
  std::vector<LC<T>> g;
  for (T x : special_parts<T>())
    for (T y : special_parts<T>()) g.push_back(LC<T>(x, y));
  return g;
}

struct Rng {
  std::mt19937_64 gen;
  double uniform(double a, double b) { return std::uniform_real_distribution<double>(a, b)(gen); }
  double sign() { return gen() & 1 ? 1.0 : -1.0; }
};
// A random part: range 0 tiny, 1 unit, 2 huge (powers of 10 within T's range), 3 zero.
template <typename T> T part(Rng& r, int range) {
  const double top = sizeof(T) == 4 ? 37 : 307, lo[3] = {-top, -1, sizeof(T) == 4 ? 4.0 : 8.0},
               hi[3] = {sizeof(T) == 4 ? -4.0 : -8.0, 1, top};
  if (range == 3) return T(r.sign() * 0.0);
  return T(r.sign() * std::pow(10.0, r.uniform(lo[range], hi[range])));
}
// Kinds: 0-2 both parts tiny/unit/huge, 3 mixed ranges, 4 near an axis (where the cuts lie),
// 5 near +-1 or +-i, 6 near the unit circle.
template <typename T> LC<T> sample(Rng& r, int kind) {
  const int digits = Lim<T>::digits;
  if (kind < 3) return LC<T>(part<T>(r, kind), part<T>(r, kind));
  if (kind == 3) return LC<T>(part<T>(r, int(r.gen() % 4)), part<T>(r, int(r.gen() % 4)));
  if (kind == 4) {
    const T on = part<T>(r, 1 + int(r.gen() % 2)), off = r.gen() % 3 ? part<T>(r, 0) : part<T>(r, 3);
    return r.gen() & 1 ? LC<T>(on, off) : LC<T>(off, on);
  }
  const double d = std::pow(2.0, r.uniform(-digits - 4, -1)), t = r.uniform(-3.14159, 3.14159);
  if (kind == 5) {
    const double c = r.sign(), dx = d * std::cos(t), dy = d * std::sin(t);
    return r.gen() & 1 ? LC<T>(T(c + dx), T(dy)) : LC<T>(T(dx), T(c + dy));
  }
  const double m = 1 + r.sign() * d;
  return LC<T>(T(m * std::cos(t)), T(m * std::sin(t)));
}

// ---- the functions ---------------------------------------------------------------------------
struct Unary {
  const char* name;
  LC<float> (*f)(LC<float>);
  LC<double> (*d)(LC<double>);
  CF (*ref_f)(CF);  // glibc float (NumPy's complex64), for the special grid
  CD (*ref_d)(CD);  // glibc double: the special grid, and random complex64
  CL (*ref_l)(CL);  // glibc long double: random complex128
  double tol64, tol32;
  bool numpy = false;  // NumPy's own formula: its result in T's precision passes too (overflows)
};
#define LOOM_UNARY(fn, expr, tol64, tol32, numpy)                                                                \
  Unary{#fn, [](LC<float> z) { return fn(z); }, [](LC<double> z) { return fn(z); },                       \
        [](CF z) -> CF { return expr; }, [](CD z) -> CD { return expr; }, \
        [](CL z) -> CL { return expr; }, tol64, tol32, numpy}

const std::vector<Unary>& unary_functions() {
  static const std::vector<Unary> fns = {
      // name, reference, tolerance complex128 / complex64 (ulps), NumPy's own formula
      LOOM_UNARY(loom_sqrt, std::sqrt(z), 2, 2, false),
      LOOM_UNARY(loom_exp, std::exp(z), 2, 2, false),
      LOOM_UNARY(loom_exp2, ref_exp2(z), 3, 3, false),
      LOOM_UNARY(loom_expm1, ref_expm1(z), 5, 5, true),
      LOOM_UNARY(loom_log, std::log(z), 2, 2, false),
      LOOM_UNARY(loom_log2, std::log(z) * decltype(z.real())(LOG2E), 3, 3, false),
      LOOM_UNARY(loom_log10, std::log(z) * decltype(z.real())(LOG10E), 3, 3, false),
      LOOM_UNARY(loom_log1p, ref_log1p(z), 2, 3, false),
      LOOM_UNARY(loom_sin, std::sin(z), 3, 3, false),
      LOOM_UNARY(loom_cos, std::cos(z), 3, 3, false),
      LOOM_UNARY(loom_tan, std::tan(z), 5, 5, false),
      LOOM_UNARY(loom_sinh, std::sinh(z), 3, 3, false),
      LOOM_UNARY(loom_cosh, std::cosh(z), 3, 3, false),
      LOOM_UNARY(loom_tanh, std::tanh(z), 5, 5, false),
      LOOM_UNARY(loom_arcsin, std::asin(z), 4, 4, false),
      LOOM_UNARY(loom_arccos, std::acos(z), 4, 4, false),
      LOOM_UNARY(loom_arctan, std::atan(z), 3, 3, false),
      LOOM_UNARY(loom_arcsinh, std::asinh(z), 4, 4, false),
      LOOM_UNARY(loom_arccosh, std::acosh(z), 4, 4, false),
      LOOM_UNARY(loom_arctanh, std::atanh(z), 3, 3, false),
      LOOM_UNARY(loom_reciprocal, np_reciprocal(z), 2, 2, true),
      LOOM_UNARY(loom_sign, np_sign(z), 2, 2, false),
      LOOM_UNARY(loom_negative, -z, 0, 0, true),
      LOOM_UNARY(loom_conj, std::conj(z), 0, 0, true),
      LOOM_UNARY(loom_rint, decltype(z)(std::nearbyint(z.real()), std::nearbyint(z.imag())), 0, 0, true),
  };
  return fns;
}

struct Binary {
  const char* name;
  LC<float> (*f)(LC<float>, LC<float>);
  LC<double> (*d)(LC<double>, LC<double>);
  CF (*ref_f)(CF, CF);
  CD (*ref_d)(CD, CD);
  CL (*ref_l)(CL, CL);
  double tol64, tol32;
};
#define LOOM_BINARY(name, expr, tol64, tol32)                                                                  \
  Binary{#name, [](LC<float> a, LC<float> b) { return expr; }, [](LC<double> a, LC<double> b) { return expr; }, \
         np_##name<float>, np_##name<double>, np_##name<long double>, tol64, tol32}
template <typename R> std::complex<R> np_add(std::complex<R> a, std::complex<R> b) { return a + b; }
template <typename R> std::complex<R> np_sub(std::complex<R> a, std::complex<R> b) { return a - b; }
const std::vector<Binary>& binary_functions() {
  static const std::vector<Binary> fns = {
      LOOM_BINARY(add, a + b, 1, 1),
      LOOM_BINARY(sub, a - b, 1, 1),
      LOOM_BINARY(mul, a * b, 2, 2),
      LOOM_BINARY(div, a / b, 3, 3),
      LOOM_BINARY(power, loom_power(a, b), 3, 3),
  };
  return fns;
}

// ---- the checks ------------------------------------------------------------------------------
// LOOM_TEST_SEED replays the data of a failed run (its seed is printed with the failure).
uint64_t fresh_seed() {
  static const uint64_t seed = [] {
    if (const char* e = std::getenv("LOOM_TEST_SEED")) return uint64_t(std::strtoull(e, nullptr, 10));
    return (uint64_t(std::random_device{}()) << 32) | std::random_device{}();
  }();
  return seed;
}

// One function of one dtype over the special grid (all pairs when binary) and random data.
// want(a, b): the reference of T's precision (glibc's csqrtf for complex64); value(a, b): the
// accurate one (glibc's double functions for complex64, long double for complex128).
template <typename T, typename Fn, typename Want, typename Value>
void check(const char* name, bool binary, bool numpy, double tol, Fn fn, Want want, Value value) {
  const char* dt = sizeof(T) == 4 ? "complex64" : "complex128";
  double worst = 0;
  std::string worst_at;
  int failures = 0;
  auto judge = [&](LC<T> a, LC<T> b, bool grid) {  // (grid: a special value)
    const LC<T> got = fn(a, b);
    const CL w = want(a, b);
    const bool small_power = std::string(name) == "power" && b.im == 0 && std::fabs(b.re) < 100 && b.re == int(b.re);
    CL v = !std::isfinite(std::abs(w)) ? w : value(a, b);  // (else, its other part as T's precision has it)
    double scale = 1;
    const bool wide_angle = std::fabs(a.im) >= std::ldexp(1.0, Lim<T>::digits) && std::isfinite(std::abs(v));
    if (std::string(name) == "loom_exp2" && wide_angle)  // y ln 2 needs more than 2p bits of ln 2: |2^z| only
      v = std::polar(std::abs(v), std::arg(CL(got.re, got.im)));
    if (std::string(name) == "power")  // the condition of a**b
      scale = double(1 + std::abs(CL(b.re, b.im)) * (1 + std::abs(std::log(CL(a.re, a.im)))));
    // zeros and infinities of random powers (under- or overflows) and of ill-conditioned ones on
    // the grid have the signs of cos and sin of an angle with rounding error: those aren't checked
    const bool signs = scale == 1 || (grid && !(scale * Lim<T>::epsilon() > 1));
    double e = err_ulps(got, w, v, signs) / (std::isnan(scale) ? 1 : scale);
    // NumPy's own formulas: as exact, or as their T rounding, over- and underflow make them
    if ((numpy || small_power) && !(e <= tol)) e = std::min(e, err_ulps(got, w, w, signs));
    const std::string at = show(a) + (binary ? ", " + show(b) : "");
    if (e > worst) worst = e, worst_at = at;
    if (!(e <= tol) && ++failures <= 5)
      ADD_FAILURE() << name << " " << dt << (grid ? " special value" : " random value") << " at " << at << ": got "
                    << show(got) << ", want " << show(v) << " (" << e << " ulps, tolerance " << tol << ")";
  };
  const std::vector<LC<T>> grid = special_grid<T>();
  for (LC<T> a : grid)
    for (LC<T> b : binary ? grid : std::vector<LC<T>>{LC<T>()}) judge(a, b, true);
  Rng r{std::mt19937_64(fresh_seed())};
  for (int kind = 0; kind < 7; ++kind)
    for (int i = 0; i < 3000; ++i) {
      const LC<T> a = sample<T>(r, kind);
      LC<T> b = sample<T>(r, int(r.gen() % 7));
      if (std::string(name) == "power") {  // modest exponents (else all over- or underflows), a third integers
        b = r.gen() % 3 ? LC<T>(T(b.re / 64), T(b.im / 64)) : LC<T>(T(int(r.gen() % 199) - 99), T(0));
        if (std::abs(b.re) + std::abs(b.im) > 64) b = LC<T>(T(b.re * 1e-3), T(b.im * 1e-3));
      }
      judge(a, b, false);
    }
  std::printf("  %-16s %-10s worst %6.3f ulps at %s\n", name, dt, worst, worst_at.c_str());
  if (failures) ADD_FAILURE() << "random data from seed " << fresh_seed() << " (LOOM_TEST_SEED=" << fresh_seed()
                                << " replays it)";
}

template <typename T> void check_unary(const Unary& u) {
  check<T>(
      u.name, false, u.numpy, sizeof(T) == 4 ? u.tol32 : u.tol64,
      [&](LC<T> a, LC<T>) {
        if constexpr (sizeof(T) == 4) return u.f(a);
        else return u.d(a);
      },
      [&](LC<T> a, LC<T>) {
        if constexpr (sizeof(T) == 4) return CL(u.ref_f(CF(a.re, a.im)));
        else return CL(u.ref_d(CD(a.re, a.im)));
      },
      [&](LC<T> a, LC<T>) { return sizeof(T) == 4 ? CL(u.ref_d(CD(a.re, a.im))) : u.ref_l(CL(a.re, a.im)); });
}
template <typename T> void check_binary(const Binary& f) {
  check<T>(
      f.name, true, std::string(f.name) != "power", sizeof(T) == 4 ? f.tol32 : f.tol64,
      [&](LC<T> a, LC<T> b) {
        if constexpr (sizeof(T) == 4) return f.f(a, b);
        else return f.d(a, b);
      },
      [&](LC<T> a, LC<T> b) {
        if constexpr (sizeof(T) == 4) return CL(f.ref_f(CF(a.re, a.im), CF(b.re, b.im)));
        else return CL(f.ref_d(CD(a.re, a.im), CD(b.re, b.im)));
      },
      [&](LC<T> a, LC<T> b) {
        return sizeof(T) == 4 ? CL(f.ref_d(CD(a.re, a.im), CD(b.re, b.im))) : f.ref_l(CL(a.re, a.im), CL(b.re, b.im));
      });
}

TEST(ComplexMath, UnaryAgainstGlibc) {
  for (const Unary& u : unary_functions()) {
    check_unary<double>(u);
    check_unary<float>(u);
  }
}

TEST(ComplexMath, ArithmeticAndPowerAgainstNumPyAndGlibc) {
  for (const Binary& b : binary_functions()) {
    check_binary<double>(b);
    check_binary<float>(b);
  }
}

// NumPy 2.4's results (printed by it on Linux x86-64) on the cuts and at special values; the
// complex64 ones are these rounded to float (NumPy gives the same).
struct NumPyCase {
  const char* fn;
  double x, y, re, im;
};
const double I = HUGE_VAL, N = NAN;
const NumPyCase kNumPyUnary[] = {
    {"loom_sqrt", -4, 0.0, 0.0, 2},           {"loom_sqrt", -4, -0.0, 0.0, -2},
    {"loom_sqrt", -I, N, N, I},               {"loom_log", -1, -0.0, 0.0, -3.141592653589793},
    {"loom_log", -I, I, I, 2.356194490192345}, {"loom_log", -0.0, 0.0, -I, 3.141592653589793},
    {"loom_arcsin", 2, 0.0, 1.5707963267948966, 1.3169578969248166},
    {"loom_arcsin", 2, -0.0, 1.5707963267948966, -1.3169578969248166},
    {"loom_arccos", -2, 0.0, 3.141592653589793, -1.3169578969248166},
    {"loom_arccosh", 0.5, -0.0, 0.0, -1.0471975511965976},
    {"loom_arctanh", 2, 0.0, 0.5493061443340549, 1.5707963267948966},
    {"loom_arctanh", 1, 0.0, I, 0.0},
    {"loom_arctan", 0.0, 2, 1.5707963267948966, 0.5493061443340549},
    {"loom_arctan", -0.0, 2, -1.5707963267948966, 0.5493061443340549},
    {"loom_arcsinh", 0.0, 2, 1.3169578969248166, 1.5707963267948966},
    {"loom_arcsinh", -0.0, 2, -1.3169578969248166, 1.5707963267948966},
    {"loom_exp", -I, I, 0.0, 0.0},            {"loom_exp", I, N, I, N},
    {"loom_tanh", I, N, 1, 0.0},              {"loom_cosh", 0.0, I, N, 0.0},
    {"loom_sin", I, -I, N, I},                {"loom_expm1", 1000, 1.0, I, I},
    {"loom_reciprocal", 0.0, 0.0, N, N},      {"loom_sign", I, N, 1, 0.0},
    {"loom_sign", N, -I, 0.0, -1},            {"loom_log1p", -1, 0.0, -I, 0.0},
};

template <typename T> void check_numpy_unary() {
  for (const NumPyCase& c : kNumPyUnary)
    for (const Unary& u : unary_functions()) {
      if (std::string(u.name) != c.fn) continue;
      LC<T> got;
      if constexpr (sizeof(T) == 4) got = u.f(LC<T>(T(c.x), T(c.y)));
      else got = u.d(LC<T>(T(c.x), T(c.y)));
      const CL want(T(c.re), T(c.im));
      EXPECT_LE(err_ulps(got, want, want), 1.0) << c.fn << " at (" << c.x << ", " << c.y << "): got " << show(got);
    }
}

TEST(ComplexMath, NumPyValues) {
  check_numpy_unary<double>();
  check_numpy_unary<float>();
  const double M = Lim<double>::max();
  const struct {
    char op;
    double xr, xi, yr, yi, re, im;
  } cases[] = {
      {'*', -2, 1, I, M, -I, I},  // NumPy's SIMD loop fuses a product: no overflow to NaN
      {'/', 1, 0, 0.0, 0.0, I, N},  {'/', 1, 1, -0.0, 0.0, I, I},  {'^', 0.0, 0.0, -1, 0, N, N},
      {'^', 0.0, 0.0, 0.0, 0.0, 1, 0.0}, {'^', 0.0, 0.0, 2, 3, 0.0, 0.0}, {'^', I, 0.0, 2, 0.0, I, N},
      {'^', 0.5, 0.5, I, N, 0.0, 0.0}, {'^', 2, 3, -2, 0.0, -0.02958579881656805, -0.07100591715976332},
  };
  for (const auto& c : cases) {
    const LC<double> x(c.xr, c.xi), y(c.yr, c.yi);
    const LC<double> got = c.op == '*' ? x * y : c.op == '/' ? x / y : loom_power(x, y);
    EXPECT_LE(err_ulps(got, CL(c.re, c.im), CL(c.re, c.im)), 1.0) << show(x) << " " << c.op << " " << show(y);
  }
}

// NumPy's comparisons (CLT, CLE, ... of loops.c.src: real parts first, a NaN imaginary part
// spoils "real parts differ"), maximum/minimum (a NaN operand wins, the first if both),
// fmax/fmin (a NaN operand loses), clip (plain lexicographic order, NaN x or bound wins), the
// predicates, abs and angle, over every pair of special values; and the scalar operands.
template <typename T> void check_order() {
  const auto same = [](LC<T> a, LC<T> b) {
    const auto eq = [](T u, T v) { return (u != u && v != v) || (u == v && std::signbit(u) == std::signbit(v)); };
    return eq(a.re, b.re) && eq(a.im, b.im);
  };
  const auto lex_gt = [](LC<T> a, LC<T> b) { return a.re == b.re ? a.im > b.im : a.re > b.re; };
  const std::vector<LC<T>> grid = special_grid<T>();
  int bad = 0;
  for (LC<T> a : grid) {
    const bool an = std::isnan(a.re) || std::isnan(a.im);
    bad += loom_isnan(a) != an || loom_isinf(a) != (std::isinf(a.re) || std::isinf(a.im)) ||
           loom_isfinite(a) != (std::isfinite(a.re) && std::isfinite(a.im)) ||
           !same(LC<T>(loom_abs(a)), LC<T>(std::hypot(a.re, a.im))) ||
           !same(LC<T>(loom_angle(a)), LC<T>(std::atan2(a.im, a.re))) || !same(LC<T>(loom_real(a), loom_imag(a)), a) ||
           (a == 0) != (a.re == 0 && a.im == 0) || (0 != a) != (a.re != 0 || a.im != 0);
    for (LC<T> b : grid) {
      const bool bn = std::isnan(b.re) || std::isnan(b.im), re_ok = !std::isnan(a.im) && !std::isnan(b.im);
      const bool lt = (a.re < b.re && re_ok) || (a.re == b.re && a.im < b.im);
      const bool le = (a.re < b.re && re_ok) || (a.re == b.re && a.im <= b.im);
      const bool gt = (a.re > b.re && re_ok) || (a.re == b.re && a.im > b.im);
      const bool ge = (a.re > b.re && re_ok) || (a.re == b.re && a.im >= b.im);
      const LC<T> lo = an || lex_gt(a, b) ? a : b, hi(T(2), T(0)), clipped = std::isnan(lo.re) || std::isnan(lo.im) ||
                                                                           lex_gt(hi, lo) ? lo : hi;
      bad += (a < b) != lt || (a <= b) != le || (a > b) != gt || (a >= b) != ge ||
             (a == b) != (a.re == b.re && a.im == b.im) || (a != b) != (a.re != b.re || a.im != b.im) ||
             !same(loom_maximum(a, b), an || ge ? a : b) || !same(loom_minimum(a, b), an || le ? a : b) ||
             !same(loom_fmax(a, b), bn || ge ? a : b) || !same(loom_fmin(a, b), bn || le ? a : b) ||
             !same(loom_clip(a, b, hi), clipped);
      LC<T> acc = a;
      acc += b, acc *= b, acc -= a, acc /= b;
      bad += !same(acc, ((a + b) * b - a) / b) || !same(a + T(2), a + LC<T>(T(2), T(0))) ||
             !same(T(2) * a, LC<T>(T(2), T(0)) * a) || !same(a / 2, a / LC<T>(T(2), T(0)));
      if (bad && bad < 3) ADD_FAILURE() << "at " << show(a) << ", " << show(b), bad = 3;
    }
  }
  EXPECT_EQ(bad, 0);
}

TEST(ComplexMath, OrderSelectionPredicatesAndScalars) {
  check_order<double>();
  check_order<float>();
}

}  // namespace
