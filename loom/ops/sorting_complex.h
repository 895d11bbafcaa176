// Complex sorts and unique in NumPy's lexicographic order (ops/sorting_complex.cpp).
#pragma once
#include "loom/array/array.h"
#include "loom/backend/sorting.h"  // UniqueArrays

namespace loom::sorting_detail {

/// src (..., n) complex, any layout, size > 0: sorted along the last axis (src's dtype) or
/// the int64 indices that sort it; stable.
Array complex_sort_last(const Array& src, bool indices);

/// unique of a complex array of size > 0 (the outputs asked for), from its stable sort: a
/// value starts where the sorted value differs from the one before. NaNs are each their own
/// value, or, with equal_nan, all one (NumPy: every value holding a NaN counts as one).
UniqueArrays complex_unique(const Array& a, bool return_index, bool return_inverse, bool return_counts,
                            bool equal_nan);

}  // namespace loom::sorting_detail
