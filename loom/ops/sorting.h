// Sorting and searching: sort, argsort, unique, searchsorted, with NumPy's results on
// every device. Sorts are stable; NaNs sort to the end; -0.0 and 0.0 compare equal.
#pragma once
#include <optional>
#include <string>

#include "loom/array/array.h"
#include "loom/backend/sorting.h"  // UniqueArrays

namespace loom {

/// NumPy's sort: a sorted copy along `axis` (nullopt: of the flattened array). Stable.
/// Every dtype; a 0-d array needs axis=nullopt (axis -1 raises AxisError, as NumPy).
/// `descending` (the Array API's): largest first, NaNs first.
Array sort(const Array& a, std::optional<int64_t> axis = -1, bool descending = false);
/// NumPy's argsort (kind='stable'): int64 indices that sort `a` along `axis`; equal
/// elements keep their order, also with `descending` (the Array API's). A 0-d array is
/// treated as 1-d, as NumPy does.
Array argsort(const Array& a, std::optional<int64_t> axis = -1, bool descending = false);
/// ndarray.sort: sorts `a` in place along `axis`.
void sort_inplace(const Array& a, int64_t axis = -1);

/// unique's outputs (UniqueArrays, declared with the backends' contract).
/// NumPy 2's unique: of the flattened array with axis=None, where with equal_nan (the
/// default) all NaNs collapse into one NaN at the end; of the slices along `axis` otherwise
/// (ops/unique_axis.h: a slice holding a NaN is a value of its own, as NumPy's).
UniqueArrays unique(const Array& a, bool return_index = false, bool return_inverse = false,
                    bool return_counts = false, std::optional<int64_t> axis = std::nullopt,
                    bool equal_nan = true);

/// NumPy's searchsorted: int64 indices (v's shape) where the elements of `v` would be
/// inserted into the sorted 1-d `a` to keep it sorted; side "left" or "right"; `sorter`
/// (integer indices that sort `a`, e.g. argsort(a)). a and v are compared in their
/// promoted dtype.
Array searchsorted(const Array& a, const Array& v, const std::string& side = "left",
                   const std::optional<Array>& sorter = std::nullopt);

/// sort(a, axis=None)[ranks] without sorting: the elements at 0-based `ranks` (1-d int64 on
/// a's device, each in [0, a.size()), at most kMaxSelectRanks of them) of a's flattened
/// stable ascending order, NaN last, bit for bit. a: real dtype, not empty. What
/// quantile and median read for a single slice.
Array select_ranks(const Array& a, const Array& ranks);

}  // namespace loom
