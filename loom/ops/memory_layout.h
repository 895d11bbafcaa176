// NumPy's questions about where an array's elements lie, and the layout conversions
// (ops/memory_layout.cpp): may_share_memory, shares_memory, isfortran, ascontiguousarray,
// asfortranarray. The queries read shapes, strides and addresses only: no device work.
#pragma once
#include "loom/array/array.h"

namespace loom {

/// Whether the byte ranges the two arrays span overlap (cheap; may say true for
/// interleaved views that share no element).
bool may_share_memory(const Array& a, const Array& b);
/// Whether some element of `a` and some element of `b` overlap in memory (exact: the
/// elements' byte ranges are compared).
bool shares_memory(const Array& a, const Array& b);
/// Whether `a` is Fortran-contiguous and not C-contiguous (NumPy's isfortran).
bool isfortran(const Array& a);
/// `a` itself when C-contiguous, else a C-ordered copy; 0-d becomes 1-d (NumPy).
Array ascontiguousarray(const Array& a);
/// `a` itself when Fortran-contiguous, else a Fortran-ordered copy (a view of a C-ordered
/// copy of a's transpose); 0-d becomes 1-d (NumPy).
Array asfortranarray(const Array& a);

}  // namespace loom
