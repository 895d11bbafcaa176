// CPU evals of creation and conversion. Same contracts as backend/gpu.h; the CPU runs
// everything synchronously, so no streams are involved.
#pragma once
#include "loom/array/array.h"
#include "loom/core/scalar.h"

namespace loom::cpu_backend {

void fill(const Array& out, const Scalar& value);
void arange(const Array& out, const Scalar& first, const Scalar& second);
void linspace(const Array& out, double start, double step, double stop, bool endpoint);
void eye(const Array& out, int64_t k);
/// dst (contiguous, same shape) = src (any layout) cast to dst's dtype.
void convert(const Array& src, const Array& dst);
/// Copies host memory of any layout into contiguous `dst` (same dtype and shape).
void copy_from_host(const HostView& src, const Array& dst);

}  // namespace loom::cpu_backend
