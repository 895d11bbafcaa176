// The GPU backend's elementwise entry point (implemented in backend/cuda/elementwise.cpp,
// a stub throwing UnsupportedError in builds without CUDA).
#pragma once
#include "loom/backend/elementwise_call.h"

namespace loom::gpu_backend {

/// Enqueues `call` on the current stream of out's device: a kernel generated from the op
/// table for the operands' dtypes and layout class, compiled by NVRTC once and cached.
void elementwise(const ElementwiseCall& call);

}  // namespace loom::gpu_backend
