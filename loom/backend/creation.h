// The creation and conversion family's contract (DESIGN.md §2): the evals behind full,
// arange, linspace, eye, from_host and the dtype conversions (astype, copy, copyto), and
// their primitive records. loom/ops/creation.cpp, copyto.cpp and array_methods.cpp own
// every rule (shapes, dtypes, devices) and reach these through dispatch(). The CPU evals
// (backend/cpu/creation.cpp, convert.cpp) run synchronously; the GPU evals
// (backend/cuda/creation.cpp, convert.cpp; stubs in backend/no_cuda/evals.cpp)
// enqueue on the current stream of the output's device.
#pragma once
#include <cstdint>

#include "loom/array/array.h"
#include "loom/backend/eval_list.h"
#include "loom/core/scalar.h"

namespace loom {

/// Sets every element of contiguous `out` to `value` (NumPy cast rules).
using FillFn = void(const Array& out, const Scalar& value);
/// Contiguous 1-d `out`: out[0] = first, out[1] = second, out[i] = first + i * (second - first)
/// computed in out's dtype (float16/bfloat16 in float), as NumPy's arange fill.
using ArangeFn = void(const Array& out, const Scalar& first, const Scalar& second);
/// Contiguous 1-d `out`: start + i * step in float64, the last one `stop` when `endpoint`,
/// then cast (integer dtypes: floor first), as NumPy's linspace.
using LinspaceFn = void(const Array& out, double start, double step, double stop, bool endpoint);
/// Contiguous 2-d `out`: ones on diagonal k, zeros elsewhere.
using EyeFn = void(const Array& out, int64_t k);
/// dst (contiguous, same shape, same device) = src (any layout) cast to dst's dtype; a
/// plain copy when the dtypes agree. The GPU eval orders itself after src's last user.
using ConvertFn = void(const Array& src, const Array& dst);
/// Host memory of any layout -> contiguous `dst` (same dtype and shape). On a GPU this is
/// gpu_runtime::upload (pinned staging, direct DMA from pinned memory).
using CopyFromHostFn = void(const HostView& src, const Array& dst);

// Its evals, declared in cpu_backend and gpu_backend (backend/eval_list.h); without CUDA
// backend/no_cuda/evals.cpp defines the GPU ones as stubs from this list.
#define LOOM_CREATION_EVALS(X)         \
  X(FillFn, fill, 2)                   \
  X(ArangeFn, arange, 3)               \
  X(LinspaceFn, linspace, 5)           \
  X(EyeFn, eye, 2)                     \
  X(ConvertFn, convert, 2)             \
  X(CopyFromHostFn, copy_from_host, 2)
LOOM_DECLARE_EVALS(LOOM_CREATION_EVALS)

}  // namespace loom
