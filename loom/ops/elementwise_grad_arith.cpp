// Derivatives of the arithmetic ops of the op table (see elementwise_grad.h): each applies
// d out / d operand_i to v. Written with public ops so that they differentiate again.
#include "loom/ops/elementwise.h"
#include "loom/ops/elementwise_grad.h"

namespace loom::ew_grad {
namespace {

Array d_add(Ctx&, int, const Array& v) { return v; }
Array d_subtract(Ctx&, int i, const Array& v) { return i == 0 ? v : negative(v); }
Array d_multiply(Ctx& c, int i, const Array& v) { return multiply(v, c.x(1 - i)); }

// x0 / x1: 1 / x1, and -x0 / x1**2 = -out / x1.
Array d_divide(Ctx& c, int i, const Array& v) {
  if (i == 0) return divide(v, c.x(1));
  return negative(divide(multiply(v, c.y()), c.x(1)));
}

// x0 - floor(x0 / x1) * x1 away from its jumps: 1, and -floor(x0 / x1).
Array d_remainder(Ctx& c, int i, const Array& v) {
  if (i == 0) return v;
  return negative(multiply(v, floor_divide(c.x(0), c.x(1))));
}

// x0 ** x1, as JAX: d/dx0 = x1 * x0 ** (x1 - 1), taken as 0 where x1 == 0 (so 0 ** 0 has
// derivative 0, not NaN); d/dx1 = log(x0) * out, taken as 0 where x0 == 0.
Array d_power(Ctx& c, int i, const Array& v) {
  const Array& x0 = c.x(0);
  const Array& x1 = c.x(1);
  if (i == 0) return multiply(v, where(equal(x1, 0), 0, multiply(x1, power(x0, subtract(x1, 1)))));
  return multiply(v, multiply(log(where(equal(x0, 0), 1, x0)), c.y()));
}

// C's fmod, x0 - trunc(x0 / x1) * x1 away from its jumps: 1, and -trunc(x0 / x1).
Array d_fmod(Ctx& c, int i, const Array& v) {
  if (i == 0) return v;
  return negative(multiply(v, trunc(divide(c.x(0), c.x(1)))));
}

// |x|: sign(x), 0 at 0 (JAX's choice for abs).
Array d_fabs(Ctx& c, int, const Array& v) { return multiply(v, sign(c.x(0))); }

// ldexp (x0 * 2**x1, x1 an integer): 2**x1, and 0 for the exponent. frexp's mantissa
// x * 2**-e: 2**-e (its exponent is piecewise constant: d_zero).
Array ldexp_of(const Array& x, const Array& e) {
  const Operand in[2] = {x, e};
  return apply(OpId::ldexp, in, 2);
}
Array d_ldexp(Ctx& c, int i, const Array& v) { return i == 0 ? ldexp_of(v, c.x(1)) : Array(); }
Array d_frexp_mantissa(Ctx& c, int, const Array& v) {
  const Operand in[1] = {c.x(0)};
  return ldexp_of(v, negative(apply(OpId::frexp_exponent, in, 1)));
}

// nextafter(x0, x1) moves x0 by one ulp: the identity in x0, nothing in x1.
Array d_nextafter(Ctx&, int i, const Array& v) { return i == 0 ? v : Array(); }

Array d_negative(Ctx&, int, const Array& v) { return negative(v); }
Array d_square(Ctx& c, int, const Array& v) { return multiply(v, multiply(c.x(0), 2)); }
Array d_reciprocal(Ctx& c, int, const Array& v) { return negative(multiply(v, square(c.y()))); }
Array d_sqrt(Ctx& c, int, const Array& v) { return divide(v, multiply(c.y(), 2)); }
Array d_cbrt(Ctx& c, int, const Array& v) { return divide(v, multiply(square(c.y()), 3)); }

// sqrt(x0**2 + x1**2): x_i / out, taken as 0 at the origin (JAX's choice).
Array d_hypot(Ctx& c, int i, const Array& v) {
  const Array& y = c.y();
  return multiply(v, divide(c.x(i), where(equal(y, 0), 1, y)));
}

// Zero almost everywhere: the cotangent is zeros.
Array d_zero(Ctx&, int, const Array&) { return Array(); }

}  // namespace

bool arith_derivative(OpId op, Derivative* d) {
  switch (op) {
    case OpId::add: *d = binary(d_add); return true;
    case OpId::subtract: *d = binary(d_subtract); return true;
    case OpId::multiply: *d = binary(d_multiply); return true;
    case OpId::divide: *d = binary(d_divide); return true;
    case OpId::floor_divide: *d = binary(d_zero); return true;
    case OpId::remainder: *d = binary(d_remainder); return true;
    case OpId::fmod: *d = binary(d_fmod); return true;
    case OpId::fabs: *d = unary(d_fabs); return true;
    case OpId::nextafter: *d = binary(d_nextafter); return true;
    case OpId::ldexp: *d = binary(d_ldexp); return true;
    case OpId::frexp_mantissa: *d = unary(d_frexp_mantissa); return true;
    case OpId::frexp_exponent: *d = unary(d_zero); return true;
    case OpId::power: *d = binary(d_power); return true;
    case OpId::negative: *d = unary(d_negative); return true;
    case OpId::positive: *d = unary(d_add); return true;
    case OpId::conjugate: *d = unary(d_add); return true;  // of a real value: the identity
    case OpId::copy: *d = unary(d_add); return true;  // a cast: identity, cast back
    case OpId::square: *d = unary(d_square); return true;
    case OpId::reciprocal: *d = unary(d_reciprocal); return true;
    case OpId::sqrt: *d = unary(d_sqrt); return true;
    case OpId::cbrt: *d = unary(d_cbrt); return true;
    case OpId::hypot: *d = binary(d_hypot); return true;
    case OpId::floor: case OpId::ceil: case OpId::trunc: case OpId::rint:
      *d = unary(d_zero); return true;
    default: return false;
  }
}

}  // namespace loom::ew_grad
