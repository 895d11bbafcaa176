// The indexing family in a build without CUDA: every entry point raises UnsupportedError.
#include "loom/backend/gpu_indexing.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {
namespace {

[[noreturn]] void no_cuda(const char* fn) {
  throw UnsupportedError(std::string("[") + fn + "] loom was built without CUDA");
}

}  // namespace

Array index_offsets(const IndexArrays&, int64_t, IndexCheck&) { no_cuda("getitem"); }
void gather(const Array&, const Array&, const IndexLayout&, const Array&) { no_cuda("getitem"); }
void scatter(const Array&, const Array&, const IndexLayout&, const Array&, ScatterMode) {
  no_cuda("setitem");
}
Array nonzero(const Array&) { no_cuda("nonzero"); }
int64_t count_nonzero(const Array&) { no_cuda("count_nonzero"); }

}  // namespace loom::gpu_backend
