// CPU evals of the sorting family (ops/sorting.h owns the rules). Synchronous.
#pragma once
#include "loom/array/array.h"
#include "loom/ops/sorting.h"

namespace loom::cpu_backend {

/// `out` (contiguous, src's shape; src's dtype, or int64 when `indices`) = `src` (any
/// layout) sorted along its last axis, or the indices that sort it. Stable, NaN last.
void sort_last_axis(const Array& src, const Array& out, bool indices);
/// unique of the flattened `src` (any layout, size > 0); inverse is 1-d (the op reshapes).
UniqueArrays unique(const Array& src, bool want_index, bool want_inverse, bool want_counts,
                    bool equal_nan);
/// `out` (int64, contiguous, v's shape) = insertion points of `v` (contiguous, a's dtype)
/// in contiguous 1-d `a`, through `sorter` (contiguous int64, a's size) when valid().
/// Throws std::invalid_argument when a sorter index is out of range.
void searchsorted(const Array& a, const Array& v, const Array& sorter, bool right, const Array& out);

}  // namespace loom::cpu_backend
