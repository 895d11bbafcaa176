// The GPU backend's entry point for loom.random (implemented in backend/cuda/random.cpp,
// stubbed in backend/no_cuda/random_stubs.cpp).
#pragma once
#include "loom/array/array.h"
#include "loom/common/loom_philox.cuh"

namespace loom::gpu_backend {

/// Same contract as cpu_backend::random_fill, for a contiguous GPU array: enqueued on the
/// current stream of out's device, with the same bits as the CPU.
void random_fill(const Array& out, int kind, int words, const loom_random_params& p);

}  // namespace loom::gpu_backend
