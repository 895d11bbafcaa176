// The CPU kernel emulator (DESIGN.md §4): CUDA C kernels of a RawModule compiled by the
// host C++ compiler against loom_cuda_emu.h, loaded with dlopen, and run block by block
// over the thread pool. Internal: Kernel::launch calls launch() for CPU arguments.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "loom/kernel/raw_module.h"

#define LOOM_EMU_ABI_ONLY
#include "loom/backend/cpu/emulator/loom_cuda_emu.h"
#undef LOOM_EMU_ABI_ONLY

namespace loom {
struct ModuleState;
}

namespace loom::cpu_emulator {

using EntryFn = void (*)(void** args, loom_emu::ThreadCtx* ctx);

/// One kernel of a loaded module.
struct EmuFunction {
  std::string name;
  EntryFn block = nullptr;   // runs every thread of a block as a loop
  EntryFn thread = nullptr;  // runs one thread (a fiber, for kernels with barriers)
  std::vector<size_t> param_sizes;
  bool uses_barrier = false;  // the source may reach __syncthreads from this kernel
  // Stack (stack_usage.h): the deepest chain of frames of one thread (0 when unknown),
  // what a fiber running one thread gets, and what the block loop needs (it runs on a
  // fiber stack of that size when the worker's own stack may not do).
  size_t local_bytes = 0;
  size_t thread_stack = 0;
  size_t block_stack = 0;
  size_t static_shared_bytes = 0;  // an upper bound: the module's thread-local (TLS) segment
};

/// The kernel `name` of module `m`, compiling (through the compile cache) and loading the
/// module on first use. Raises CompileError (bad source), UnsupportedError (a CUDA feature
/// the emulator lacks, naming it and the line) or ValueError (no such kernel).
const EmuFunction& function(const ModuleState& m, const std::string& name);

/// Runs `f` synchronously over `grid` blocks of `block` threads with `shared_mem` bytes of
/// dynamic shared memory; `args` point at each packed parameter. Errors in the kernel
/// (a divergent barrier, __trap) raise RuntimeError naming the kernel.
void run(const EmuFunction& f, Dim3 grid, Dim3 block, size_t shared_mem, void** args);

/// Kernel::attributes for cpu(): the limits the emulator enforces and what it knows of
/// the compiled kernel (compiling it if needed).
KernelAttributes attributes(const ModuleState& m, const std::string& name);

/// Kernel::launch for CPU arguments: checks the arguments and configuration, then run().
void launch(const ModuleState& m, const std::string& name, const LaunchConfig& cfg,
            const std::vector<KernelArg>& args);

/// Largest dynamic shared memory a CPU launch may ask for: an H100's opt-in limit, so a
/// launch that works here fits there too (227 KiB).
constexpr size_t kMaxDynamicShared = 227 * 1024;

}  // namespace loom::cpu_emulator
