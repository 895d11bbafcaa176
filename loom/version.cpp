#include "loom/version.h"

#include "loom/backend/linalg.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/runtime/device.h"

namespace loom {

const char* version() { return LOOM_VERSION; }

BuildInfo build_info() {
  BuildInfo b;
  b.version = LOOM_VERSION;
  b.cuda = gpu_runtime::compiled();
#ifdef LOOM_CUDA_TOOLKIT_VERSION
  b.cuda_toolkit = LOOM_CUDA_TOOLKIT_VERSION;
#endif
  if (b.cuda) {
    b.cuda_runtime = gpu_runtime::runtime_version();
    b.driver = gpu_runtime::driver_version();
    b.nvrtc = gpu_runtime::nvrtc_version();
  }
  b.num_gpus = num_gpus();
  b.blas = cpu_blas_name();
  return b;
}

}  // namespace loom
