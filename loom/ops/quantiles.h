// numpy's quantile, percentile and median and their nan* forms (ops/quantiles.cpp): the order
// statistics each q needs, selected (select_ranks) when the reduction leaves one slice, else
// gathered from a sort along the reduced axes, on every device.
#pragma once
#include <string>
#include <vector>

#include "loom/ops/reduce.h"

namespace loom {

/// The q-quantiles (each in [0, 1]) along `axis` (all axes when unset), with NumPy's
/// methods "linear" (default), "lower", "higher", "nearest", "midpoint". The result has
/// q's shape `q_shape` ({} for one scalar q) in front of the reduced shape. A slice
/// holding a NaN gives NaN. Integers give float64 ("lower"/"higher"/"nearest" keep them).
Array quantile(const Array& a, const std::vector<double>& q, const Shape& q_shape, const AxisArg& axis = std::nullopt,
               const std::string& method = "linear", bool keepdims = false);
/// The middle value (the mean of the two middle ones for an even count).
Array median(const Array& a, const AxisArg& axis = std::nullopt, bool keepdims = false);
/// quantile and median ignoring NaNs: each slice's order statistics among its numbers (an
/// all-NaN slice gives NaN). Integer input has no NaN: quantile's result.
Array nanquantile(const Array& a, const std::vector<double>& q, const Shape& q_shape,
                  const AxisArg& axis = std::nullopt, const std::string& method = "linear", bool keepdims = false);
Array nanmedian(const Array& a, const AxisArg& axis = std::nullopt, bool keepdims = false);

}  // namespace loom
