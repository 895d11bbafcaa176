// The GPU's KernelBackend: NVRTC through kernel_cuda:: (kernel/cuda/gpu_kernel.cpp, or the
// kernel/no_cuda/ stubs that raise UnsupportedError). Shared by both builds.
#include "loom/kernel/gpu_kernel.h"
#include "loom/kernel/kernel_backend.h"
#include "loom/runtime/device.h"

namespace loom {
namespace {

void gpu_prepare(const ModuleState& m, const Device& d, const std::string& name) {
  kernel_cuda::user_function(m, d.index, name);
}

KernelAttributes gpu_attributes(const ModuleState& m, const Device& d, const std::string& name) {
  return kernel_cuda::user_function(m, d.index, name).attributes;
}

int64_t gpu_max_cooperative_blocks(const ModuleState& m, const Device& d, const std::string& name,
                                   int64_t block_threads, size_t dynamic_shared) {
  return kernel_cuda::max_cooperative_blocks(kernel_cuda::user_function(m, d.index, name), block_threads,
                                             dynamic_shared);
}

ModuleGlobal gpu_global(const ModuleState& m, const Device& d, const std::string& name) {
  return kernel_cuda::module_global(m, d.index, name);
}

// Equal GPUs (name and compute capability) share choices across processes.
void gpu_tuning_names(const Device& d, std::string& identity, std::string& label) {
  const DeviceProperties p = properties(d);
  const std::string sm = "sm_" + std::to_string(p.compute_capability_major) + std::to_string(p.compute_capability_minor);
  identity = p.name + " " + sm;
  label = d.str() + " " + p.name + " (" + sm + ")";
}

}  // namespace

const KernelBackend kGpuKernelBackend = {gpu_prepare, gpu_attributes, gpu_max_cooperative_blocks, gpu_global,
                                        gpu_tuning_names};

}  // namespace loom
