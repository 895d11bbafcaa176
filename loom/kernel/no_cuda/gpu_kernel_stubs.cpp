// User kernels without the CUDA backend: nothing can be compiled or launched on a GPU.
#include "loom/kernel/gpu_kernel.h"
#include "loom/kernel/kernel_launch.h"
#include "loom/core/error.h"

namespace loom::kernel_cuda {
namespace {
[[noreturn]] void unsupported(const char* what) {
  throw UnsupportedError(std::string("[") + what + "] this loom was built without CUDA: CUDA C kernels cannot be compiled or run on a GPU");
}
}  // namespace

const LaunchLimits& launch_limits(int) { unsupported("RawKernel"); }
const UserFunction& user_function(const ModuleState&, int, const std::string&) { unsupported("RawKernel"); }
std::vector<std::string> compile_user_module(const ModuleState&, int) { unsupported("RawModule.compile"); }
std::string user_module_ptx(const ModuleState&, int) { unsupported("RawModule.ptx"); }
void launch_user(const UserFunction&, const char*, Dim3, Dim3, size_t, void*, void**) { unsupported("RawKernel"); }
int64_t max_cooperative_blocks(const UserFunction&, int64_t, size_t) { unsupported("RawKernel.max_cooperative_blocks"); }
void launch_kernel(const Kernel&, const Device&, const LaunchConfig&, const std::vector<KernelArg>&) {
  unsupported("RawKernel");
}
ModuleGlobal module_global(const ModuleState&, int, const std::string&) { unsupported("RawModule.get_global"); }
void copy_device_bytes(int, void*, const void*, size_t, void*) { unsupported("RawKernel"); }
void copy_host_to_device(int, void*, const void*, size_t) { unsupported("loom.driver.memcpy_htod"); }
void copy_device_to_host(int, void*, const void*, size_t) { unsupported("loom.driver.memcpy_dtoh"); }

}  // namespace loom::kernel_cuda
