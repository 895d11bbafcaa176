#include "loom/runtime/cuda/host_pool.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "loom/runtime/cpu/thread_pool.h"

namespace loom::cuda {

// The staging copies share the CPU backend's thread pool rather than owning threads.
void parallel_for(int n, const std::function<void(int)>& fn) {
  if (n <= 0) return;
  if (n == 1) return fn(0);
  cpu_runtime::parallel_for(n, 1, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) fn(static_cast<int>(i));
  });
}

// Past about 8 threads a host memcpy is bound by memory bandwidth, not by threads.
int host_parallelism() { return std::min(8, cpu_runtime::num_threads()); }

void parallel_memcpy(void* dst, const void* src, size_t nbytes) {
  constexpr size_t kMinPiece = size_t{1} << 20;
  const int pieces = static_cast<int>(std::min<size_t>(host_parallelism(), nbytes / kMinPiece));
  if (pieces <= 1) {
    std::memcpy(dst, src, nbytes);
    return;
  }
  const size_t per = (nbytes / pieces + 4095) / 4096 * 4096;
  parallel_for(pieces, [&](int i) {
    const size_t begin = std::min(nbytes, per * i), end = std::min(nbytes, begin + per);
    std::memcpy(static_cast<char*>(dst) + begin, static_cast<const char*>(src) + begin, end - begin);
  });
}

}  // namespace loom::cuda
