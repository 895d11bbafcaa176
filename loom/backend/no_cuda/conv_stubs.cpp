// Convolutions without CUDA: the op layer only reaches these for GPU arrays, which a build
// without CUDA cannot have; they still must link.
#include "loom/backend/conv.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {

void conv2d(const Array&, const Array&, const Array&, const Conv2dGeometry&) {
  throw UnsupportedError("[conv2d] loom was built without CUDA");
}
void conv2d_input_grad(const Array&, const Array&, const Array&, const Conv2dGeometry&) {
  throw UnsupportedError("[conv2d_input_grad] loom was built without CUDA");
}
void conv2d_weight_grad(const Array&, const Array&, const Array&, const Conv2dGeometry&) {
  throw UnsupportedError("[conv2d_weight_grad] loom was built without CUDA");
}
std::string conv_library(int) { return ""; }

}  // namespace loom::gpu_backend
