// Memory of cpu() arrays: blocks from the host arena (runtime/cpu/host_arena.h), with the
// same statistics and limit as a GPU's caching allocator.
#pragma once
#include <memory>

#include "loom/runtime/memory.h"

namespace loom::cpu_runtime {

std::shared_ptr<Buffer> allocate(size_t nbytes);
MemoryStats memory_stats();
void set_limit(size_t nbytes);
/// Frees the cached large host blocks (loom.memory.empty_cache(cpu())).
void empty_cache();

}  // namespace loom::cpu_runtime
