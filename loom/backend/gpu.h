// The GPU backend's creation and conversion evals. Implemented in backend/cuda/ in CUDA
// builds and by stubs in backend/no_cuda/ that throw UnsupportedError. Ops in loom/ops own
// every rule (shapes, dtypes, devices) and call these for compute; each enqueues on the
// current stream of `out`'s device.
#pragma once
#include <memory>
#include <string>

#include "loom/array/array.h"
#include "loom/core/scalar.h"

namespace loom::gpu_backend {  // NOTE: not loom::gpu, which is the function gpu(i)

/// Sets every element of contiguous `out` to `value` (NumPy cast rules).
void fill(const Array& out, const Scalar& value);
/// Contiguous 1-d `out`: out[0] = first, out[1] = second, out[i] = first + i * (second - first)
/// computed in out's dtype (float16/bfloat16 in float), as NumPy's arange fill.
void arange(const Array& out, const Scalar& first, const Scalar& second);
/// Contiguous 1-d `out`: start + i * step in float64, the last one `stop` when `endpoint`,
/// then cast (integer dtypes: floor first), as NumPy's linspace.
void linspace(const Array& out, double start, double step, double stop, bool endpoint);
/// Contiguous 2-d `out`: ones on diagonal k, zeros elsewhere.
void eye(const Array& out, int64_t k);
/// dst (contiguous, same shape, same GPU) = src (any layout) cast to dst's dtype.
void convert(const Array& src, const Array& dst);
}  // namespace loom::gpu_backend
