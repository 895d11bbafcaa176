// GPU evals of the sorting family (contracts as backend/cpu/sorting.h). Implemented in
// backend/cuda/sorting.cpp (CUB radix sorts + NVRTC kernels of kernels/loom_sorting.cuh),
// stubbed in backend/no_cuda/sorting_stubs.cpp. Work is enqueued on the current stream
// of the arrays' device; only unique (its size) and a sorter check wait for the GPU.
#pragma once
#include "loom/array/array.h"
#include "loom/ops/sorting.h"

namespace loom::gpu_backend {

/// `out` (contiguous, src's shape; src's dtype, or int64 when `indices`) = `src` (any
/// layout) sorted along its last axis, or the indices that sort it. Stable, NaN last.
void sort_last_axis(const Array& src, const Array& out, bool indices);
/// unique of the flattened `src` (any layout, size > 0); inverse is 1-d (the op reshapes).
/// Synchronizes the stream once to learn the number of unique values.
UniqueArrays unique(const Array& src, bool want_index, bool want_inverse, bool want_counts,
                    bool equal_nan);
/// `out` (int64, contiguous, v's shape) = insertion points of `v` (contiguous, a's dtype)
/// in contiguous 1-d `a`, through `sorter` (contiguous int64, a's size) when valid().
/// With a sorter, waits for the GPU once to check its indices (std::invalid_argument).
void searchsorted(const Array& a, const Array& v, const Array& sorter, bool right, const Array& out);

}  // namespace loom::gpu_backend
