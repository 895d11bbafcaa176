// Pooling without CUDA: the op layer only reaches these for GPU arrays, which a build
// without CUDA cannot have; they still must link.
#include "loom/backend/pool.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {

void max_pool2d(const Array&, const Array&, const Pool2dGeometry&) {
  throw UnsupportedError("[max_pool2d] loom was built without CUDA");
}
void max_pool2d_grad(const Array&, const Array&, const Array&, const Array&, const Pool2dGeometry&) {
  throw UnsupportedError("[max_pool2d_grad] loom was built without CUDA");
}
void avg_pool2d(const Array&, const Array&, const Pool2dGeometry&) {
  throw UnsupportedError("[avg_pool2d] loom was built without CUDA");
}
void avg_pool2d_grad(const Array&, const Array&, const Pool2dGeometry&) {
  throw UnsupportedError("[avg_pool2d_grad] loom was built without CUDA");
}

}  // namespace loom::gpu_backend
