// Elementwise ops on a GPU in a build without CUDA: an explicit UnsupportedError.
#include <string>

#include "loom/backend/elementwise.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {

void elementwise(const ElementwiseCall& call) {
  throw UnsupportedError(std::string("[") + op_info(call.op).name + "] loom was built without CUDA");
}

}  // namespace loom::gpu_backend

namespace loom::gpu_backend {

void fused(const FusedCall&) { throw UnsupportedError("[fused] loom was built without CUDA"); }
uint64_t fused_runs_unfused() { return 0; }

}  // namespace loom::gpu_backend
