// CPU evals of reductions and scans. Same contract as backend/gpu_reduce.h: the ops
// layer (loom/ops/reduce*.cpp) has checked everything and passes a dense input viewed as
// [outer][len][inner] from in.data() (see ReduceGeometry) and a contiguous output.
#pragma once
#include "loom/array/array.h"
#include "loom/backend/reduce_kinds.h"

namespace loom::cpu_backend {

/// out[o][i] = kind over r of in[o][r][i]; out has dtype reduce_out_dtype(kind, in.dtype())
/// and outer * inner elements. len may be 0 (the kind's identity, then its post-map).
void reduce(const Array& in, const ReduceGeometry& g, ReduceKind kind, const ReduceParams& params,
            const Array& out);
/// out[o][r][i] = inclusive scan over r of in[o][·][i]; out (contiguous, same geometry) has
/// dtype reduce_out_dtype(scan_reduce_kind(kind), in.dtype()).
void scan(const Array& in, const ReduceGeometry& g, ScanKind kind, const Array& out);

}  // namespace loom::cpu_backend
