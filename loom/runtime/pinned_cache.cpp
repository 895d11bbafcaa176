#include "loom/runtime/pinned_cache.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <mutex>
#include <unordered_map>

#include "loom/core/error.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom::pinned_cache {
namespace {

constexpr size_t kGranule = size_t{2} << 20;         // block sizes are multiples of this
constexpr size_t kDefaultLimit = size_t{2} << 30;    // 2 GiB of page-locked memory at most

struct Cache {
  std::mutex mu;
  std::unordered_map<void*, size_t> live;  // block -> size, held by arrays
  std::multimap<size_t, void*> free;       // size -> block
  size_t in_use = 0, cached = 0, limit = kDefaultLimit;

  // Frees cached blocks, largest first, until in_use + cached + room <= limit. Under mu.
  void trim(size_t room) {
    while (!free.empty() && in_use + cached + room > limit) {
      auto it = std::prev(free.end());
      cached -= it->first;
      void* p = it->second;
      free.erase(it);
      try {
        gpu_runtime::pinned_free(p);
      } catch (...) {
        // a lost device: the memory goes with the process
      }
    }
  }
};

Cache& cache() {
  static Cache* c = new Cache();  // blocks may be given back during static destruction
  return *c;
}

}  // namespace

void* take(size_t nbytes) {
  Cache& c = cache();
  const size_t size = (std::max<size_t>(nbytes, 1) + kGranule - 1) / kGranule * kGranule;
  std::lock_guard<std::mutex> lock(c.mu);
  if (size > c.limit) return nullptr;
  // A cached block up to 1.5x the size: larger ones would waste page-locked memory.
  auto it = c.free.lower_bound(size);
  if (it != c.free.end() && it->first <= size + size / 2) {
    void* p = it->second;
    const size_t got = it->first;
    c.free.erase(it);
    c.cached -= got;
    c.in_use += got;
    c.live.emplace(p, got);
    return p;
  }
  c.trim(size);
  if (c.in_use + c.cached + size > c.limit) return nullptr;
  void* p = nullptr;
  try {
    p = gpu_runtime::pinned_alloc(size);
  } catch (const OutOfMemoryError&) {
    return nullptr;  // the system's page-locked memory is used up: ordinary memory will do
  }
  c.in_use += size;
  c.live.emplace(p, size);
  return p;
}

void give_back(void* block) noexcept {
  if (!block) return;
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  auto it = c.live.find(block);
  if (it == c.live.end()) return;
  const size_t size = it->second;
  c.live.erase(it);
  c.in_use -= size;
  try {
    c.free.emplace(size, block);
    c.cached += size;
    // cudaFreeHost waits for the device, which a graph capture on this thread forbids: the
    // next take() trims instead.
    if (!gpu_runtime::capturing()) c.trim(0);
  } catch (...) {
  }
}

Stats stats() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  return Stats{c.in_use, c.cached, c.limit};
}

void empty() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  const size_t keep = c.limit;
  c.limit = 0;
  c.trim(0);
  c.limit = keep;
}

void set_limit(size_t nbytes) {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  c.limit = nbytes;
  c.trim(0);
}

}  // namespace loom::pinned_cache
