// A process-wide pool of worker threads for splitting large loops across cores.
#pragma once
#include <cstdint>
#include <functional>

namespace loom::cpu_runtime {

/// Number of threads parallel_for uses (hardware threads, or $LOOM_NUM_THREADS).
int num_threads();

/// Runs body(begin, end) over [0, n) in chunks of at least `grain` items, on the
/// calling thread plus the pool's workers; returns when all chunks are done.
/// Exceptions from any chunk are rethrown (the first one) on the calling thread.
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& body);

}  // namespace loom::cpu_runtime
