// Complex sorts in NumPy's lexicographic order (ops/sorting_complex.cpp).
#pragma once
#include "loom/array/array.h"

namespace loom::sorting_detail {

/// src (..., n) complex, any layout, size > 0: sorted along the last axis (src's dtype) or
/// the int64 indices that sort it; stable.
Array complex_sort_last(const Array& src, bool indices);

}  // namespace loom::sorting_detail
