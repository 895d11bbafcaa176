// Derivatives of the exponential, logarithmic, trigonometric and hyperbolic ops and erf
// (see elementwise_grad.h): each applies d out / d x to v, with the output where it is
// the cheaper form (exp, tan, tanh).
#include <cmath>

#include "loom/ops/elementwise.h"
#include "loom/ops/elementwise_grad.h"

namespace loom::ew_grad {
namespace {

constexpr double kLn2 = 0.693147180559945309417232121458176568;
constexpr double kLn10 = 2.302585092994045684017991454684364208;
constexpr double kTwoOverSqrtPi = 1.128379167095512573896158903121545172;

Array d_exp(Ctx& c, int, const Array& v) { return multiply(v, c.y()); }
Array d_exp2(Ctx& c, int, const Array& v) { return multiply(v, multiply(c.y(), kLn2)); }
Array d_expm1(Ctx& c, int, const Array& v) { return multiply(v, add(c.y(), 1)); }
Array d_log(Ctx& c, int, const Array& v) { return divide(v, c.x(0)); }
Array d_log2(Ctx& c, int, const Array& v) { return divide(v, multiply(c.x(0), kLn2)); }
Array d_log10(Ctx& c, int, const Array& v) { return divide(v, multiply(c.x(0), kLn10)); }
Array d_log1p(Ctx& c, int, const Array& v) { return divide(v, add(c.x(0), 1)); }

Array d_sin(Ctx& c, int, const Array& v) { return multiply(v, cos(c.x(0))); }
Array d_cos(Ctx& c, int, const Array& v) { return negative(multiply(v, sin(c.x(0)))); }
Array d_tan(Ctx& c, int, const Array& v) { return multiply(v, add(square(c.y()), 1)); }
Array d_arcsin(Ctx& c, int, const Array& v) { return divide(v, sqrt(subtract(1, square(c.x(0))))); }
Array d_arccos(Ctx& c, int, const Array& v) { return negative(d_arcsin(c, 0, v)); }
Array d_arctan(Ctx& c, int, const Array& v) { return divide(v, add(square(c.x(0)), 1)); }

// arctan2(x0, x1), the angle of (x1, x0): (x1, -x0) / (x0**2 + x1**2).
Array d_arctan2(Ctx& c, int i, const Array& v) {
  const Array& x0 = c.x(0);
  const Array& x1 = c.x(1);
  const Array r2 = add(square(x0), square(x1));
  return i == 0 ? multiply(v, divide(x1, r2)) : negative(multiply(v, divide(x0, r2)));
}

Array d_sinh(Ctx& c, int, const Array& v) { return multiply(v, cosh(c.x(0))); }
Array d_cosh(Ctx& c, int, const Array& v) { return multiply(v, sinh(c.x(0))); }
Array d_tanh(Ctx& c, int, const Array& v) { return multiply(v, subtract(1, square(c.y()))); }
Array d_arcsinh(Ctx& c, int, const Array& v) { return divide(v, sqrt(add(square(c.x(0)), 1))); }
// 1 / sqrt((x - 1)(x + 1)): no cancellation in x**2 - 1 near x = 1. For complex x the
// principal branch needs 1 / (sqrt(x - 1) sqrt(x + 1)) (the product's root flips sign
// across the imaginary axis).
Array d_arccosh(Ctx& c, int, const Array& v) {
  const Array& x = c.x(0);
  if (is_complex(x.dtype())) return divide(v, multiply(sqrt(subtract(x, 1)), sqrt(add(x, 1))));
  return divide(v, sqrt(multiply(subtract(x, 1), add(x, 1))));
}
Array d_arctanh(Ctx& c, int, const Array& v) { return divide(v, subtract(1, square(c.x(0)))); }

Array d_erf(Ctx& c, int, const Array& v) {
  return multiply(v, multiply(exp(negative(square(c.x(0)))), kTwoOverSqrtPi));
}

// The modified Bessel functions (internal rows behind numpy.i0): I0' = I1, and
// I1' = I0 - I1 / x, which is 1/2 at 0.
Array bessel(OpId op, const Array& x) {
  const Operand in[1] = {x};
  return apply(op, in, 1);
}
Array d_i0(Ctx& c, int, const Array& v) { return multiply(v, bessel(OpId::i1, c.x(0))); }
Array d_i1(Ctx& c, int, const Array& v) {
  const Array& x = c.x(0);
  const Array zero = equal(x, 0);
  return multiply(v, where(zero, 0.5, subtract(bessel(OpId::i0, x), divide(c.y(), where(zero, 1, x)))));
}

}  // namespace

bool transcendental_derivative(OpId op, Derivative* d) {
  switch (op) {
    case OpId::exp: *d = unary(d_exp); return true;
    case OpId::exp2: *d = unary(d_exp2); return true;
    case OpId::expm1: *d = unary(d_expm1); return true;
    case OpId::log: *d = unary(d_log); return true;
    case OpId::log2: *d = unary(d_log2); return true;
    case OpId::log10: *d = unary(d_log10); return true;
    case OpId::log1p: *d = unary(d_log1p); return true;
    case OpId::sin: *d = unary(d_sin); return true;
    case OpId::cos: *d = unary(d_cos); return true;
    case OpId::tan: *d = unary(d_tan); return true;
    case OpId::arcsin: *d = unary(d_arcsin); return true;
    case OpId::arccos: *d = unary(d_arccos); return true;
    case OpId::arctan: *d = unary(d_arctan); return true;
    case OpId::arctan2: *d = binary(d_arctan2); return true;
    case OpId::sinh: *d = unary(d_sinh); return true;
    case OpId::cosh: *d = unary(d_cosh); return true;
    case OpId::tanh: *d = unary(d_tanh); return true;
    case OpId::arcsinh: *d = unary(d_arcsinh); return true;
    case OpId::arccosh: *d = unary(d_arccosh); return true;
    case OpId::arctanh: *d = unary(d_arctanh); return true;
    case OpId::erf: *d = unary(d_erf); return true;
    case OpId::i0: *d = unary(d_i0); return true;
    case OpId::i1: *d = unary(d_i1); return true;
    default: return false;
  }
}

}  // namespace loom::ew_grad
