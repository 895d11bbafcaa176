// Kernel::launch for CPU arguments: the same argument checks as on a GPU (PackedArgs
// against the compiled parameter sizes), limits of a current NVIDIA GPU (so a launch
// that runs here runs there), then a synchronous run, like every CPU op.
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "loom/kernel/emulator/emulator.h"
#include "loom/kernel/emulator/stack_usage.h"
#include "loom/core/error.h"
#include "loom/kernel/kernel_args.h"
#include "loom/kernel/module_state.h"
#include "loom/core/shape.h"

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

// Static and dynamic shared memory of a block together: an H100's opt-in limit.
constexpr size_t kMaxSharedPerBlock = kMaxDynamicShared;

// CUDA's limit of local memory per thread (every GPU since compute capability 2.0).
constexpr size_t kMaxLocalPerThread = 512 * 1024;
// g++'s frames of a thread hold a little more than its locals (saved registers, the
// emulator's entry point): that much over the limit is let through, so a kernel a GPU runs
// is never refused.
constexpr size_t kLocalSlack = 1024;

// A thread whose locals need more stack than the emulator gives: refused before running
// (a guard page would stop it, but as a crash); refused too over CUDA's limit of local
// memory, which a GPU refuses at launch (NVRTC compiles such a kernel).
void check_stack(const EmuFunction& f) {
  if (f.local_bytes > kMaxLocalPerThread + kLocalSlack)
    throw CudaError("[RawKernel " + f.name + "] needs about " + std::to_string(f.local_bytes) +
                        " bytes of local memory per thread (its local variables), more than CUDA's limit of " +
                        std::to_string(kMaxLocalPerThread) + " (512 KiB): a GPU refuses to launch it "
                        "(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: too many resources requested for launch); "
                        "the CPU kernel emulator refuses it too. Put large arrays in global memory",
                    701);
  const size_t need = std::max(f.thread_stack, f.block_stack);
  if (need <= kMaxFiberStack) return;
  throw UnsupportedError("[RawKernel " + f.name + "] needs about " + std::to_string(need >> 20) +
                         " MiB of stack per thread (its local variables: " + std::to_string(f.local_bytes) +
                         " bytes); the CPU kernel emulator gives a thread at most " +
                         std::to_string(kMaxFiberStack >> 20) + " MiB (a GPU at most 512 KiB of local memory)");
}

// LOOM_EMULATOR_DEBUG=1 (anything but "" and "0"), read at each launch so a test or a
// session can switch it on and off.
bool debug_env() {
  const char* e = getenv("LOOM_EMULATOR_DEBUG");
  return e && *e && strcmp(e, "0") != 0;
}

// The byte range each loom array argument spans, for the checked pointers of a debug-mode
// build: from its lowest to past its highest element (a view's strides may be negative
// or leave gaps; the gaps are not told apart). Other arguments stay unchecked.
DebugLaunch debug_launch(const std::vector<KernelArg>& args) {
  DebugLaunch d;
  const size_t n = args.size();
  d.ranges.assign(n, loom_emu::ArgRange{nullptr, nullptr, 0, 0});
  d.data.assign(n, nullptr);
  d.what.assign(n, "");
  d.itemsize.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    d.ranges[i].arg = static_cast<int>(i);
    if (args[i].kind() != KernelArg::Kind::array) continue;
    const Array& a = args[i].array();
    const char* data = static_cast<const char*>(a.data());
    const char *lo = data, *hi = data;
    if (a.size() > 0) {
      for (size_t k = 0; k < a.shape().size(); ++k) {
        const int64_t step = a.strides()[k] * (a.shape()[k] - 1);
        (step < 0 ? lo : hi) += step;
      }
      hi += a.itemsize();
    }
    d.ranges[i] = loom_emu::ArgRange{lo, hi, static_cast<int>(i), 1};
    d.data[i] = data;
    d.itemsize[i] = a.itemsize();
    d.what[i] = a.shape().size() == 1
                    ? "a " + std::to_string(a.size()) + "-element " + dtype_name(a.dtype()) + " array"
                    : std::string("a ") + dtype_name(a.dtype()) + " array of shape " + shape_str(a.shape());
  }
  d.seed = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  return d;
}

}  // namespace

KernelAttributes attributes(const ModuleState& m, const std::string& name) {
  const EmuFunction& f = function(m, name);
  KernelAttributes a;
  a.max_threads_per_block = f.max_threads ? std::min(f.max_threads, kMaxThreadsPerBlock) : kMaxThreadsPerBlock;
  a.num_regs = 0;
  a.static_shared_bytes = f.static_shared_bytes;
  a.max_dynamic_shared_bytes = kMaxSharedPerBlock - std::min(f.static_shared_bytes, kMaxSharedPerBlock);
  a.local_size_bytes = f.local_bytes;
  a.param_sizes = f.param_sizes;
  return a;
}

void launch(const ModuleState& m, const std::string& name, const LaunchConfig& cfg,
            const std::vector<KernelArg>& args) {
  const bool debug = cfg.debug || debug_env();
  const EmuFunction& f = function(m, name, debug);
  const auto types = kernel_detail::source_types(m, name);  // parameter C types, where the source tells them
  kernel_detail::PackedArgs packed(name, args, f.param_sizes, true, types.get());
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
  if (f.max_threads && block.count() > static_cast<size_t>(f.max_threads))  // a GPU refuses it (invalid argument)
    config_error(name, "block " + block.str() + " has " + std::to_string(block.count()) +
                           " threads; the kernel's __launch_bounds__ allows at most " + std::to_string(f.max_threads));
  if (grid.x > max_grid.x || grid.y > max_grid.y || grid.z > max_grid.z)
    config_error(name, "grid " + grid.str() + " exceeds the largest grid " + max_grid.str() + " of the CPU kernel emulator");
  // As a GPU checks it (kernel_launch.cpp): static and dynamic shared memory together
  // within a block's opt-in limit.
  const size_t max_dynamic = kMaxSharedPerBlock - std::min(f.static_shared_bytes, kMaxSharedPerBlock);
  if (cfg.shared_mem > max_dynamic)
    config_error(name, "asks for " + std::to_string(cfg.shared_mem) + " bytes of dynamic shared memory; the CPU "
                           "kernel emulator, like an H100, allows at most " + std::to_string(max_dynamic) +
                           " for this kernel (" + std::to_string(kMaxSharedPerBlock) + " per block less its " +
                           std::to_string(f.static_shared_bytes) + " bytes of static shared memory)");
  if (grid.count() == 0) return;
  if (!debug) {
    run(f, grid, block, cfg.shared_mem, packed.pointers());
    return;
  }
  const DebugLaunch d = debug_launch(args);
  run(f, grid, block, cfg.shared_mem, packed.pointers(), &d);
}

}  // namespace loom::cpu_emulator
