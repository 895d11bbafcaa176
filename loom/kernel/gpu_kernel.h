// The CUDA half of user kernels (loom/kernel/raw_module.h): compile a module's
// source with NVRTC for a device's architecture (through the compile cache), load it,
// describe a function (parameter sizes, limits) and launch it. Implemented in
// kernel/cuda/gpu_kernel.cpp (namespace kernel_cuda); the no-CUDA build's kernel/no_cuda/ stubs
// raise UnsupportedError.
#pragma once
#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "loom/kernel/param_types.h"
#include "loom/kernel/raw_module.h"

namespace loom {
struct ModuleState;
}

namespace loom::kernel_cuda {

struct LaunchLimits;

/// A function of a user module loaded on one GPU. Owned by the module's backend data.
struct UserFunction {
  const LaunchLimits* limits = nullptr;  // of its device
  void* function = nullptr;  // CUfunction
  int device = 0;
  KernelAttributes attributes;
  std::vector<size_t> param_offsets;
  bool params_known = false;  // the driver reported the parameter list (CUDA >= 12.4)
  std::shared_ptr<const KernelParamTypes> param_types;  // C types from the source or lowered name; null: unknown
  mutable std::atomic<size_t> dynamic_shared_set{48 * 1024};  // the function's current cap
  bool cooperative = false;  // its module names this_grid: launched with cuLaunchCooperativeKernel
};

/// What blocks and grids a GPU accepts.
struct LaunchLimits {
  Dim3 max_block, max_grid;
  int max_threads_per_block = 0;
  size_t max_shared_per_block_optin = 0;  // static + dynamic, after opting in
  int multiprocessors = 0;                 // SMs: a cooperative grid's limit is per SM times this
};
const LaunchLimits& launch_limits(int device);

/// Compiles (once, cached in memory and on disk) and loads (once per device) the module
/// on GPU `device`, and returns its function `name` (an extern "C" name or one of the name
/// expressions). Raises CompileError for bad source and ValueError for a missing name.
const UserFunction& user_function(const ModuleState& m, int device, const std::string& name);
/// Compiles for compute capability `arch` without a GPU; returns the name expressions'
/// lowered names, in order.
std::vector<std::string> compile_user_module(const ModuleState& m, int arch);
/// The module's PTX for virtual architecture compute_`arch` (0: the oldest NVRTC knows),
/// compiled now without a GPU and not cached: PTX is for reading, launches use CUBIN.
std::string user_module_ptx(const ModuleState& m, int arch);
/// The module's variable `name` on GPU `device` (cuModuleGetGlobal), compiling and loading
/// the module there if needed; ValueError when there is none.
ModuleGlobal module_global(const ModuleState& m, int device, const std::string& name);
/// Launches `f` on `stream`; raises its dynamic shared-memory cap first when asked for
/// more than 48 KiB. `params` point at each parameter's bytes.
void launch_user(const UserFunction& f, const char* name, Dim3 grid, Dim3 block, size_t shared_mem,
                 void* stream, void** params);
/// The most blocks of `block_threads` threads and `dynamic_shared` bytes of `f` resident on
/// its GPU at once (the occupancy calculator per SM times the SMs): a cooperative grid's limit.
int64_t max_cooperative_blocks(const UserFunction& f, int64_t block_threads, size_t dynamic_shared);
/// Device-to-device copy of `nbytes` on `stream` (autotune's scratch copies).
void copy_device_bytes(int device, void* dst, const void* src, size_t nbytes, void* stream);
/// Synchronous copies between host memory and GPU `device` (loom.driver's memcpy_*).
void copy_host_to_device(int device, void* dst, const void* src, size_t nbytes);
void copy_device_to_host(int device, void* dst, const void* src, size_t nbytes);

}  // namespace loom::kernel_cuda
