// Kernel::launch for CPU arguments: the same argument checks as on a GPU (PackedArgs
// against the compiled parameter sizes), limits of a current NVIDIA GPU (so a launch
// that runs here runs there), then a synchronous run, like every CPU op.
#include <algorithm>
#include <stdexcept>

#include "loom/backend/cpu/emulator/emulator.h"
#include "loom/backend/cpu/emulator/stack_usage.h"
#include "loom/error.h"
#include "loom/kernel/kernel_args.h"
#include "loom/kernel/module_state.h"

namespace loom::cpu_emulator {
namespace {

[[noreturn]] void config_error(const std::string& name, const std::string& msg) {
  throw std::invalid_argument("[RawKernel " + name + "] " + msg);
}

// block="auto" on the CPU: nothing to time (blocks run in parallel whatever their size);
// a common shape that fits every GPU.
Dim3 auto_block(Dim3 extent) {
  if (extent.z > 1) return Dim3(8, 8, 4);
  if (extent.y > 1) return Dim3(16, 16, 1);
  return Dim3(256, 1, 1);
}

constexpr int kMaxThreadsPerBlock = 1024;

// A thread whose locals need more stack than the emulator gives: refused before running
// (a guard page would stop it, but as a crash). GPUs allow 512 KiB of local memory.
void check_stack(const EmuFunction& f) {
  const size_t need = std::max(f.thread_stack, f.block_stack);
  if (need <= kMaxFiberStack) return;
  throw UnsupportedError("[RawKernel " + f.name + "] needs about " + std::to_string(need >> 20) +
                         " MiB of stack per thread (its local variables: " + std::to_string(f.local_bytes) +
                         " bytes); the CPU kernel emulator gives a thread at most " +
                         std::to_string(kMaxFiberStack >> 20) + " MiB (a GPU at most 512 KiB of local memory)");
}

}  // namespace

KernelAttributes attributes(const ModuleState& m, const std::string& name) {
  const EmuFunction& f = function(m, name);
  KernelAttributes a;
  a.max_threads_per_block = kMaxThreadsPerBlock;
  a.num_regs = 0;
  a.static_shared_bytes = f.static_shared_bytes;
  a.max_dynamic_shared_bytes = kMaxDynamicShared;
  a.local_size_bytes = f.local_bytes;
  a.param_sizes = f.param_sizes;
  return a;
}

void launch(const ModuleState& m, const std::string& name, const LaunchConfig& cfg,
            const std::vector<KernelArg>& args) {
  const EmuFunction& f = function(m, name);
  kernel_detail::PackedArgs packed(name, args, f.param_sizes, true);
  check_stack(f);
  Dim3 grid = cfg.grid, block = cfg.block;
  if (cfg.auto_block) {
    block = auto_block(cfg.grid);
    grid = Dim3((grid.x + block.x - 1) / block.x, (grid.y + block.y - 1) / block.y, (grid.z + block.z - 1) / block.z);
  }
  const Dim3 max_block(1024, 1024, 64), max_grid(2147483647u, 65535, 65535);
  if (block.x == 0 || block.y == 0 || block.z == 0) config_error(name, "block " + block.str() + " has a zero dimension");
  if (block.x > max_block.x || block.y > max_block.y || block.z > max_block.z)
    config_error(name, "block " + block.str() + " exceeds the largest block dimensions " + max_block.str() +
                           " of the CPU kernel emulator (those of current GPUs)");
  if (block.count() > kMaxThreadsPerBlock)
    config_error(name, "block " + block.str() + " has " + std::to_string(block.count()) +
                           " threads; the CPU kernel emulator, like current GPUs, runs at most 1024 threads per block");
  if (grid.x > max_grid.x || grid.y > max_grid.y || grid.z > max_grid.z)
    config_error(name, "grid " + grid.str() + " exceeds the largest grid " + max_grid.str() + " of the CPU kernel emulator");
  if (cfg.shared_mem > kMaxDynamicShared)
    config_error(name, "asks for " + std::to_string(cfg.shared_mem) + " bytes of dynamic shared memory; the CPU "
                           "kernel emulator allows at most " + std::to_string(kMaxDynamicShared) +
                           " (an H100's opt-in limit per block)");
  if (grid.count() == 0) return;
  run(f, grid, block, cfg.shared_mem, packed.pointers());
}

}  // namespace loom::cpu_emulator
