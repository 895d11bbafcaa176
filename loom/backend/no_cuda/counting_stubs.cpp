// The counting family's GPU entry points in a build without CUDA.
#include "loom/backend/counting.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {
namespace {

[[noreturn]] void no_cuda(const char* fn) {
  throw UnsupportedError(std::string("[") + fn + "] loom was built without CUDA");
}

}  // namespace

void minmax(const Array&, const Array&) { no_cuda("minmax"); }
void bincount(const Array&, const Array&, const Array&) { no_cuda("bincount"); }
void histogram(const Array&, const Array&, const Array&, const HistogramParams&, const Array&) { no_cuda("histogram"); }

}  // namespace loom::gpu_backend
