// The per-device caching allocator (DESIGN.md §6), PyTorch style: sizes rounded to
// 512 B; requests under 1 MiB carved from 2 MiB segments (small pool), larger ones
// from segments rounded to 2 MiB (large pool); best fit by (stream, size), blocks split
// when the rest is worth keeping and merged with free neighbours when freed. A block
// is reused only on the stream it was allocated on; one last written on another stream
// returns to the pool once an event recorded there has completed.
#pragma once
#include <cstddef>
#include <memory>

#include "loom/memory.h"

namespace loom::cuda {

/// `nbytes` on GPU `device`, ordered on `stream`. On failure (or past the limit) frees
/// the cached segments and retries once, then throws OutOfMemoryError.
std::shared_ptr<Buffer> allocate(int device, size_t nbytes, void* stream);
MemoryStats memory_stats(int device);
/// Returns free, unsplit cached segments to the device.
void empty_cache(int device);
/// Caps the bytes reserved on `device` (0: no cap).
void set_limit(int device, size_t nbytes);

/// Page-locked host memory (aligned malloc on a machine with no GPU).
void* pinned_alloc(size_t nbytes);
void pinned_free(void* ptr);

}  // namespace loom::cuda
