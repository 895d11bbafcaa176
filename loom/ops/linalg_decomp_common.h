// What the decomposition ops share (ops/linalg_decomp.cpp, ops/linalg_svd.cpp): NumPy's
// linalg dtypes and the contiguous (B, m, n) stacks the evals take.
#pragma once
#include <initializer_list>

#include "loom/array/array.h"

namespace loom::linalg_detail {

/// float32, float64, complex64 and complex128 stay; bool and integers compute in float64;
/// 16-bit floats raise.
DType compute_dtype(const char* op, DType t);
/// The conjugate transpose of the last two axes (the transpose for real a).
Array conj_transpose(const Array& a);
/// a (..., m, n) as a contiguous (B, m, n) stack in the compute dtype; *batch gets "...".
/// square: raise unless m == n.
Array matrix_stack(const char* op, const Array& a, Shape* batch, bool square);
/// batch + tail.
Shape with(const Shape& batch, std::initializer_list<int64_t> tail);

}  // namespace loom::linalg_detail
