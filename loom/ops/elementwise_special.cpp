// Elementwise ops with extra arguments, composed from the op table's ops exactly as
// NumPy composes them: round (multiply, rint, divide), clip, where.
#include <cmath>
#include <string>

#include "loom/core/error.h"
#include "loom/ops/complex.h"
#include "loom/ops/elementwise.h"

namespace loom {

Array round(const Array& a, int decimals, const std::optional<Array>& out) {
  UfuncArgs o;
  o.out = out;
  if (is_integer(a.dtype())) {
    if (decimals >= 0) {
      if (!out) return a.copy();
      copyto(*out, a);
      return *out;
    }
    // NumPy: true_divide by 10^-decimals in float64, rint, multiply, cast back.
    const double f = std::pow(10.0, -decimals);
    Array t = divide(a, f);
    rint(t, UfuncArgs{t, std::nullopt, std::nullopt});
    multiply(t, f, UfuncArgs{t, std::nullopt, std::nullopt});
    if (!out) return t.astype(a.dtype());
    copyto(*out, t);
    return *out;
  }
  if (is_complex(a.dtype())) {
    // NumPy rounds the two parts as real arrays (a complex divide by 10^d would round
    // differently): in place, through the real and imag views of the result.
    Array t = out ? *out : a.copy();
    if (out) copyto(t, a);
    for (const Array& part : {real(t), imag(t)}) round(part, decimals, part);
    return t;
  }
  if (a.dtype() == bool_ && decimals != 0)
    throw DTypeError("[round] Cannot cast ufunc 'multiply' output from float64 to bool with casting rule 'same_kind'");
  if (decimals == 0) return rint(a, o);
  // Floats: the scale is a scalar of a's dtype (a weak Python float gives exactly that).
  const double f = std::pow(10.0, decimals > 0 ? decimals : -decimals);
  Array t = decimals > 0 ? multiply(a, f, o) : divide(a, f, o);
  UfuncArgs in_place{t, std::nullopt, std::nullopt};
  rint(t, in_place);
  if (decimals > 0) divide(t, f, in_place);
  else multiply(t, f, in_place);
  return t;
}

namespace {

// NumPy 2 accepts Python-int bounds outside an integer array's range in clip.
Operand clamp_bound(const Operand& a, const Operand& bound) {
  if (a.is_scalar || !is_integer(a.array.dtype()) || !bound.is_scalar) return bound;
  const Scalar& s = bound.scalar;
  if (s.kind != Scalar::Kind::int_ && s.kind != Scalar::Kind::uint_) return bound;
  const DType d = a.array.dtype();
  const int bits = static_cast<int>(itemsize(d) * 8);
  const bool is_unsigned = dtype_kind(d) == DTypeKind::unsigned_int;
  const long double lo = is_unsigned ? 0.0L : -std::ldexp(1.0L, bits - 1);
  const long double hi = std::ldexp(1.0L, is_unsigned ? bits : bits - 1) - 1;
  const long double v = s.kind == Scalar::Kind::uint_ ? static_cast<long double>(s.u) : static_cast<long double>(s.i);
  if (v < lo) return Operand(Scalar(static_cast<long long>(lo)));
  if (v > hi) return is_unsigned ? Operand(Scalar(static_cast<unsigned long long>(hi))) : Operand(Scalar(static_cast<long long>(hi)));
  return bound;
}

}  // namespace

Array clip(const Operand& a, const std::optional<Operand>& a_min, const std::optional<Operand>& a_max,
           const UfuncArgs& args) {
  if (a_min && a_max) {
    const Operand in[3] = {a, *a_min, *a_max};
    return apply(OpId::clip, in, 3, args);
  }
  if (a_min) return maximum(a, clamp_bound(a, *a_min), args);
  if (a_max) return minimum(a, clamp_bound(a, *a_max), args);
  return apply(OpId::copy, &a, 1, args);  // NumPy 2: clip(a, None, None) is a copy
}

Array where(const Operand& condition, const Operand& x, const Operand& y) {
  const Operand in[3] = {condition, x, y};
  return apply(OpId::where, in, 3);
}

}  // namespace loom
