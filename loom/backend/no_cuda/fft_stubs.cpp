// FFTs without CUDA: the op layer only reaches these for GPU arrays, which a build without
// CUDA cannot have; they still must link. ops/fft.cpp puts the op's name in place of "[fft]".
#include "loom/backend/fft.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {

void fft_c2c(const Array&, const Array&, bool) { throw UnsupportedError("[fft] loom was built without CUDA"); }
void fft_r2c(const Array&, const Array&) { throw UnsupportedError("[fft] loom was built without CUDA"); }
void fft_c2r(const Array&, const Array&) { throw UnsupportedError("[fft] loom was built without CUDA"); }

}  // namespace loom::gpu_backend
