// numpy's column_stack, dstack, hsplit, vsplit, dsplit, append, rot90, unstack, kron and the
// Array API's matrix_transpose (ops/stacking.cpp): compositions of views, concatenate and
// broadcasting multiplies.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "loom/array/array.h"

namespace loom {

/// 1-d arrays as columns, 2-d and higher joined along axis 1.
Array column_stack(const std::vector<Array>& arrays);
/// Joined along axis 2, after making each at least 3-d ((N,) -> (1, N, 1), (M, N) -> (M, N, 1)).
Array dstack(const std::vector<Array>& arrays);
/// split along axis 1 (axis 0 for 1-d), 0, and 2 (at least 3-d): equal sections or at indices.
std::vector<Array> hsplit(const Array& a, int64_t sections);
std::vector<Array> vsplit(const Array& a, int64_t sections);
std::vector<Array> dsplit(const Array& a, int64_t sections);
std::vector<Array> hsplit_at(const Array& a, const std::vector<int64_t>& indices);
std::vector<Array> vsplit_at(const Array& a, const std::vector<int64_t>& indices);
std::vector<Array> dsplit_at(const Array& a, const std::vector<int64_t>& indices);
/// values appended to arr along axis (both flattened when axis is unset).
Array append(const Array& arr, const Array& values, std::optional<int64_t> axis = std::nullopt);
/// a rotated by 90 degrees k times in the plane of `axes` (from the first axis towards the
/// second): a view.
Array rot90(const Array& a, int64_t k = 1, int64_t axis0 = 0, int64_t axis1 = 1);
/// The views a[..., i, ...] along axis (the Array API's unstack).
std::vector<Array> unstack(const Array& a, int64_t axis = 0);
/// The last two axes swapped, a view (the Array API's matrix_transpose and x.mT);
/// std::invalid_argument for fewer than 2 dimensions.
Array matrix_transpose(const Array& a);
/// The Kronecker product: blocks a[i, j] * b, over max(a.ndim, b.ndim) axes.
Array kron(const Array& a, const Array& b);

}  // namespace loom
