// The shape family's contract (DESIGN.md §2). Its ops are views or copyto calls, except
// repeat with unequal counts, which gathers whole rows: that eval's signature, written
// once, and its record. CPU eval: backend/cpu/shape_ops.cpp; GPU eval:
// backend/cuda/shape_ops.cpp (on the current stream); stub: backend/no_cuda/evals.cpp.
#pragma once
#include <cstdint>

#include "loom/array/array.h"
#include "loom/backend/eval_list.h"

namespace loom {

/// Row gather: dst (contiguous, (outer, m, inner), m = idx.size()) gets
/// dst[o, j, :] = src[o, idx[j], :], src contiguous (outer, n, inner) of dst's dtype;
/// idx: contiguous int64 on dst's device, every entry in [0, n) (the caller checks).
using TakeRowsFn = void(const Array& src, const Array& idx, const Array& dst, int64_t outer, int64_t n,
                        int64_t inner);

// Its evals, declared in cpu_backend and gpu_backend (backend/eval_list.h); without CUDA
// backend/no_cuda/evals.cpp defines the GPU ones as stubs from this list.
#define LOOM_SHAPE_OPS_EVALS(X) \
  X(TakeRowsFn, take_rows, 6)
LOOM_DECLARE_EVALS(LOOM_SHAPE_OPS_EVALS)

}  // namespace loom
