// The sorting family's GPU entry points in a build without CUDA.
#include "loom/backend/sorting.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {
namespace {

[[noreturn]] void no_cuda(const char* fn) {
  throw UnsupportedError(std::string("[") + fn + "] loom was built without CUDA");
}

}  // namespace

void sort_last_axis(const Array&, const Array&, bool) { no_cuda("sort"); }
UniqueArrays unique(const Array&, bool, bool, bool, bool) { no_cuda("unique"); }
void check_sorter(const Array&, const Array&) { no_cuda("searchsorted"); }
void searchsorted(const Array&, const Array&, const Array&, bool, const Array&) { no_cuda("searchsorted"); }
void select_ranks(const Array&, const Array&, const Array&) { no_cuda("select_ranks"); }

}  // namespace loom::gpu_backend
