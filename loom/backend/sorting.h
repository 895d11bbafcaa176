// The sorting family's contract (sort, argsort, unique, searchsorted): each eval's
// signature, written once, and the records that ops/sorting.cpp dispatches (DESIGN.md §2).
// CPU evals: backend/cpu/sorting.cpp (synchronous). GPU evals: backend/cuda/sorting.cpp
// (CUB radix sorts + NVRTC kernels of kernels/loom_sorting.cuh), enqueued on the current
// stream of the arrays' device; stubs: backend/no_cuda/sorting_stubs.cpp.
#pragma once
#include "loom/array/array.h"
#include "loom/backend/primitive.h"

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

namespace cpu_backend {
SortLastAxisFn sort_last_axis;
UniqueFn unique;
CheckSorterFn check_sorter;
SearchsortedFn searchsorted;
}  // namespace cpu_backend

namespace gpu_backend {
SortLastAxisFn sort_last_axis;
UniqueFn unique;
CheckSorterFn check_sorter;
SearchsortedFn searchsorted;
}  // namespace gpu_backend

namespace primitives {

inline const Primitive<SortLastAxisFn> sort{{"sort", "sorting"}, cpu_backend::sort_last_axis,
                                            gpu_backend::sort_last_axis};
inline const Primitive<SortLastAxisFn> argsort{{"argsort", "sorting"}, cpu_backend::sort_last_axis,
                                               gpu_backend::sort_last_axis};
// Not traceable: the number of unique values sizes every output, and the GPU eval reads it
// back between its sort and its scatter. Splitting it would carry the sorted keys, the
// permutation and the group numbers (each backend's own layout) across the dispatch point
// for an op whose result shape depends on the data anyway.
inline const Primitive<UniqueFn> unique{{"unique", "sorting", /*traceable=*/false}, cpu_backend::unique,
                                        gpu_backend::unique};
// searchsorted with a sorter: the check is a device part of its own, whose flag ops/ reads
// back before the search (the same single wait as before the split).
inline const Primitive<CheckSorterFn> searchsorted_sorter{{"searchsorted", "sorting"}, cpu_backend::check_sorter,
                                                          gpu_backend::check_sorter};
inline const Primitive<SearchsortedFn> searchsorted{{"searchsorted", "sorting"}, cpu_backend::searchsorted,
                                                    gpu_backend::searchsorted};

}  // namespace primitives
}  // namespace loom
