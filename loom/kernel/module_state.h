// What a RawModule shares with its Kernels and the backends: the source and how to
// compile it, and the backend's per-module data (compiled images, loaded functions),
// made on first use. Internal to loom/kernel and the backends.
#pragma once
#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "loom/cache/compile_cache.h"
#include "loom/kernel/raw_module.h"

namespace loom {

struct ModuleState {
  std::string code;
  std::vector<std::string> options;
  std::vector<std::string> name_expressions;
  SourceDialect dialect = SourceDialect::kFull;
  Hash128 key;  // of everything above: names this module in the autotune records
  // The source names cooperative groups' this_grid: its kernels launch cooperatively on a GPU
  // (every block resident at once, as grid.sync() needs; CuPy's enable_cooperative_groups),
  // and the CPU kernel emulator runs every block at once for those that reach it.
  bool cooperative = false;

  std::mutex mu;                    // guards `gpu` and `cpu`
  std::shared_ptr<void> gpu;        // kernel/cuda/gpu_kernel.cpp's data, made on first use
  std::shared_ptr<void> cpu;        // the CPU kernel emulator's (kernel/emulator), likewise
};

/// A Kernel's loaded function on each of the first GPUs (backend UserFunction pointers,
/// which live as long as the module), filled on first launch there.
struct KernelFunctionCache {
  static constexpr int kSlots = 16;
  std::array<std::atomic<const void*>, kSlots> by_device{};
};

}  // namespace loom
