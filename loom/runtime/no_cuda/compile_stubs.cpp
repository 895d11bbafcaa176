// runtime/gpu_compile.h without CUDA: there is no NVRTC to compile with.
#include "loom/runtime/gpu_compile.h"
#include "loom/core/error.h"

namespace loom::gpu_runtime {

size_t compile_for_testing(const std::string&, const std::string&, int, const std::vector<std::string>&,
                           bool) {
  throw UnsupportedError("[compile] loom was built without CUDA: no NVRTC");
}

}  // namespace loom::gpu_runtime
