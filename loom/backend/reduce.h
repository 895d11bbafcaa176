// The reduce family's contract (DESIGN.md §2): the evals of reductions and scans and
// their primitive records. loom/ops/reduce*.cpp, scan.cpp and norm.cpp own the rules
// (axes, dtype=, errors; reduce_kinds.h says what to compute in which dtypes) and pass a
// dense input viewed as [outer][len][inner] from in.data() (see ReduceGeometry) and a
// contiguous output. CPU: backend/cpu/reduce_*.cpp; GPU: backend/cuda/reduce.cpp, kernels
// generated from a ReductionSpec (backend/cuda/reduce_codegen.h) and compiled by NVRTC once
// per (kind, dtype), enqueued on the current stream of the arrays' GPU; stubs in
// backend/no_cuda/evals.cpp.
#pragma once
#include <memory>
#include <vector>

#include "loom/array/array.h"
#include "loom/backend/eval_list.h"
#include "loom/backend/reduce_kinds.h"
#include "loom/core/scalar.h"
#include "loom/graph/fused_graph.h"

namespace loom {

/// out[o][i] = kind over r of in[o][r][i]; out has dtype reduce_out_dtype(kind, in.dtype())
/// and outer * inner elements. len may be 0 (the kind's identity, then its post-map).
/// Deterministic on both devices: no float atomics; the GPU's grid depends only on the
/// sizes and the GPU's SM count.
using ReduceFn = void(const Array& in, const ReduceGeometry& g, ReduceKind kind, const ReduceParams& params,
                      const Array& out);
/// out[o][r][i] = inclusive scan over r of in[o][·][i]; out (contiguous, same geometry) has
/// dtype reduce_out_dtype(scan_reduce_kind(kind), in.dtype()).
using ScanFn = void(const Array& in, const ReduceGeometry& g, ScanKind kind, const Array& out);

/// A reduction fused by loom.jit's compiler (transforms/compile_reduce.h) with the
/// elementwise group that produces its input (the prologue, `pre`) and/or the one that
/// consumes its result (the epilogue, `post`). The intermediates are never stored.
///  - pre: one output, of dtype `elem`, the element the reduction reads. Element k of the
///    dense [outer][len][inner] input (memory order) is pre evaluated at flat index k of
///    its inputs: in[i] is C-contiguous with outer*len*inner elements, or has all strides 0
///    (one element for all); `param` inputs take scalar[i]. Without pre, in[0] is the
///    reduction's dense input, as ReduceFn's `in`.
///  - post: one output, written to `out` (C-contiguous, outer*inner elements); its input
///    `post_value` is the reduction's result (reduce_out_dtype(kind, elem)); the other
///    inputs are C-contiguous arrays of out's size, all-zero-stride arrays or scalars.
///    Without post, out receives the reduction's result.
struct FusedReduceCall {
  std::shared_ptr<const FusedGraph> pre, post;
  uint64_t pre_hash = 0, post_hash = 0;  // graph_hash of each, computed once when compiled
  std::vector<Array> in;                 // per pre input (invalid for params)
  std::vector<Scalar> scalar;
  DType elem = float32;
  ReduceGeometry geom;
  ReduceKind kind = ReduceKind::sum;
  ReduceParams params;
  int post_value = -1;
  std::vector<Array> post_in;  // per post input (invalid for params and at post_value)
  std::vector<Scalar> post_scalar;
  Array out;
};

inline void rebind_arg(FusedReduceCall& c, const BufferMap& map) {
  rebind_arg(c.in, map);
  rebind_arg(c.post_in, map);
  rebind_arg(c.out, map);
}

/// Computes a fused reduction. CPU: the prologue evaluated block by block into scratch
/// that the reduction engine reads (backend/cpu/reduce_fused.cpp); GPU: one generated
/// reduction program whose kernels compute each element from the prologue's inputs and
/// apply the epilogue in their final write (backend/cuda/reduce_fused.cpp).
using FusedReduceFn = void(const FusedReduceCall& call);

// Its evals, declared in cpu_backend and gpu_backend (backend/eval_list.h); without CUDA
// backend/no_cuda/evals.cpp defines the GPU ones as stubs from this list.
#define LOOM_REDUCE_EVALS(X)        \
  X(ReduceFn, reduce, 5)            \
  X(ScanFn, scan, 4)                \
  X(FusedReduceFn, fused_reduce, 1)
LOOM_DECLARE_EVALS(LOOM_REDUCE_EVALS)

}  // namespace loom
