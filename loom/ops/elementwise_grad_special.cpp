// Derivatives of the special rows (scipy.special's functions, see elementwise_grad.h), in
// the arguments where SciPy and JAX define one: the function's argument x, both arguments
// of the two-variable measures (xlogy, rel_entr, kl_div, beta, betaln) and q of zeta. The
// order n of polygamma, the exponent of zeta and the parameters a, b of gammainc and
// betainc get no cotangent: they are constants to grad, as integers are (docs/site/api/
// scipy_special.rst says so).
#include <cmath>

#include "loom/ops/elementwise.h"
#include "loom/ops/elementwise_grad.h"
#include "loom/ops/special.h"

namespace loom::ew_grad {
namespace {

constexpr double kTwoOverSqrtPi = 1.128379167095512573896158903121545172;
constexpr double kSqrtPiOverTwo = 0.886226925452758013649083741671;
constexpr double kSqrt2Pi = 2.506628274631000502415765284811;

// Operand masks beyond unary() and binary(): only the last of two or three operands.
Derivative second_only(ApplyFn f) { return {f, 2, true}; }
Derivative third_only(ApplyFn f) { return {f, 4, true}; }

Array d_erfc(Ctx& c, int, const Array& v) {
  return multiply(v, multiply(exp(negative(square(c.x(0)))), -kTwoOverSqrtPi));
}
Array d_erfinv(Ctx& c, int, const Array& v) { return multiply(v, multiply(exp(square(c.y())), kSqrtPiOverTwo)); }
Array d_erfcinv(Ctx& c, int, const Array& v) { return multiply(v, multiply(exp(square(c.y())), -kSqrtPiOverTwo)); }
Array normal_pdf(const Array& x) { return divide(exp(multiply(square(x), -0.5)), kSqrt2Pi); }
Array d_ndtr(Ctx& c, int, const Array& v) { return multiply(v, normal_pdf(c.x(0))); }
Array d_ndtri(Ctx& c, int, const Array& v) { return divide(v, normal_pdf(c.y())); }
// pdf / cdf = exp(-x^2/2 - log_ndtr(x)) / sqrt(2 pi): finite far into the lower tail.
Array d_log_ndtr(Ctx& c, int, const Array& v) {
  const Array& x = c.x(0);
  return multiply(v, divide(exp(subtract(multiply(square(x), -0.5), c.y())), kSqrt2Pi));
}

Array d_gamma(Ctx& c, int, const Array& v) { return multiply(v, multiply(c.y(), special::digamma(c.x(0)))); }
Array d_gammaln(Ctx& c, int, const Array& v) { return multiply(v, special::digamma(c.x(0))); }
Array d_digamma(Ctx& c, int, const Array& v) { return multiply(v, special::polygamma(1, c.x(0))); }
Array d_polygamma(Ctx& c, int, const Array& v) { return multiply(v, special::polygamma(add(c.x(0), 1), c.x(1))); }
// d zeta(s, q) / dq = -s zeta(s + 1, q).
Array d_zeta(Ctx& c, int, const Array& v) {
  const Array& s = c.x(0);
  return multiply(v, negative(multiply(s, special::zeta(add(s, 1), c.x(1)))));
}

// d P(a, x) / dx = x^(a-1) e^-x / Gamma(a), in logs; Q = 1 - P has its negative.
Array gamma_density(Ctx& c) {
  const Array& a = c.x(0);
  const Array& x = c.x(1);
  return exp(subtract(subtract(special::xlogy(subtract(a, 1), x), x), special::gammaln(a)));
}
Array d_gammainc(Ctx& c, int, const Array& v) { return multiply(v, gamma_density(c)); }
Array d_gammaincc(Ctx& c, int, const Array& v) { return negative(multiply(v, gamma_density(c))); }

// d log B(a, b) / da = psi(a) - psi(a + b); B's derivative is B times that.
Array d_betaln(Ctx& c, int i, const Array& v) {
  const Array& a = c.x(0);
  const Array& b = c.x(1);
  return multiply(v, subtract(special::digamma(i == 0 ? a : b), special::digamma(add(a, b))));
}
Array d_beta(Ctx& c, int i, const Array& v) { return multiply(d_betaln(c, i, v), c.y()); }
// d I_x(a, b) / dx = x^(a-1) (1-x)^(b-1) / B(a, b).
Array d_betainc(Ctx& c, int, const Array& v) {
  const Array& a = c.x(0);
  const Array& b = c.x(1);
  const Array& x = c.x(2);
  const Array log_density = subtract(add(special::xlogy(subtract(a, 1), x), special::xlog1py(subtract(b, 1), negative(x))),
                                     special::betaln(a, b));
  return multiply(v, exp(log_density));
}

Array d_expit(Ctx& c, int, const Array& v) { return multiply(v, multiply(c.y(), subtract(1, c.y()))); }
Array d_logit(Ctx& c, int, const Array& v) {
  const Array& x = c.x(0);
  return divide(v, multiply(x, subtract(1, x)));
}
Array d_log_expit(Ctx& c, int, const Array& v) { return multiply(v, special::expit(negative(c.x(0)))); }

// JAX's xlogy: d/dx = log(y) and d/dy = x / y, both 0 where x is 0.
Array d_xlogy(Ctx& c, int i, const Array& v) {
  const Array& x = c.x(0);
  const Array& y = c.x(1);
  const Array zero = equal(x, 0);
  const Array d = i == 0 ? log(y) : divide(x, y);
  return multiply(v, where(zero, 0, d));
}
Array d_xlog1py(Ctx& c, int i, const Array& v) {
  const Array& x = c.x(0);
  const Array& y = c.x(1);
  const Array zero = equal(x, 0);
  const Array d = i == 0 ? log1p(y) : divide(x, add(y, 1));
  return multiply(v, where(zero, 0, d));
}
Array d_entr(Ctx& c, int, const Array& v) { return negative(multiply(v, add(log(c.x(0)), 1))); }
Array d_rel_entr(Ctx& c, int i, const Array& v) {
  const Array& x = c.x(0);
  const Array& y = c.x(1);
  return multiply(v, i == 0 ? add(log(divide(x, y)), 1) : negative(divide(x, y)));
}
Array d_kl_div(Ctx& c, int i, const Array& v) {
  const Array& x = c.x(0);
  const Array& y = c.x(1);
  return multiply(v, i == 0 ? log(divide(x, y)) : subtract(1, divide(x, y)));
}

// i0e' = i1e - sign(x) i0e; i1e' = i0e - i1e (sign(x) + 1/x), which is 1/2 at 0.
Array d_i0e(Ctx& c, int, const Array& v) {
  const Array& x = c.x(0);
  return multiply(v, subtract(special::i1e(x), multiply(sign(x), c.y())));
}
Array d_i1e(Ctx& c, int, const Array& v) {
  const Array& x = c.x(0);
  const Array zero = equal(x, 0);
  const Array inv = divide(1, where(zero, 1, x));
  return multiply(v, where(zero, 0.5, subtract(special::i0e(x), multiply(c.y(), add(sign(x), inv)))));
}
// J0' = -J1, J1' = J0 - J1 / x (1/2 at 0); the same for Y (whose domain excludes 0).
Array d_j0(Ctx& c, int, const Array& v) { return negative(multiply(v, special::j1(c.x(0)))); }
Array d_j1(Ctx& c, int, const Array& v) {
  const Array& x = c.x(0);
  const Array zero = equal(x, 0);
  return multiply(v, where(zero, 0.5, subtract(special::j0(x), divide(c.y(), where(zero, 1, x)))));
}
Array d_y0(Ctx& c, int, const Array& v) { return negative(multiply(v, special::y1(c.x(0)))); }
Array d_y1(Ctx& c, int, const Array& v) {
  const Array& x = c.x(0);
  return multiply(v, subtract(special::y0(x), divide(c.y(), x)));
}

}  // namespace

bool special_derivative(OpId op, Derivative* d) {
  switch (op) {
    case OpId::erfc: *d = unary(d_erfc); return true;
    case OpId::erfinv: *d = unary(d_erfinv); return true;
    case OpId::erfcinv: *d = unary(d_erfcinv); return true;
    case OpId::ndtr: *d = unary(d_ndtr); return true;
    case OpId::ndtri: *d = unary(d_ndtri); return true;
    case OpId::log_ndtr: *d = unary(d_log_ndtr); return true;
    case OpId::gamma: *d = unary(d_gamma); return true;
    case OpId::gammaln: *d = unary(d_gammaln); return true;
    case OpId::digamma: *d = unary(d_digamma); return true;
    case OpId::polygamma: *d = second_only(d_polygamma); return true;
    case OpId::zeta: *d = second_only(d_zeta); return true;
    case OpId::riemann_zeta: *d = none(); return true;  // zeta's exponent: no derivative (SciPy, JAX)
    case OpId::gammainc: *d = second_only(d_gammainc); return true;
    case OpId::gammaincc: *d = second_only(d_gammaincc); return true;
    case OpId::beta: *d = binary(d_beta); return true;
    case OpId::betaln: *d = binary(d_betaln); return true;
    case OpId::betainc: *d = third_only(d_betainc); return true;
    case OpId::expit: *d = unary(d_expit); return true;
    case OpId::logit: *d = unary(d_logit); return true;
    case OpId::log_expit: *d = unary(d_log_expit); return true;
    case OpId::xlogy: *d = binary(d_xlogy); return true;
    case OpId::xlog1py: *d = binary(d_xlog1py); return true;
    case OpId::entr: *d = unary(d_entr); return true;
    case OpId::rel_entr: *d = binary(d_rel_entr); return true;
    case OpId::kl_div: *d = binary(d_kl_div); return true;
    case OpId::i0e: *d = unary(d_i0e); return true;
    case OpId::i1e: *d = unary(d_i1e); return true;
    case OpId::j0: *d = unary(d_j0); return true;
    case OpId::j1: *d = unary(d_j1); return true;
    case OpId::y0: *d = unary(d_y0); return true;
    case OpId::y1: *d = unary(d_y1); return true;
    default: return false;
  }
}

}  // namespace loom::ew_grad
