// The indexing family's contract (getitem, setitem, x.at[...], nonzero, count_nonzero):
// each eval's signature, written once, and the records that ops/indexing.cpp and
// ops/indexing_nonzero.cpp dispatch (DESIGN.md §2). The plan types are in backend/indexing_plan.h.
// CPU evals: backend/cpu/indexing.cpp, nonzero.cpp. GPU evals: backend/cuda/indexing.cpp,
// nonzero.cpp (they enqueue on the current stream of the arrays' device and never wait
// for it); stubs: backend/no_cuda/evals.cpp.
//
// No eval reads device data back: the two data-dependent sizes of the family (an
// out-of-bounds index, the number of nonzero elements) are left in device arrays, and
// ops/ reads that one word between two dispatches. So every record is traceable.
#pragma once
#include <cstdint>

#include "loom/array/array.h"
#include "loom/backend/eval_list.h"
#include "loom/backend/indexing_plan.h"

namespace loom {

/// out[b] = sum_j wrap(idx_j[b]) * byte_strides[j] for b < n, where out is contiguous
/// int64 of n + 1 elements on the indices' device. out[n] = j * n + b of the first
/// out-of-bounds index (the smallest such key), or -1 when every index is in bounds
/// (the offsets are then unspecified). ops/ reads out[n] back to raise IndexError.
using IndexOffsetsFn = void(const IndexArrays& ix, const Array& out);
/// out (contiguous, x's dtype) = the elements at src.data() + offsets[b] + walk(layout).
using GatherFn = void(const Array& src, const Array& offsets, const IndexLayout& layout, const Array& out);
/// out (contiguous, src's dtype, the index shape's size) = the element of src at
/// sum_j wrap(idx_j[b]) * byte_strides[j] for each b, in one pass: the gather of a result that
/// is the index shape alone. `bad` (int64 (1,), the indices' device) = the first
/// out-of-bounds key as IndexOffsetsFn writes it, or -1; the reads are clamped meanwhile.
using GatherIndexedFn = void(const Array& src, const IndexArrays& ix, const Array& out, const Array& bad);
/// The elements of dst (a view) at offsets[b] + walk(layout) combined with `values`
/// (contiguous, dst's dtype, the walk's size). `offsets` may be invalid (all zero). On the
/// GPU, with mode set and repeated offsets, which write wins is unspecified.
using ScatterFn = void(const Array& dst, const Array& offsets, const IndexLayout& layout, const Array& values,
                       ScatterMode mode);
/// The nonzero elements of contiguous `a` (size > 0) counted per chunk (the backend picks
/// the chunk size): int64 (chunks + 1,) on a's device, each chunk's first position among
/// the nonzero elements, then the total, which ops/ reads back.
using NonzeroStartsFn = Array(const Array& a);
/// out (contiguous int64 (a.ndim(), total)) = the indices of the nonzero elements of
/// contiguous `a`, C order, placed by `starts` from NonzeroStartsFn (invalid when out is
/// empty: nothing is read or written then).
using NonzeroFn = void(const Array& a, const Array& starts, const Array& out);

// Its evals, declared in cpu_backend and gpu_backend (backend/eval_list.h); without CUDA
// backend/no_cuda/evals.cpp defines the GPU ones as stubs from this list.
#define LOOM_INDEXING_EVALS(X)          \
  X(IndexOffsetsFn, index_offsets, 2)   \
  X(GatherFn, gather, 4)                \
  X(GatherIndexedFn, gather_indexed, 4) \
  X(ScatterFn, scatter, 5)              \
  X(NonzeroStartsFn, nonzero_starts, 1) \
  X(NonzeroFn, nonzero, 3)
LOOM_DECLARE_EVALS(LOOM_INDEXING_EVALS)

}  // namespace loom
