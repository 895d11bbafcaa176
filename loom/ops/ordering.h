// numpy's lexsort, partition, argpartition and interp (ops/ordering.cpp): compositions of
// the stable sorts, take_along_axis and searchsorted, on every device.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "loom/array/array.h"

namespace loom {

/// The indices that sort by keys.back() first, then by the keys before it (stable).
Array lexsort(const std::vector<Array>& keys, int64_t axis = -1);
/// An array whose kth elements along axis are in sorted position, smaller ones before and
/// larger ones after (here: fully sorted, which satisfies that); argpartition: its indices.
Array partition(const Array& a, const std::vector<int64_t>& kth, int64_t axis = -1);
Array argpartition(const Array& a, const std::vector<int64_t>& kth, int64_t axis = -1);
/// Piecewise-linear interpolation of (xp, fp) at x; xp increasing; left / right (fp's ends
/// when unset) outside [xp[0], xp[-1]]. With `period`, x and xp are angles of that period
/// (xp in any order; left and right unused), as NumPy's.
Array interp(const Array& x, const Array& xp, const Array& fp, std::optional<double> left = std::nullopt,
             std::optional<double> right = std::nullopt, std::optional<double> period = std::nullopt);

}  // namespace loom
