// numpy's tri, tril, triu, diag and diagflat (ops/triangles.cpp): compositions of arange,
// comparisons, where and diagonal views, so every device has them.
#pragma once
#include <cstdint>
#include <optional>

#include "loom/array/array.h"

namespace loom {

/// n x m (m = n when unset) with ones at and below diagonal k, zeros above, in `dtype`.
Array tri(int64_t n, std::optional<int64_t> m, int64_t k, DType dtype, std::optional<Device> device = std::nullopt);
/// a with the elements above diagonal k (tril) or below it (triu) of its last two axes
/// zeroed; a 1-d a is first broadcast to a square matrix, as NumPy does.
Array tril(const Array& a, int64_t k = 0);
Array triu(const Array& a, int64_t k = 0);
/// 1-d v: the square matrix with v on diagonal k; 2-d v: its diagonal k (a view).
Array diag(const Array& v, int64_t k = 0);
/// diag of the flattened v.
Array diagflat(const Array& v, int64_t k = 0);

}  // namespace loom
