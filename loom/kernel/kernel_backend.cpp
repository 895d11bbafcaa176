// The per-kind table of kernel_backend(): the one place that maps a DeviceType to what
// compiles and describes user kernels there.
#include "loom/kernel/kernel_backend.h"

namespace loom::kernel_backend_detail {

static_assert(static_cast<int>(DeviceType::cpu) == 0 && static_cast<int>(DeviceType::cuda) == 1);
const KernelBackend* const kTables[] = {&kCpuKernelBackend, &kGpuKernelBackend};

}  // namespace loom::kernel_backend_detail
