// The GPU contract of the shape family (implemented in backend/cuda/shape_ops.cpp, stubbed
// in backend/no_cuda/shape_ops_stubs.cpp).
#pragma once
#include <cstdint>

#include "loom/array/array.h"

namespace loom::gpu_backend {

/// Row gather on the current stream: dst (contiguous, (outer, m, inner), m = idx.size())
/// gets dst[o, j, :] = src[o, idx[j], :], src contiguous (outer, n, inner) of dst's dtype;
/// idx: contiguous int64 on the same GPU, every entry in [0, n) (the caller checks).
void take_rows(const Array& src, const Array& idx, const Array& dst, int64_t outer, int64_t n,
               int64_t inner);

}  // namespace loom::gpu_backend
