// The shape family's GPU entry points in a build without CUDA.
#include "loom/backend/shape_ops.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {

void take_rows(const Array&, const Array&, const Array&, int64_t, int64_t, int64_t) {
  throw UnsupportedError("[repeat] loom was built without CUDA");
}

}  // namespace loom::gpu_backend
