// NumPy's float-part and bit functions over the op table's rows (ops/math_parts.h).
#include "loom/ops/math_parts.h"

#include <limits>

#include "loom/core/error.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"

namespace loom {
namespace {

void require_real(const Array& x, const char* op) {
  if (is_complex(x.dtype())) throw_dtype_error(op, "is not defined for complex input " + std::string(dtype_name(x.dtype())));
}

// The dtype the ufuncs' `floating` rule computes integers in (int8 -> float16, ...).
DType floating_dtype(DType t) { return loop_dtype(DTypeRule::floating, t); }

Array as_dtype(const Array& x, DType t) { return x.dtype() == t ? x : x.astype(t); }

Array unary(OpId op, const Array& x) {
  const Operand in[1] = {x};
  return apply(op, in, 1);
}

}  // namespace

Array i0(const Array& x) {
  require_real(x, "i0");
  return unary(OpId::i0, as_dtype(x, is_floating(x.dtype()) ? x.dtype() : DType::float64));
}

Array ldexp(const Array& x1, const Array& x2) {
  require_real(x1, "ldexp");
  if (!is_integer(x2.dtype()) && x2.dtype() != DType::bool_)
    throw_dtype_error("ldexp", "the exponent x2 must be an integer array, not " + std::string(dtype_name(x2.dtype())));
  const DType t = floating_dtype(x1.dtype());
  const Operand in[2] = {as_dtype(x1, t), as_dtype(x2, t)};
  return apply(OpId::ldexp, in, 2);
}

std::pair<Array, Array> frexp(const Array& x) {
  require_real(x, "frexp");
  const Array f = as_dtype(x, floating_dtype(x.dtype()));
  return {unary(OpId::frexp_mantissa, f), unary(OpId::frexp_exponent, f).astype(DType::int32)};
}

std::pair<Array, Array> modf(const Array& x) {
  require_real(x, "modf");
  const Array f = as_dtype(x, floating_dtype(x.dtype()));
  const Array whole = trunc(f);
  // x - trunc(x) is NaN for infinities (NumPy gives +-0) and +0 for negative integers
  // (NumPy gives -0): the sign is x's.
  return {copysign(where(isinf(f), 0.0, subtract(f, whole)), f), whole};
}

Array spacing(const Array& x) {
  require_real(x, "spacing");
  const Array f = as_dtype(x, floating_dtype(x.dtype()));
  // ulp(x) = 2**(e - p) for x = m * 2**e, m in [0.5, 1), p the significand's bits; the
  // subnormals and 0 share the smallest exponent's ulp.
  int p = 53, e_min = -1021;
  switch (f.dtype()) {
    case DType::float16: p = 11; e_min = -13; break;
    case DType::bfloat16: p = 8; e_min = -125; break;
    case DType::float32: p = 24; e_min = -125; break;
    default: break;
  }
  const Array zero = equal(f, 0);
  const Array e = where(zero, static_cast<double>(e_min),
                        maximum(unary(OpId::frexp_exponent, f), static_cast<double>(e_min)));
  const Operand in[2] = {ones_like(f), subtract(e, static_cast<double>(p))};
  const Array ulp = apply(OpId::ldexp, in, 2);
  // NumPy's spacing of -0.0 is the smallest positive subnormal, as of +0.0.
  return where(isfinite(f), where(zero, ulp, copysign(ulp, f)), std::numeric_limits<double>::quiet_NaN());
}

Array bitwise_count(const Array& x) {
  if (!is_integer(x.dtype()) && x.dtype() != DType::bool_)
    throw_dtype_error("bitwise_count", "takes integers and bool, not " + std::string(dtype_name(x.dtype())));
  return unary(OpId::popcount, x).astype(DType::uint8);
}

Array float_power(const Array& x1, const Array& x2) {
  const bool cplx = is_complex(x1.dtype()) || is_complex(x2.dtype());
  const DType t = cplx ? DType::complex128 : DType::float64;
  return power(as_dtype(x1, t), as_dtype(x2, t));
}

std::pair<Array, Array> divmod(const Array& x1, const Array& x2) {
  require_real(x1, "divmod");
  require_real(x2, "divmod");
  return {floor_divide(x1, x2), remainder(x1, x2)};
}

Array fix(const Array& x) {
  require_real(x, "fix");
  return trunc(x);
}

Array isposinf(const Array& x) {
  require_real(x, "isposinf");
  return logical_and(isinf(x), greater(x, 0));
}

Array isneginf(const Array& x) {
  require_real(x, "isneginf");
  return logical_and(isinf(x), less(x, 0));
}

}  // namespace loom
