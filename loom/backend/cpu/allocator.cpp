// Host memory for cpu() arrays: 64-byte aligned blocks with the in-use, peak and
// limit accounting of loom.memory. No pool: the C allocator already caches.
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

#include "loom/backend/cpu/cpu_ops.h"
#include "loom/error.h"

namespace loom::cpu_backend {
namespace {

std::atomic<size_t> g_in_use{0};
std::atomic<size_t> g_peak{0};
std::atomic<size_t> g_limit{0};

size_t host_total() {
  static const size_t total = static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE);
  return total;
}

void release(void* ctx, Buffer& self) {
  std::free(self.data());
  g_in_use.fetch_sub(self.nbytes(), std::memory_order_relaxed);
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
  const size_t rounded = (nbytes + 63) / 64 * 64;
  void* p = std::aligned_alloc(64, rounded ? rounded : 64);
  if (!p) {
    throw OutOfMemoryError("[allocate] cpu(): cannot allocate " + std::to_string(nbytes) + " bytes (" +
                           mib(in_use) + " in use, " + mib(host_total()) +
                           " total); process the data in smaller batches");
  }
  // Huge pages for large blocks, as NumPy does: first touches of fresh memory otherwise
  // cost more than the elementwise op that writes it (one fault per 4 KiB page).
  if (rounded >= (size_t{1} << 22)) {
    const uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + 4095) & ~uintptr_t{4095};
    const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + rounded) & ~uintptr_t{4095};
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  }
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
  s.total = host_total();
  return s;
}

void set_limit(size_t nbytes) { g_limit.store(nbytes); }

}  // namespace loom::cpu_backend
