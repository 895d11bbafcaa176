// Matrix products without CUDA: the op layer only reaches this for GPU arrays, which a
// build without CUDA cannot have; it still must link.
#include "loom/backend/linalg.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {

void gemm(const Array&, const Array&, const Array&, bool) {
  throw UnsupportedError("[matmul] loom was built without CUDA");
}

void herk(const Array&, const Array&, const Array&, bool) {
  throw UnsupportedError("[matmul] loom was built without CUDA");
}

}  // namespace loom::gpu_backend
