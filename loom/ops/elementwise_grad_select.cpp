// Derivatives of the selecting ops (maximum, minimum, fmax, fmin, clip, where), of absolute,
// copysign, and the ops without a derivative (see elementwise_grad.h). Choices at the
// kinks follow JAX: absolute'(0) = sign(0) = 0; where both operands of maximum/minimum/
// fmax/fmin equal the output (a tie) each gets half the cotangent, and an operand that is
// not the output (NaN results included) gets none; clip is minimum(maximum(x, lo), hi).
#include "loom/ops/elementwise.h"
#include "loom/ops/elementwise_grad.h"

namespace loom::ew_grad {
namespace {

// The share of v that goes to operand `a` of a selection z of a and b: all of it where
// a alone equals z, half where both do, none where a does not.
Array tie_share(const Array& a, const Array& b, const Array& z, const Array& v) {
  return where(equal(a, z), where(equal(b, z), multiply(v, 0.5), v), 0);
}

Array d_select(Ctx& c, int i, const Array& v) { return tie_share(c.x(i), c.x(1 - i), c.y(), v); }

// clip(x, lo, hi) = minimum(maximum(x, lo), hi): the chain rule through both selections.
Array d_clip(Ctx& c, int i, const Array& v) {
  const Array m = maximum(c.x(0), c.x(1));
  const Array& y = c.y();
  if (i == 2) return tie_share(c.x(2), m, y, v);
  return tie_share(c.x(i), c.x(1 - i), m, tie_share(m, c.x(2), y, v));
}

Array d_where(Ctx& c, int i, const Array& v) {
  const Array& cond = c.x(0);
  return i == 1 ? where(cond, v, 0) : where(cond, 0, v);
}

Array d_absolute(Ctx& c, int, const Array& v) { return multiply(v, sign(c.x(0))); }

// |x0| with the sign of x1: sign(x0) * (+-1 by x1's sign bit); zero for x1.
Array d_copysign(Ctx& c, int i, const Array& v) {
  if (i == 1) return Array();
  return multiply(v, multiply(sign(c.x(0)), copysign(1.0, c.x(1))));
}

Array d_zero(Ctx&, int, const Array&) { return Array(); }

}  // namespace

bool select_derivative(OpId op, Derivative* d) {
  switch (op) {
    case OpId::maximum: case OpId::minimum: case OpId::fmax: case OpId::fmin:
      *d = binary(d_select); return true;
    case OpId::clip: *d = {d_clip, 7, true}; return true;
    case OpId::where: *d = {d_where, 6, true}; return true;  // the condition gets none
    case OpId::absolute: *d = unary(d_absolute); return true;
    case OpId::copysign: *d = binary(d_copysign); return true;
    case OpId::sign: *d = unary(d_zero); return true;
    // Boolean results and bit patterns: no derivative, no cotangent (JAX's float0).
    case OpId::isnan: case OpId::isinf: case OpId::isfinite:
    case OpId::logical_and: case OpId::logical_or: case OpId::logical_xor: case OpId::logical_not:
    case OpId::bitwise_and: case OpId::bitwise_or: case OpId::bitwise_xor: case OpId::invert:
    case OpId::left_shift: case OpId::right_shift: case OpId::popcount: case OpId::gcd: case OpId::lcm:
    case OpId::equal: case OpId::not_equal: case OpId::less: case OpId::less_equal:
    case OpId::greater: case OpId::greater_equal:
      *d = none(); return true;
    default: return false;
  }
}

}  // namespace loom::ew_grad
