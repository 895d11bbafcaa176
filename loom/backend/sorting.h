// The sorting family's contract (sort, argsort, unique, searchsorted, select_ranks): each eval's
// signature, written once, for the records of ops/sorting_primitives.h (DESIGN.md §2).
// CPU evals: backend/cpu/sorting.cpp (synchronous). GPU evals: backend/cuda/sorting.cpp
// (CUB radix sorts + NVRTC kernels of kernels/loom_sorting.cuh), enqueued on the current
// stream of the arrays' device; stubs: backend/no_cuda/evals.cpp.
#pragma once
#include "loom/array/array.h"
#include "loom/backend/eval_list.h"

namespace loom {

/// unique's outputs; the optional ones are invalid() arrays unless asked for.
struct UniqueArrays {
  Array values;   // sorted unique values (1-d)
  Array index;    // int64: first occurrence of each value in the flattened input
  Array inverse;  // int64, a's shape: values[inverse] reconstructs a
  Array counts;   // int64: occurrences of each value
};

/// `out` (contiguous, src's shape; src's dtype, or int64 when `indices`) = `src` (any
/// layout) sorted along its last axis, or the indices that sort it. Stable, NaN last.
using SortLastAxisFn = void(const Array& src, const Array& out, bool indices);
/// unique of the flattened `src` (any layout, size > 0); inverse is 1-d (the op reshapes).
/// The GPU eval waits for the GPU once to learn the number of unique values.
using UniqueFn = UniqueArrays(const Array& src, bool want_index, bool want_inverse, bool want_counts,
                              bool equal_nan);
/// bad (int32, 0-d, sorter's device) = 1 if an index of `sorter` (contiguous int64, n > 0
/// elements) is outside [0, n), else 0. ops/ reads it back to raise NumPy's ValueError.
using CheckSorterFn = void(const Array& sorter, const Array& bad);
/// `out` (int64, contiguous, v's shape) = insertion points of `v` (contiguous, a's dtype)
/// in contiguous 1-d `a`, through `sorter` (contiguous int64, a's size, every index in
/// range) when valid().
using SearchsortedFn = void(const Array& a, const Array& v, const Array& sorter, bool right, const Array& out);
/// The most ranks one select_ranks call takes (the GPU keeps a histogram per rank in shared memory).
inline constexpr int kMaxSelectRanks = 32;
/// `out` (contiguous 1-d, x's dtype, m = ranks.size() <= kMaxSelectRanks elements) =
/// sort(x)[ranks], bit for bit (stable, NaN last: -0.0 and NaN payloads as the sort
/// leaves them) without sorting. x: contiguous 1-d, real dtype, size > 0; ranks:
/// contiguous int64 on x's device, each clamped to [0, size). CPU: std::nth_element on the
/// keys; GPU: radix selection (kernels/loom_select.cuh), no host synchronisation.
using SelectRanksFn = void(const Array& x, const Array& ranks, const Array& out);

// Its evals, declared in cpu_backend and gpu_backend (backend/eval_list.h); without CUDA
// backend/no_cuda/evals.cpp defines the GPU ones as stubs from this list.
#define LOOM_SORTING_EVALS(X)          \
  X(SortLastAxisFn, sort_last_axis, 3) \
  X(UniqueFn, unique, 5)               \
  X(CheckSorterFn, check_sorter, 2)    \
  X(SearchsortedFn, searchsorted, 5)   \
  X(SelectRanksFn, select_ranks, 3)
LOOM_DECLARE_EVALS(LOOM_SORTING_EVALS)

}  // namespace loom
