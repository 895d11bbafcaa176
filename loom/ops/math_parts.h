// NumPy's functions on the parts of floating-point numbers and on bits that are not a single
// op-table ufunc: i0, ldexp, frexp, modf, spacing, bitwise_count, float_power, divmod, fix,
// isposinf/isneginf (ops/math_parts.cpp). Each applies the op table's rows (some of them
// `internal`, as i0 and frexp's two halves) so that both backends compute the same
// expressions; on every device.
#pragma once
#include <utility>

#include "loom/array/array.h"

namespace loom {

/// The modified Bessel function of order 0: floats keep their dtype, integers give float64.
Array i0(const Array& x);
/// x1 * 2**x2 for an integer x2, in x1's float dtype (integer x1 as the ufuncs' floating rule).
Array ldexp(const Array& x1, const Array& x2);
/// (mantissa, exponent) with x == mantissa * 2**exponent, |mantissa| in [0.5, 1) (0 for 0;
/// infinities and NaN keep themselves with exponent 0); exponent is int32.
std::pair<Array, Array> frexp(const Array& x);
/// (fractional part, integral part), each with x's sign; (+-0, +-inf) for infinities.
std::pair<Array, Array> modf(const Array& x);
/// The distance from x to the next float of its dtype away from zero, with x's sign (NaN for
/// infinities and NaN).
Array spacing(const Array& x);
/// The number of 1 bits of |x| (integers and bool), as uint8.
Array bitwise_count(const Array& x);
/// x1 ** x2 computed in float64 (complex128 for complex operands).
Array float_power(const Array& x1, const Array& x2);
/// (x1 // x2, x1 % x2) with Python's sign rules (numpy.divmod).
std::pair<Array, Array> divmod(const Array& x1, const Array& x2);
/// Rounds toward zero (numpy.fix; integers stay as they are).
Array fix(const Array& x);
/// Whether x is +inf / -inf (real dtypes; complex raises TypeError as NumPy does).
Array isposinf(const Array& x);
Array isneginf(const Array& x);

}  // namespace loom
