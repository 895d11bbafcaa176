// The random family's contract (DESIGN.md §2): the eval behind every loom.random draw and
// its primitive record. loom/ops/random.cpp owns the rules and maps each distribution to
// (kind, words per element, parameters). common/loom_philox.cuh holds the generator, shared
// by both backends so that they give the same bits. CPU: backend/cpu/random.cpp; GPU:
// backend/cuda/random.cpp, enqueued on the current stream of out's device; stub in
// backend/no_cuda/evals.cpp.
#pragma once
#include "loom/array/array.h"
#include "loom/array/rebind.h"
#include "loom/backend/eval_list.h"
#include "loom/common/loom_philox.cuh"

namespace loom {

/// Fills contiguous `out` with draw `kind` (loom_rng_uniform, ...) taking `words` 32-bit
/// words per element (1, 2 or 4); element i comes from block p.offset + i / (4 / words).
/// The CPU's split over threads follows blocks, so results never depend on the thread count.
using RandomFillFn = void(const Array& out, int kind, int words, const loom_random_params& p);

template <>
struct PlainTraceArg<loom_random_params> : std::true_type {};

// Its evals, declared in cpu_backend and gpu_backend (backend/eval_list.h); without CUDA
// backend/no_cuda/evals.cpp defines the GPU ones as stubs from this list.
#define LOOM_RANDOM_EVALS(X)      \
  X(RandomFillFn, random_fill, 4)
LOOM_DECLARE_EVALS(LOOM_RANDOM_EVALS)

}  // namespace loom
