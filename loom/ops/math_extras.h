// numpy's deg2rad/rad2deg, sinc, heaviside, signbit, nan_to_num, logaddexp/logaddexp2,
// ediff1d, trapezoid, nancumsum/nancumprod, cumulative_sum/cumulative_prod, logspace,
// geomspace, vander, select, extract and compress (ops/math_extras.cpp): compositions of
// the op table's ufuncs, scans, creation and indexing, on every device. (The ufuncs among
// them have no out=/where=/dtype= yet: they join the op table later.)
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "loom/array/array.h"

namespace loom {

Array deg2rad(const Array& x);
Array rad2deg(const Array& x);
/// sin(pi x) / (pi x), 1 at 0.
Array sinc(const Array& x);
/// 0 where x1 < 0, x2 where x1 == 0, 1 where x1 > 0 (NaN stays NaN).
Array heaviside(const Array& x1, const Array& x2);
/// Whether the sign bit is set (-0.0 and negative NaNs included).
Array signbit(const Array& x);
/// NaN -> nan, +inf -> posinf, -inf -> neginf (the dtype's largest finite magnitudes when
/// unset), each part of a complex; other dtypes are copied.
Array nan_to_num(const Array& x, double nan = 0.0, std::optional<double> posinf = std::nullopt,
                 std::optional<double> neginf = std::nullopt);
/// log(exp(x1) + exp(x2)) and log2(2^x1 + 2^x2) without overflow.
Array logaddexp(const Array& x1, const Array& x2);
Array logaddexp2(const Array& x1, const Array& x2);
/// The differences of the flattened ary, with to_begin / to_end (flattened) around them.
Array ediff1d(const Array& ary, const std::optional<Array>& to_end = std::nullopt,
              const std::optional<Array>& to_begin = std::nullopt);
/// The trapezoidal rule along axis, over sample points x (spacing dx when unset).
Array trapezoid(const Array& y, const std::optional<Array>& x = std::nullopt, double dx = 1.0, int64_t axis = -1);
/// cumsum / cumprod with NaNs treated as 0 / 1.
Array nancumsum(const Array& a, std::optional<int64_t> axis = std::nullopt, std::optional<DType> dtype = std::nullopt,
                const std::optional<Array>& out = std::nullopt);
Array nancumprod(const Array& a, std::optional<int64_t> axis = std::nullopt, std::optional<DType> dtype = std::nullopt,
                 const std::optional<Array>& out = std::nullopt);
/// The Array API's cumulative_sum / cumulative_prod: axis required beyond 1-d;
/// include_initial prepends the identity; dtype as cumsum's.
Array cumulative_sum(const Array& x, std::optional<int64_t> axis = std::nullopt, bool include_initial = false,
                     std::optional<DType> dtype = std::nullopt);
Array cumulative_prod(const Array& x, std::optional<int64_t> axis = std::nullopt, bool include_initial = false,
                      std::optional<DType> dtype = std::nullopt);
/// base ** linspace(start, stop, num); geomspace: the geometric sequence from start to stop
/// (same sign, no zero), its ends exact.
Array logspace(double start, double stop, int64_t num = 50, bool endpoint = true, double base = 10.0,
               std::optional<DType> dtype = std::nullopt, std::optional<Device> device = std::nullopt);
Array geomspace(double start, double stop, int64_t num = 50, bool endpoint = true,
                std::optional<DType> dtype = std::nullopt, std::optional<Device> device = std::nullopt);
/// Columns x^(N-1), ..., x^0 (increasing: x^0 first) of 1-d x; N defaults to len(x).
Array vander(const Array& x, std::optional<int64_t> n = std::nullopt, bool increasing = false);
/// choices[i] where conditions[i] is the first true one, else `fallback`.
Array select(const std::vector<Array>& conditions, const std::vector<Array>& choices, const Array& fallback);
/// The elements of the flattened arr where the flattened condition is non-zero.
Array extract(const Array& condition, const Array& arr);
/// The slices of a along axis (the flattened a when unset) where the 1-d condition holds.
Array compress(const Array& condition, const Array& a, std::optional<int64_t> axis = std::nullopt);

}  // namespace loom
