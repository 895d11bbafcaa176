// Parallel memcpy and strided packing for host<->device staging, on the CPU backend's
// thread pool: one thread cannot keep up with the DMA.
#pragma once
#include <cstddef>
#include <functional>

namespace loom::cuda {

/// Runs fn(0) ... fn(n - 1) on the pool and the calling thread; returns when all are done.
void parallel_for(int n, const std::function<void(int)>& fn);
/// Threads parallel_for spreads over, the caller included.
int host_parallelism();
/// memcpy split over the pool when large enough to pay off.
void parallel_memcpy(void* dst, const void* src, size_t nbytes);

}  // namespace loom::cuda
