// Slabs and guarded mappings for cpu() array memory (see host_arena.h).
//
// Each size class carves blocks from its own slabs with a bump pointer and keeps freed
// blocks in a std::vector on the C heap, never as links inside the blocks: a kernel
// overrun into a freed block would corrupt such links, as it corrupts malloc's. Slab
// memory is never unmapped: what a class holds is bounded by that class's peak use, and
// trim() (loom.memory.empty_cache) returns the pages of free blocks of a page or more.
#include "loom/runtime/cpu/host_arena.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define LOOM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LOOM_ASAN 1
#endif
#endif

namespace loom::cpu_runtime::host_arena {
namespace {

// Guards are address space only (no memory): 128 KiB on each side catches any overrun of
// up to 32K floats, the typical "a few threads too many" bug, even on 64 KiB-page kernels,
// and keeps such faults away from a fiber stack mapped next to a block (the fault guard
// names a fault just below a thread's stack pointer a stack overflow).
constexpr size_t kGuard = size_t{128} << 10;
constexpr size_t kMinSlab = size_t{2} << 20;
// 16 classes of 64..1024 bytes, then 4 per power of two up to kSlabMax.
constexpr int kClasses = 16 + 4 * (20 - 10);

constexpr int class_index(size_t nbytes) {
  if (nbytes <= 1024) return nbytes ? static_cast<int>((nbytes + 63) / 64) - 1 : 0;
  const int p = 63 - __builtin_clzll(nbytes - 1);
  const size_t step = size_t{1} << (p - 2);
  return 16 + 4 * (p - 10) + static_cast<int>((nbytes - (size_t{1} << p) + step - 1) / step) - 1;
}
// The block size of class i (the inverse of class_index).
constexpr size_t index_size(int i) {
  if (i < 16) return 64 * static_cast<size_t>(i + 1);
  const int p = 10 + (i - 16) / 4;
  return (size_t{1} << p) + static_cast<size_t>((i - 16) % 4 + 1) * (size_t{1} << (p - 2));
}
static_assert(index_size(class_index(kSlabMax)) == kSlabMax && index_size(16) == 1280);
static_assert(class_index(kSlabMax) == kClasses - 1 && class_size(kSlabMax) == kSlabMax);
static_assert(class_index(1025) == 16 && class_size(1025) == 1280 && class_size(2049) == 2560);

size_t page_size() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

struct SizeClass {
  std::mutex mu;
  std::vector<void*> free;  // out of band (see above)
  char* next = nullptr;     // the current slab's uncarved part
  char* end = nullptr;
};

// Never destroyed: arrays may be released during interpreter teardown, after statics.
SizeClass* classes() {
  static auto* c = new SizeClass[kClasses];
  return c;
}

// At least 8 blocks per slab, so that big classes do not map a slab per block.
size_t slab_size(size_t block) { return std::max(kMinSlab, 8 * block); }

}  // namespace

void* map_guarded(size_t size, size_t align) {
  // The whole range is reserved inaccessible (no memory is committed for it), then the
  // data part made writable: committed there as malloc's memory would be, so a system
  // that refuses overcommit refuses the allocation now rather than killing us later.
  const size_t slack = align > page_size() ? align : 0;
  const size_t total = size + slack + 2 * kGuard;
  void* base = mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) return nullptr;
  const uintptr_t lo = reinterpret_cast<uintptr_t>(base);
  const uintptr_t p = (lo + kGuard + align - 1) & ~(uintptr_t{align} - 1);
  if (mprotect(reinterpret_cast<void*>(p), size, PROT_READ | PROT_WRITE) != 0) {
    munmap(base, total);
    return nullptr;
  }
  // Unmap the alignment slack, keeping one guard on either side.
  if (p - kGuard > lo) munmap(base, p - kGuard - lo);
  const uintptr_t tail = p + size + kGuard;
  if (lo + total > tail) munmap(reinterpret_cast<void*>(tail), lo + total - tail);
  return reinterpret_cast<void*>(p);
}

void unmap_guarded(void* p, size_t size) { munmap(static_cast<char*>(p) - kGuard, size + 2 * kGuard); }

void* take(size_t nbytes) {
  const size_t size = class_size(nbytes);
#ifdef LOOM_ASAN  // AddressSanitizer sees overruns of malloc's blocks only: let it check arrays
  return std::aligned_alloc(64, size);
#endif
  SizeClass& c = classes()[class_index(nbytes)];
  std::lock_guard<std::mutex> lock(c.mu);
  if (!c.free.empty()) {
    void* p = c.free.back();
    c.free.pop_back();
    return p;
  }
  if (c.next == nullptr || static_cast<size_t>(c.end - c.next) < size) {
    // The rest of the old slab (less than a block) stays unused.
    const size_t slab = slab_size(size);
    char* s = static_cast<char*>(map_guarded(slab, page_size()));
    if (!s) return nullptr;
    c.next = s;
    c.end = s + slab;
  }
  void* p = c.next;
  c.next += size;
  return p;
}

void give(void* p, size_t nbytes) {
#ifdef LOOM_ASAN
  return std::free(p);
#endif
  SizeClass& c = classes()[class_index(nbytes)];
  std::lock_guard<std::mutex> lock(c.mu);
  try {
    c.free.push_back(p);
  } catch (const std::bad_alloc&) {  // no memory for the list: the block is lost, not misused
  }
}

void trim() {
  const uintptr_t page = page_size();
  for (int i = 0; i < kClasses; ++i) {
    SizeClass& c = classes()[i];
    std::lock_guard<std::mutex> lock(c.mu);
    for (void* block : c.free) {
      // Whole pages inside the block only: its neighbours may share the edge pages.
      const uintptr_t b = reinterpret_cast<uintptr_t>(block);
      const uintptr_t lo = (b + page - 1) & ~(page - 1);
      const uintptr_t hi = (b + index_size(i)) & ~(page - 1);
      if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_DONTNEED);
    }
  }
}

}  // namespace loom::cpu_runtime::host_arena
