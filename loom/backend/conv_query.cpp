// conv_backend (backend/conv.h): which library each device's convolution evals use.
#include "loom/backend/conv.h"
#include "loom/backend/linalg.h"

namespace loom {

std::string conv_backend(const Device& device) {
  if (device.is_cpu()) return std::string("im2col+") + cpu_blas_name();
  return gpu_backend::conv_library(device.index);
}

}  // namespace loom
