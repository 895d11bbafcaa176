// Helpers shared by linalg.cpp and linalg_einsum.cpp (not public): views that reshape or
// permute without copying when the strides allow it, and the batched GEMM driver.
#pragma once
#include <vector>

#include "loom/array/array.h"

namespace loom::linalg_detail {

/// `x` with shape `shape` (same size): a view when the strides allow it, else a copy.
Array reshape(const Array& x, const Shape& shape);
/// The view of `x` with its axes in the order `axes` (a permutation).
Array permute(const Array& x, const std::vector<int>& axes);
/// A view of `x` broadcast to `shape` (stride 0 along broadcast dimensions).
Array broadcast_view(const Array& x, const Shape& shape, const char* op);
/// matmul of (B..., m, k) and (B..., k, n) operands of one dtype and device into contiguous
/// `out` (B..., m, n); batch dims already broadcast (views), k >= 1. Copies an operand only
/// when no BLAS layout fits it.
void gemm_into(const Array& a, const Array& b, const Array& out);
/// Sums `x` over its last axis (through a product with a ones vector): shape x.shape[:-1].
Array sum_last_axis(const Array& x);

}  // namespace loom::linalg_detail
