// numpy's index constructors (ops/index_helpers.cpp): diag_indices, tril/triu_indices and
// their _from forms, ravel_multi_index, unravel_index and ix_, as compositions of arange,
// repeat, integer arithmetic and reshapes, on every device. Index arrays are int64 (intp).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loom/array/array.h"

namespace loom {

/// `ndim` copies of arange(n): the indices of the main diagonal of an n x ... x n array.
std::vector<Array> diag_indices(int64_t n, int64_t ndim = 2, std::optional<Device> device = std::nullopt);
/// diag_indices for `arr`, which must be at least 2-d with all dimensions equal.
std::vector<Array> diag_indices_from(const Array& arr);
/// The (row, column) indices of the n x m (m = n when unset) lower triangle at and below
/// diagonal k (tril), or of the upper triangle at and above it (triu), row by row.
std::vector<Array> tril_indices(int64_t n, int64_t k = 0, std::optional<int64_t> m = std::nullopt,
                                std::optional<Device> device = std::nullopt);
std::vector<Array> triu_indices(int64_t n, int64_t k = 0, std::optional<int64_t> m = std::nullopt,
                                std::optional<Device> device = std::nullopt);
/// tril_indices / triu_indices of a 2-d arr's shape, on its device.
std::vector<Array> tril_indices_from(const Array& arr, int64_t k = 0);
std::vector<Array> triu_indices_from(const Array& arr, int64_t k = 0);
/// Flat indices into an array of shape `dims` of the coordinate arrays (broadcast together).
/// mode: one for all dimensions or one per dimension, each "raise" (ValueError for a
/// coordinate outside [0, dim); waits for the device), "wrap" or "clip". order: 'C' or 'F'.
Array ravel_multi_index(const std::vector<Array>& multi_index, const Shape& dims,
                        const std::vector<std::string>& mode = {"raise"}, char order = 'C',
                        std::optional<Device> device = std::nullopt);
/// The coordinates in an array of `shape` of the flat `indices`: one int64 array of
/// indices' shape per dimension. ValueError for an index outside [0, size) (waits for the
/// device). order: 'C' or 'F'.
std::vector<Array> unravel_index(const Array& indices, const Shape& shape, char order = 'C');
/// Open-mesh index arrays: the k-th 1-d sequence reshaped to (1, ..., n_k, ..., 1); a bool
/// sequence stands for its nonzero positions (which waits for the device).
std::vector<Array> ix_(const std::vector<Array>& args);

}  // namespace loom
