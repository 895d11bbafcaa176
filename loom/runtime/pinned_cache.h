// A bounded cache of page-locked host blocks for GPU -> host copies into new host arrays
// (ndarray.numpy()). A fresh NumPy array's pages fault in on first touch, which holds a
// device -> host copy to a few GB/s; a block already pinned and faulted in takes the DMA at
// full speed, and reusing blocks also saves cudaHostAlloc's cost. The limit bounds all the
// cache's page-locked memory, held by arrays and cached; past it callers use ordinary memory.
#pragma once
#include <cstddef>

namespace loom::pinned_cache {

struct Stats {
  size_t in_use = 0;  // bytes of blocks held by arrays
  size_t cached = 0;  // bytes of free blocks kept for reuse
  size_t limit = 0;   // in_use + cached never exceeds it; 0 turns the cache off
};

/// A page-locked block of at least `nbytes` (reused when a cached one fits), or nullptr when
/// the limit or the system's page-locked memory would be exceeded: use ordinary memory then.
void* take(size_t nbytes);
/// Returns a block from take() to the cache. Never throws.
void give_back(void* block) noexcept;
Stats stats();
/// Frees every cached block.
void empty();
/// Sets the limit, freeing cached blocks beyond it; 0 turns the cache off.
void set_limit(size_t nbytes);

}  // namespace loom::pinned_cache
