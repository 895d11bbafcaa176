// Build information: version and which backends were compiled in.
#pragma once
#include <string>

namespace loom {

/// "0.1.0"
const char* version();
struct BuildInfo {
  std::string version;
  bool cuda = false;             // built with the CUDA backend
  std::string cuda_toolkit;      // toolkit version loom was built against
  std::string cuda_runtime;      // runtime version in use
  std::string driver;            // driver API version, "" without a driver
  std::string nvrtc;
  int num_gpus = 0;
  std::string blas;              // CPU BLAS for float products: "openblas", "blas" or "none"
};
BuildInfo build_info();

}  // namespace loom
