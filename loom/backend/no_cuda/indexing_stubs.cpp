// The indexing family in a build without CUDA: every entry point raises UnsupportedError.
#include "loom/backend/indexing.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {
namespace {

[[noreturn]] void no_cuda(const char* fn) {
  throw UnsupportedError(std::string("[") + fn + "] loom was built without CUDA");
}

}  // namespace

void index_offsets(const IndexArrays&, const Array&) { no_cuda("getitem"); }
void gather(const Array&, const Array&, const IndexLayout&, const Array&) { no_cuda("getitem"); }
void gather_indexed(const Array&, const IndexArrays&, const Array&, const Array&) { no_cuda("getitem"); }
void scatter(const Array&, const Array&, const IndexLayout&, const Array&, ScatterMode) {
  no_cuda("setitem");
}
Array nonzero_starts(const Array&) { no_cuda("nonzero"); }
void nonzero(const Array&, const Array&, const Array&) { no_cuda("nonzero"); }

}  // namespace loom::gpu_backend
