// What a RawModule shares with its Kernels and the backends: the source and how to
// compile it, and the backend's per-module data (compiled images, loaded functions),
// made on first use. Internal to loom/kernel and the backends.
#pragma once
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

  std::mutex mu;                    // guards `gpu`
  std::shared_ptr<void> gpu;        // backend/cuda/user_kernels.cpp's data, made on first use
};

}  // namespace loom
