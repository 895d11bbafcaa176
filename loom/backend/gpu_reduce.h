// GPU evals of reductions and scans (backend/cuda/reduce.cpp; stubs that throw
// UnsupportedError in backend/no_cuda/reduce_stubs.cpp). Same contract as
// backend/cpu/reduce.h; work is enqueued on the current stream of the arrays' GPU.
// Kernels are generated from a ReductionSpec (backend/cuda/reduce_codegen.h) and
// compiled by NVRTC once per (kind, dtype).
#pragma once
#include "loom/array/array.h"
#include "loom/backend/reduce_kinds.h"

namespace loom::gpu_backend {

/// out[o][i] = kind over r of in[o][r][i] (see cpu_backend::reduce). Deterministic: no
/// float atomics; the grid depends only on the sizes and the GPU's SM count.
void reduce(const Array& in, const ReduceGeometry& g, ReduceKind kind, const ReduceParams& params,
            const Array& out);
/// out[o][r][i] = inclusive scan over r (see cpu_backend::scan).
void scan(const Array& in, const ReduceGeometry& g, ScanKind kind, const Array& out);

}  // namespace loom::gpu_backend
