// Reductions in a build without CUDA: no GPU arrays can exist, but the entry points must link.
#include "loom/backend/reduce.h"
#include <string>

#include "loom/core/error.h"

namespace loom::gpu_backend {

void reduce(const Array&, const ReduceGeometry&, ReduceKind kind, const ReduceParams&, const Array&) {
  throw UnsupportedError(std::string("[") + reduce_kind_name(kind) + "] loom was built without CUDA");
}

void scan(const Array&, const ReduceGeometry&, ScanKind kind, const Array&) {
  throw UnsupportedError(kind == ScanKind::sum ? "[cumsum] loom was built without CUDA"
                                               : "[cumprod] loom was built without CUDA");
}

}  // namespace loom::gpu_backend
