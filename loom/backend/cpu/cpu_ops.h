// CPU evals of the foundation's ops. Same contracts as backend/gpu.h; the CPU runs
// everything synchronously, so no streams are involved.
#pragma once
#include "loom/array.h"
#include "loom/scalar.h"

namespace loom::cpu_backend {

void fill(const Array& out, const Scalar& value);
void arange(const Array& out, const Scalar& first, const Scalar& second);
void linspace(const Array& out, double start, double step, double stop, bool endpoint);
void eye(const Array& out, int64_t k);
/// dst (contiguous, same shape) = src (any layout) cast to dst's dtype.
void convert(const Array& src, const Array& dst);
/// Copies host memory of any layout into contiguous `dst` (same dtype and shape).
void copy_from_host(const HostView& src, const Array& dst);
std::shared_ptr<Buffer> allocate(size_t nbytes);
MemoryStats memory_stats();
void set_limit(size_t nbytes);
/// Frees the cached large host blocks (loom.memory.empty_cache(cpu())).
void empty_cache();

}  // namespace loom::cpu_backend
