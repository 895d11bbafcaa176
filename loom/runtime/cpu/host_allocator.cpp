// Host memory for cpu() arrays: 64-byte aligned blocks with the in-use, peak and
// limit accounting of loom.memory. All of it lives outside the C heap (host_arena.h),
// so a kernel overrun cannot corrupt malloc. Blocks up to 1 MiB come from size-class
// slabs. Bigger ones are mappings of their own, which a fresh block would fault in page
// by page again (more than an add of the same size costs): loom keeps a bounded cache
// of them, those of 4 MiB or more 2 MiB-aligned for huge pages.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "loom/runtime/cpu/host_allocator.h"
#include "loom/runtime/cpu/host_arena.h"
#include "loom/core/error.h"

namespace loom::cpu_runtime {
namespace {

std::atomic<size_t> g_in_use{0};
std::atomic<size_t> g_peak{0};
std::atomic<size_t> g_limit{0};

size_t host_total() {
  static const size_t total = static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE);
  return total;
}

constexpr size_t kLarge = size_t{1} << 22;     // blocks from here on use huge pages
constexpr size_t kHugePage = size_t{1} << 21;  // their sizes are multiples of this

// Free blocks above host_arena::kSlabMax, by size; bounded by the smaller of 2 GiB and
// 1/16 of the host.
// Never destroyed: arrays may be released during interpreter teardown, after statics.
std::mutex g_cache_mu;
std::map<size_t, std::vector<void*>>& cache() {
  static auto* blocks = new std::map<size_t, std::vector<void*>>();
  return *blocks;
}
size_t g_cached = 0;

size_t cache_cap() {
  static const size_t cap = std::min<size_t>(size_t{1} << 31, host_total() / 16);
  return cap;
}

// Size classes below kLarge (at most 25% over the request; 4 MiB for the biggest), so
// that cached blocks fit requests of nearby sizes.
size_t block_size(size_t nbytes) {
  if (nbytes < kLarge) return host_arena::class_size(nbytes);
  return (nbytes + kHugePage - 1) / kHugePage * kHugePage;
}

void* take_cached(size_t size) {
  std::lock_guard<std::mutex> lock(g_cache_mu);
  auto it = cache().find(size);
  if (it == cache().end() || it->second.empty()) return nullptr;
  void* p = it->second.back();
  it->second.pop_back();
  g_cached -= size;
  return p;
}

void release(void* ctx, Buffer& self) {
  const size_t size = block_size(self.nbytes());
  g_in_use.fetch_sub(self.nbytes(), std::memory_order_relaxed);
  if (size <= host_arena::kSlabMax) return host_arena::give(self.data(), self.nbytes());
  {
    std::lock_guard<std::mutex> lock(g_cache_mu);
    if (g_cached + size <= cache_cap()) {
      cache()[size].push_back(self.data());
      g_cached += size;
      return;
    }
  }
  host_arena::unmap_guarded(self.data(), size);
}

void* map_block(size_t size) {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return host_arena::map_guarded(size, size >= kLarge ? kHugePage : page);
}

std::string mib(size_t n) { return std::to_string(n / (1024 * 1024)) + " MiB"; }

}  // namespace

std::shared_ptr<Buffer> allocate(size_t nbytes) {
  const size_t limit = g_limit.load(std::memory_order_relaxed);
  const size_t in_use = g_in_use.load(std::memory_order_relaxed);
  if (limit && in_use + nbytes > limit) {
    throw OutOfMemoryError("[allocate] cpu(): cannot allocate " + std::to_string(nbytes) +
                           " bytes: " + mib(in_use) + " in use, limit " + mib(limit) +
                           " (loom.memory.set_limit); process the data in smaller batches");
  }
  const size_t rounded = block_size(nbytes);
  const bool slab = rounded <= host_arena::kSlabMax;
  const bool large = rounded >= kLarge;
  void* p = slab ? host_arena::take(nbytes) : take_cached(rounded);
  const bool fresh = !slab && p == nullptr;
  if (fresh) p = map_block(rounded);
  if (!p) {  // the cache may hold what the system lacks
    empty_cache();
    p = slab ? host_arena::take(nbytes) : map_block(rounded);
  }
  if (!p) {
    throw OutOfMemoryError("[allocate] cpu(): cannot allocate " + std::to_string(nbytes) + " bytes (" +
                           mib(in_use) + " in use, " + mib(host_total()) +
                           " total); process the data in smaller batches");
  }
  // Huge pages for large blocks, as NumPy does: first touches of fresh memory otherwise
  // cost more than the elementwise op that writes it (one fault per 4 KiB page).
  if (large && fresh) madvise(p, rounded, MADV_HUGEPAGE);
  const size_t now = g_in_use.fetch_add(nbytes, std::memory_order_relaxed) + nbytes;
  size_t peak = g_peak.load(std::memory_order_relaxed);
  while (now > peak && !g_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
  return std::make_shared<Buffer>(p, nbytes, Device{DeviceType::cpu, 0}, &release, nullptr);
}

MemoryStats memory_stats() {
  MemoryStats s;
  s.in_use = g_in_use.load();
  s.peak = g_peak.load();
  s.limit = g_limit.load();
  {
    std::lock_guard<std::mutex> lock(g_cache_mu);
    s.cached = g_cached;
  }
  s.total = host_total();
  return s;
}

void set_limit(size_t nbytes) { g_limit.store(nbytes); }

void empty_cache() {
  std::lock_guard<std::mutex> lock(g_cache_mu);
  for (auto& [size, blocks] : cache())
    for (void* p : blocks) host_arena::unmap_guarded(p, size);
  cache().clear();
  g_cached = 0;
  host_arena::trim();
}

}  // namespace loom::cpu_runtime
