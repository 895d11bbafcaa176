#include "loom/version.h"

#include "loom/backend/cpu/linalg.h"
#include "loom/backend/gpu.h"
#include "loom/device.h"

namespace loom {

const char* version() { return LOOM_VERSION; }

BuildInfo build_info() {
  BuildInfo b;
  b.version = LOOM_VERSION;
  b.cuda = gpu_backend::compiled();
#ifdef LOOM_CUDA_TOOLKIT_VERSION
  b.cuda_toolkit = LOOM_CUDA_TOOLKIT_VERSION;
#endif
  if (b.cuda) {
    b.cuda_runtime = gpu_backend::runtime_version();
    b.driver = gpu_backend::driver_version();
    b.nvrtc = gpu_backend::nvrtc_version();
  }
  b.num_gpus = num_gpus();
  b.blas = cpu_backend::blas_name();
  return b;
}

}  // namespace loom
