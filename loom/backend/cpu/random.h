// CPU eval of loom.random's draws (kernels/loom_philox.cuh holds the generator, shared
// with the GPU so that both give the same bits).
#pragma once
#include "loom/array/array.h"
#include "loom/common/loom_philox.cuh"

namespace loom::cpu_backend {

/// Fills contiguous `out` with draw `kind` (loom_rng_uniform, ...) taking `words` 32-bit
/// words per element (1, 2 or 4); element i comes from block p.offset + i / (4 / words).
/// The split over threads follows blocks, so results never depend on the thread count.
void random_fill(const Array& out, int kind, int words, const loom_random_params& p);

}  // namespace loom::cpu_backend
