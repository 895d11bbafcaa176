// The launch of a reduction program's kernels (backend/cuda/reduce.cpp), shared by the
// eager reductions and jit's fused ones (reduce_fused.cpp): same kernels, grid and
// partial passes, so a fused reduction combines in the unfused order.
#pragma once
#include <cstddef>

#include "loom/backend/reduce_kinds.h"
#include "loom/runtime/cuda/module_cache.h"

namespace loom::gpu_backend::reduce_launch {

struct Params {  // mirrors loom_reduce_params (the start of every params struct)
  double d0, d1, d2;
  const void* aux;
};

/// The kernels' params of `kind` run with `params` (aux null).
Params params_of(ReduceKind kind, const ReduceParams& params);

/// Bytes of the device accumulator of `kind` over elements of `in`.
size_t acc_size(ReduceKind kind, DType in);

/// Runs `prog`'s reduction over the dense input `x` (null for a program with an element
/// function) into `out`, on `stream` of GPU `dev`; `params` points to the params struct
/// the program's kernels take by value.
void run(int dev, void* stream, const cuda::Program& prog, size_t acc_size, const char* x, const ReduceGeometry& g,
         void* out, void* params);

}  // namespace loom::gpu_backend::reduce_launch
