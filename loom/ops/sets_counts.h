// numpy's isin and set routines (intersect1d, union1d, setdiff1d, setxor1d), digitize,
// cov and corrcoef (ops/sets_counts.cpp): compositions of unique, searchsorted and matmul,
// on every device. bincount and histogram (ops/counting.h) are included for their callers.
#pragma once
#include <optional>
#include <utility>

#include "loom/array/array.h"
#include "loom/ops/counting.h"

namespace loom {

/// Whether each element of `element` is in `test_elements` (element's shape).
Array isin(const Array& element, const Array& test_elements, bool invert = false);
/// Sorted unique values in both / either / only the first / exactly one of the arrays.
Array intersect1d(const Array& a, const Array& b);
/// intersect1d with return_indices=True: the common values and, for each, its first index in
/// the flattened a and in the flattened b (with assume_unique, the inputs' own, as NumPy's).
struct Intersection {
  Array values, index_a, index_b;
};
Intersection intersect1d_indices(const Array& a, const Array& b, bool assume_unique = false);
Array union1d(const Array& a, const Array& b);
Array setdiff1d(const Array& a, const Array& b, bool assume_unique = false);
Array setxor1d(const Array& a, const Array& b);
/// The index of the bin of each x among monotonic `bins` (right: bins closed on the
/// right); ValueError for bins neither increasing nor decreasing (waits for the device).
Array digitize(const Array& x, const Array& bins, bool right = false);
/// The covariance matrix of the variables (rows, or columns when !rowvar) of m and y,
/// divisor N - ddof (ddof unset: 1, or 0 when bias); squeezed as numpy's.
Array cov(const Array& m, const std::optional<Array>& y = std::nullopt, bool rowvar = true, bool bias = false,
          std::optional<int64_t> ddof = std::nullopt);
/// cov normalised to correlation coefficients, clipped to [-1, 1].
Array corrcoef(const Array& x, const std::optional<Array>& y = std::nullopt, bool rowvar = true);

}  // namespace loom
