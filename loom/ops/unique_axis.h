// numpy.unique(ar, axis=k): the distinct slices along an axis (ops/unique_axis.cpp).
#pragma once
#include <cstdint>

#include "loom/array/array.h"
#include "loom/backend/sorting.h"  // UniqueArrays

namespace loom::sorting_detail {

/// The slices of `a` along `axis`, each compared whole, in lexicographic order (the first
/// element most significant), with NumPy's outputs: the index of each one's first slice, the
/// inverse (one entry per slice) and the counts. A slice holding a NaN differs from every
/// other slice (NumPy compares the slices as records, where equal_nan does not apply).
UniqueArrays unique_along_axis(const Array& a, int64_t axis, bool return_index, bool return_inverse,
                               bool return_counts);

}  // namespace loom::sorting_detail
