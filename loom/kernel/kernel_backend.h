// What each kind of device does for a user module apart from launching (the
// "kernel_launch" primitive, kernel_launch.h): compile it and look a function up, describe
// a function, and name the device in autotune records. One table per device kind, as
// runtime/device_runtime.h has for memory and streams: the CPU kernel emulator's
// (kernel/emulator/emu_kernel_backend.cpp) and NVRTC's on a GPU
// (kernel/gpu_kernel_backend.cpp, over kernel/cuda/ or its kernel/no_cuda/ stubs).
#pragma once
#include <string>

#include "loom/kernel/raw_module.h"

namespace loom {

struct KernelBackend {
  /// Compiles (through the compile cache) and loads `m` for `d` if needed and looks
  /// `name` up: RawModule.get_function's compile_now. Raises CompileError for bad
  /// source, ValueError for a missing name, UnsupportedError where it cannot run.
  void (*prepare)(const ModuleState& m, const Device& d, const std::string& name);
  /// prepare(), then what the compiled function needs and allows on `d`.
  KernelAttributes (*attributes)(const ModuleState& m, const Device& d, const std::string& name);
  /// prepare(), then how many blocks of `block_threads` threads and `dynamic_shared` bytes
  /// can be resident on `d` at once: a cooperative launch's largest grid.
  int64_t (*max_cooperative_blocks)(const ModuleState& m, const Device& d, const std::string& name,
                                    int64_t block_threads, size_t dynamic_shared);
  /// The module's variable `name` on `d` (RawModule::get_global), loading the module.
  ModuleGlobal (*global)(const ModuleState& m, const Device& d, const std::string& name);
  /// How autotune records name `d`: `identity` is shared by equal devices (the record's
  /// key), `label` says which device it was ("gpu(0) NVIDIA H100 (sm_90)").
  void (*tuning_names)(const Device& d, std::string& identity, std::string& label);
};

namespace kernel_backend_detail {
extern const KernelBackend* const kTables[];  // by DeviceType (kernel_backend.cpp)
}  // namespace kernel_backend_detail

inline const KernelBackend& kernel_backend(const Device& d) {
  return *kernel_backend_detail::kTables[static_cast<int>(d.type)];
}

extern const KernelBackend kCpuKernelBackend;
extern const KernelBackend kGpuKernelBackend;

}  // namespace loom
