// Creation and conversion evals of a build without CUDA: each raises UnsupportedError.
#include "loom/backend/creation.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {
namespace {

[[noreturn]] void no_cuda(const char* fn) {
  throw UnsupportedError(std::string("[") + fn + "] loom was built without CUDA");
}

}  // namespace

void fill(const Array&, const Scalar&) { no_cuda("fill"); }
void arange(const Array&, const Scalar&, const Scalar&) { no_cuda("arange"); }
void linspace(const Array&, double, double, double, bool) { no_cuda("linspace"); }
void eye(const Array&, int64_t) { no_cuda("eye"); }
void convert(const Array&, const Array&) { no_cuda("convert"); }
void copy_from_host(const HostView&, const Array&) { no_cuda("from_host"); }

}  // namespace loom::gpu_backend
