// loom.random's GPU entry point in a build without CUDA.
#include "loom/backend/random.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {

void random_fill(const Array&, int, int, const loom_random_params&) {
  throw UnsupportedError("[random] loom was built without CUDA");
}

}  // namespace loom::gpu_backend
