// numpy's diff, ptp, average, meshgrid and indices (ops/numeric.cpp): compositions of
// slicing, arithmetic, reductions and broadcasting, on every device.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "loom/ops/reduce.h"

namespace loom {

/// The n-th discrete difference along `axis` (a[1:] - a[:-1] n times; != for bool), after
/// prepending / appending the given values (broadcast to a's shape with length 1 there).
Array diff(const Array& a, int64_t n = 1, int64_t axis = -1, const std::optional<Array>& prepend = std::nullopt,
           const std::optional<Array>& append = std::nullopt);
/// max - min.
Array ptp(const Array& a, const AxisArg& axis = std::nullopt, bool keepdims = false);
/// The weighted mean and the sum of the weights (broadcast to the mean's shape). 1-d
/// weights along a single axis apply along it; weights summing to zero raise
/// ZeroDivisionError (waits for the device).
std::pair<Array, Array> average(const Array& a, const AxisArg& axis = std::nullopt,
                                const std::optional<Array>& weights = std::nullopt, bool keepdims = false);
/// Coordinate arrays from 1-d coordinate vectors: indexing "xy" (Cartesian, the first two
/// axes swapped) or "ij" (matrix); sparse: shapes with ones instead of broadcast copies;
/// copy false: broadcast views.
std::vector<Array> meshgrid(const std::vector<Array>& xs, bool copy = true, bool sparse = false,
                            const std::string& indexing = "xy");
/// The index grids of an array of shape `dims`: stacked (len(dims), *dims), or sparse ones.
std::vector<Array> indices(const Shape& dims, DType dtype = DType::int64, bool sparse = false,
                           std::optional<Device> device = std::nullopt);

}  // namespace loom
