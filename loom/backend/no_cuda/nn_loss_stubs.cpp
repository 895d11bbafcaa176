// Cross-entropy without CUDA: the op layer only reaches these for GPU arrays, which a
// build without CUDA cannot have; they still must link.
#include "loom/backend/nn_loss.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {

void cross_entropy(const Array&, const Array&, const Array&, const Array&) {
  throw UnsupportedError("[cross_entropy] loom was built without CUDA");
}
void cross_entropy_grad(const Array&, const Array&, const Array&, const Array&, const Array&) {
  throw UnsupportedError("[cross_entropy_grad] loom was built without CUDA");
}

}  // namespace loom::gpu_backend
