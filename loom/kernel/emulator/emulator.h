// The CPU kernel emulator (DESIGN.md §4): CUDA C kernels of a RawModule compiled by the
// host C++ compiler against loom_cuda_emu.h, loaded with dlopen, and run block by block
// over the thread pool. Internal: Kernel::launch calls launch() for CPU arguments.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "loom/kernel/raw_module.h"

#define LOOM_EMU_ABI_ONLY
#include "loom/kernel/emulator/loom_cuda_emu.h"
#undef LOOM_EMU_ABI_ONLY

namespace loom {
struct ModuleState;
}

namespace loom::cpu_emulator {

using EntryFn = void (*)(void** args, loom_emu::ThreadCtx* ctx);

/// A debug-mode library (emu_debug.cpp): what the executor needs to fill its `__shared__`
/// variables with junk and to name the source line of a failed bounds check.
struct DebugLibrary {
  void* handle = nullptr;
  void* (*tls_anchor)() = nullptr;  // touches the library's thread-local storage
  size_t tls_size = 0;              // bytes of that storage (PT_TLS p_memsz); 0: none
  std::shared_ptr<const std::string> bytes;  // the library, for addr2line on a failure
};

/// One kernel of a loaded module.
struct EmuFunction {
  std::string name;
  EntryFn block = nullptr;   // runs every thread of a block as a loop
  EntryFn thread = nullptr;  // runs one thread (a fiber, for kernels with barriers)
  std::vector<size_t> param_sizes;
  bool uses_barrier = false;  // the source may reach __syncthreads from this kernel
  // A kernel with barriers whose source gives a whole-block form (emu_source.h): its block
  // entry runs the block's threads region by region, so it needs no fibers, except in debug
  // mode (random thread orders) or under LOOM_EMULATOR_FISSION=0.
  bool whole_block = false;
  bool cooperative = false;   // it names cooperative groups' this_grid: every block runs at once (executor.cpp)
  // Stack (stack_usage.h): the deepest chain of frames of one thread (0 when unknown),
  // what a fiber running one thread gets, and what the block loop needs (it runs on a
  // fiber stack of that size when the worker's own stack may not do).
  size_t local_bytes = 0;
  size_t thread_stack = 0;
  size_t block_stack = 0;
  size_t static_shared_bytes = 0;  // its __shared__ variables' bytes (shared_usage.h)
  int max_threads = 0;             // its __launch_bounds__' threads per block; 0: none
  // Debug-mode functions only:
  std::shared_ptr<const DebugLibrary> debug;
  std::vector<std::string> pointer_params;  // each parameter's name if it is a checked pointer, else ""
};

/// The kernel `name` of module `m`, compiling (through the compile cache) and loading the
/// module on first use. Raises CompileError (bad source), UnsupportedError (a CUDA feature
/// the emulator lacks, naming it and the line) or ValueError (no such kernel). With
/// `debug`, the module's debug-mode build (a second compile of the same source, with
/// bounds-checked pointer parameters and debug information; loaded on first use).
const EmuFunction& function(const ModuleState& m, const std::string& name, bool debug = false);

/// Module `m`'s variable `name` at namespace scope (a `__device__` or `__constant__` one, by
/// its unmangled name) in its loaded normal build, compiling and loading it if needed; ValueError
/// when there is none. Debug-mode launches run a second build with its own copy of each variable.
ModuleGlobal global(const ModuleState& m, const std::string& name);

/// What a debug-mode launch adds (LOOM_EMULATOR_DEBUG=1 or LaunchConfig::debug).
struct DebugLaunch {
  std::vector<loom_emu::ArgRange> ranges;  // one per argument; checked only for loom arrays
  std::vector<const char*> data;           // each array argument's data pointer (offsets count from it)
  std::vector<std::string> what;           // "a 100-element float32 array"
  std::vector<size_t> itemsize;
  uint64_t seed = 0;                       // of the thread shuffles
};

/// Runs `f` synchronously over `grid` blocks of `block` threads with `shared_mem` bytes of
/// dynamic shared memory; `args` point at each packed parameter. Errors in the kernel
/// (a divergent barrier, __trap) raise RuntimeError naming the kernel.
///
/// With `debug` (and `f` from a debug build), bugs that a GPU would hide or show only at
/// random show up on the CPU: the threads of a block run in a fresh random order between
/// barriers (a barrier-free kernel runs its threads one by one in a random order), shared
/// memory (dynamic and static) is filled with 0xFF bytes at each block start (reads of
/// unwritten shared memory give NaN or -1), and an access through a pointer parameter
/// outside the loom array passed for it raises IndexError (std::out_of_range) naming the
/// kernel, the source line, the argument, the thread and the block.
void run(const EmuFunction& f, Dim3 grid, Dim3 block, size_t shared_mem, void** args,
         const DebugLaunch* debug = nullptr);

/// Debug mode (emu_debug.cpp): fills the calling thread's copy of the library's static
/// `__shared__` variables (its thread-local storage) with junk, keeping the running
/// thread's context pointer.
void fill_static_shared(const DebugLibrary& lib);

/// Debug mode: the message of a failed bounds check recorded in `ctx` (without the kernel
/// label, thread or block): "out-of-bounds access at line 4 of the kernel source: byte
/// offset 400 (element 100) of a 100-element float32 array argument 0 (a)".
std::string describe_fault(const EmuFunction& f, const loom_emu::ThreadCtx& ctx, const DebugLaunch& d);

/// Debug mode: the kernel source line of a fault (a signal) at `pc`, or of the innermost of
/// `frames` (return addresses, innermost first) inside the library; 0 when it cannot tell.
int fault_source_line(const DebugLibrary& lib, void* pc, void* const* frames, int nframes);

/// The bytes of a loaded library's thread-local segment (PT_TLS), where its `__shared__`
/// variables live; 0 when it has none (emu_debug.cpp).
size_t tls_segment_bytes(void* handle);

/// Debug mode: the library's facts (TLS size, anchor) after dlopen.
std::shared_ptr<DebugLibrary> open_debug_library(void* handle, std::shared_ptr<const std::string> bytes);

/// Kernel::attributes for cpu(): the limits the emulator enforces and what it knows of
/// the compiled kernel (compiling it if needed).
KernelAttributes attributes(const ModuleState& m, const std::string& name);

/// Kernel::launch for CPU arguments: checks the arguments and configuration, then run().
void launch(const ModuleState& m, const std::string& name, const LaunchConfig& cfg,
            const std::vector<KernelArg>& args);

/// Largest dynamic shared memory a CPU launch may ask for: an H100's opt-in limit, so a
/// launch that works here fits there too (227 KiB).
constexpr size_t kMaxDynamicShared = 227 * 1024;
/// Cooperative launches (kernels that use grid.sync()) run every block at once, each on an
/// OS thread of its own with a fiber per thread: at most this many blocks and threads.
constexpr size_t kMaxCooperativeBlocks = 256;
constexpr size_t kMaxCooperativeThreads = 16384;
/// The most blocks of `threads_per_block` threads a cooperative launch may have on cpu()
/// (Numba's max_cooperative_grid_blocks).
size_t max_cooperative_blocks(size_t threads_per_block);

}  // namespace loom::cpu_emulator
