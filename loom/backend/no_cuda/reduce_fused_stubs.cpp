// jit's fused reductions in a build without CUDA: no GPU arrays can exist, but the entry
// point must link.
#include "loom/backend/reduce.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {

void fused_reduce(const FusedReduceCall&) { throw UnsupportedError("[fused_reduce] loom was built without CUDA"); }

}  // namespace loom::gpu_backend
