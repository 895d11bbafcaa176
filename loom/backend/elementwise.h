// The elementwise family's contract (DESIGN.md §2): one op application as the backends
// receive it, the eval that computes it, and one primitive record per op-table entry.
// loom/ops/elementwise.cpp owns the rules: it has resolved dtypes (NumPy 2 / NEP 50),
// broadcast the inputs to the output's shape and checked devices. Backends cast each
// input to its loop dtype and the result to out's dtype on the fly, so no temporary
// arrays are made for mixed dtypes. CPU: backend/cpu/elementwise.cpp (the op table's
// loops); GPU: backend/cuda/elementwise.cpp (a kernel generated from the op table,
// compiled by NVRTC once and cached); backend/no_cuda/evals.cpp without CUDA.
#pragma once
#include <memory>
#include <vector>

#include "loom/array/array.h"
#include "loom/array/rebind.h"
#include "loom/backend/eval_list.h"
#include "loom/core/scalar.h"
#include "loom/graph/fused_graph.h"
#include "loom/graph/op_table.h"

namespace loom {

struct ElementwiseCall {
  OpId op = OpId::copy;
  DType loop = float32;  // computation dtype (op_table.h); input_loop_dtype() per input
  int nin = 1;
  Array in[3];             // broadcast to out's shape (stride 0 where broadcast)
  bool is_scalar[3] = {false, false, false};
  Scalar scalar[3];        // weak scalars, cast to the input's loop dtype by the backend
  Array out;               // any strided view; its dtype may differ from the result dtype
};

inline void rebind_arg(ElementwiseCall& c, const BufferMap& map) {
  for (int i = 0; i < c.nin; ++i) rebind_arg(c.in[i], map);
  rebind_arg(c.out, map);
}

/// Computes `call` into call.out. CPU: inputs cast in small buffers, rows split over the
/// thread pool for large arrays. GPU: enqueued on the current stream of out's device.
using ElementwiseFn = void(const ElementwiseCall& call);

/// A fused group of elementwise ops (loom.jit, transforms/compile.h): one FusedGraph run as
/// one op. in[i] feeds graph input i (an array broadcast to the outputs' shape, or the
/// weak scalar scalar[i] for a `param` input); out[k] receives graph output k. The
/// graph's array inputs are all of kind `array`: the GPU eval picks `uniform` by strides.
struct FusedCall {
  std::shared_ptr<const FusedGraph> graph;
  uint64_t hash = 0;  // graph_hash(*graph), computed once when compiled
  std::vector<Array> in;
  std::vector<Scalar> scalar;
  std::vector<Array> out;
};

inline void rebind_arg(FusedCall& c, const BufferMap& map) {
  rebind_arg(c.in, map);
  rebind_arg(c.out, map);
}

/// Computes every output of `call`. CPU: graph/cpu_eval.h's fused loops. GPU: one
/// generated kernel (backend/cuda/elementwise_fused.cpp), enqueued on out's stream.
using FusedFn = void(const FusedCall& call);

// Its evals, declared in cpu_backend and gpu_backend (backend/eval_list.h); without CUDA
// backend/no_cuda/evals.cpp defines the GPU ones as stubs from this list.
#define LOOM_ELEMENTWISE_EVALS(X)  \
  X(ElementwiseFn, elementwise, 1) \
  X(FusedFn, fused, 1)
LOOM_DECLARE_EVALS(LOOM_ELEMENTWISE_EVALS)

namespace gpu_backend {
/// How many fused calls ran node by node while their kernel compiled in the background
/// (runtime/background_compile.h); for tests.
uint64_t fused_runs_unfused();
}  // namespace gpu_backend

}  // namespace loom
