// The counting family's contract (bincount, histogram with equal bins, and the min/max
// that sizes them): each eval's signature, written once, and the records that
// ops/counting.cpp dispatches (DESIGN.md §2). The per-element rule of the histogram is
// NumPy's, in common/loom_histogram.cuh, shared by both backends. CPU evals:
// backend/cpu/counting.cpp (chunks over the thread pool); GPU evals: backend/cuda/counting.cpp
// (NVRTC kernels of kernels/loom_counting.cuh), enqueued on the current stream of the
// arrays' device; stubs: backend/no_cuda/evals.cpp.
#pragma once
#include <cstdint>

#include "loom/array/array.h"
#include "loom/array/rebind.h"
#include "loom/backend/eval_list.h"

namespace loom {

/// What the histogram eval needs besides its arrays (ops/counting.cpp derives it from
/// NumPy's dtypes, see common/loom_histogram.cuh).
struct HistogramParams {
  int64_t bins = 1;
  double denom = 1;       // NumPy's norm_denom, a value of the division's dtype
  double count = 1;       // bins in the division's dtype (a float16 rounds large counts)
  bool wide = false;      // divide in float64 (NumPy's norm is a float64 scalar), else in the edges' dtype
  bool bin_index = false; // write each element's bin (-1 outside the range) instead of counting
};
template <>
struct PlainTraceArg<HistogramParams> : std::true_type {};

/// out (x's dtype, 2 elements) = [min, max] of contiguous `x` (size > 0; any real dtype
/// but bfloat16), both NaN when x holds a NaN (NumPy's min and max).
using MinMaxFn = void(const Array& x, const Array& out);
/// out[v] = occurrences of v in contiguous 1-d `x` (integers or bool, every value in
/// [0, out.size()); values outside are skipped), or the sum of `weights` (invalid, or
/// contiguous float64/complex128 of x's size) at them. out: contiguous, int64 without
/// weights, else weights' dtype; the eval zeroes it first.
using BincountFn = void(const Array& x, const Array& weights, const Array& out);
/// NumPy's histogram of contiguous 1-d `x` (float16/32/64 or an integer dtype) over the
/// p.bins equal bins whose edges are `edges` (contiguous, bins + 1 values of the bin type:
/// x's dtype for floats, float64 for integers). out: contiguous, p.bins counts (int64), or
/// summed `weights` (as bincount's) of the values inside; with p.bin_index, x.size() int64
/// bins, -1 for a value outside [edges[0], edges[bins]]. The eval zeroes `out` first.
using HistogramFn = void(const Array& x, const Array& edges, const Array& weights, const HistogramParams& p,
                         const Array& out);

// Its evals, declared in cpu_backend and gpu_backend (backend/eval_list.h); without CUDA
// backend/no_cuda/evals.cpp defines the GPU ones as stubs from this list.
#define LOOM_COUNTING_EVALS(X) \
  X(MinMaxFn, minmax, 2)       \
  X(BincountFn, bincount, 3)   \
  X(HistogramFn, histogram, 5)
LOOM_DECLARE_EVALS(LOOM_COUNTING_EVALS)

}  // namespace loom
