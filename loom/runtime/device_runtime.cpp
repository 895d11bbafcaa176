// The per-kind table of device_runtime(): the one place that maps a DeviceType to its
// runtime. Constant-initialised (addresses of constants), so usable during static init.
#include "loom/runtime/device_runtime.h"

namespace loom::device_runtime_detail {

// In DeviceType order: cpu, cuda.
static_assert(static_cast<int>(DeviceType::cpu) == 0 && static_cast<int>(DeviceType::cuda) == 1);
const DeviceRuntime* const kTables[] = {&kCpuDeviceRuntime, &kGpuDeviceRuntime};

}  // namespace loom::device_runtime_detail
