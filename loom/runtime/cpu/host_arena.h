// Memory of cpu() arrays, kept outside the C heap: an emulated kernel that writes past
// an array (as kernels do) can then damage other arrays' data at worst, as on a GPU,
// never malloc's bookkeeping (which aborts the process later, outside any kernel).
// Small blocks come in size classes from loom's own slabs; bigger ones are mappings of
// their own. Both have guard pages on either side, so running off their end faults
// (a KernelFaultError inside a kernel) instead of walking into unrelated memory.
#pragma once
#include <cstddef>

namespace loom::cpu_runtime::host_arena {

/// Blocks up to this size come from slabs; larger ones from map_guarded.
constexpr size_t kSlabMax = size_t{1} << 20;

/// The block size that serves `nbytes` (> 0): multiples of 64 up to 1 KiB, then four
/// classes per power of two (at most 25% above the request), all multiples of 64.
constexpr size_t class_size(size_t nbytes) {
  if (nbytes <= 1024) return nbytes ? (nbytes + 63) / 64 * 64 : 64;
  int p = 63 - __builtin_clzll(nbytes - 1);  // 2^p < nbytes <= 2^(p+1)
  const size_t step = size_t{1} << (p - 2);
  return (size_t{1} << p) + (nbytes - (size_t{1} << p) + step - 1) / step * step;
}

/// A 64-byte aligned block of class_size(nbytes) <= kSlabMax bytes, or nullptr when
/// the system has no memory for a new slab.
void* take(size_t nbytes);
/// Returns a block from take(nbytes) (same nbytes) for reuse.
void give(void* p, size_t nbytes);
/// Gives the physical pages inside free slab blocks back to the system (their address
/// space stays, so slabs are never unmapped).
void trim();

/// `size` bytes (a multiple of the page size) aligned to `align` (a power of two, at least
/// a page), between inaccessible guard regions; nullptr when the system has no memory.
void* map_guarded(size_t size, size_t align);
void unmap_guarded(void* p, size_t size);

}  // namespace loom::cpu_runtime::host_arena
