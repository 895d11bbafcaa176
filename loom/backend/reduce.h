// The reduce family's contract (DESIGN.md §2): the evals of reductions and scans and
// their primitive records. loom/ops/reduce*.cpp, scan.cpp and norm.cpp own the rules
// (axes, dtype=, errors; reduce_kinds.h says what to compute in which dtypes) and pass a
// dense input viewed as [outer][len][inner] from in.data() (see ReduceGeometry) and a
// contiguous output. CPU: backend/cpu/reduce_*.cpp; GPU: backend/cuda/reduce.cpp, kernels
// generated from a ReductionSpec (backend/cuda/reduce_codegen.h) and compiled by NVRTC once
// per (kind, dtype), enqueued on the current stream of the arrays' GPU; stubs in
// backend/no_cuda/reduce_stubs.cpp.
#pragma once
#include "loom/array/array.h"
#include "loom/backend/primitive.h"
#include "loom/backend/reduce_kinds.h"

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

namespace cpu_backend {
ReduceFn reduce;
ScanFn scan;
}  // namespace cpu_backend
namespace gpu_backend {
ReduceFn reduce;
ScanFn scan;
}  // namespace gpu_backend

namespace primitives {

// One record per ReduceKind, indexed by it, named by the public op that runs that kind
// (the norms all come from linalg.norm). All are traceable: the result's size follows from
// the shapes alone. std is var with ReduceParams::take_sqrt and has its own record.
#define LOOM_REDUCE_PRIMITIVE(name) {{name, "reduce"}, cpu_backend::reduce, gpu_backend::reduce}
inline const Primitive<ReduceFn> reduce[] = {
    LOOM_REDUCE_PRIMITIVE("sum"),    LOOM_REDUCE_PRIMITIVE("prod"),   LOOM_REDUCE_PRIMITIVE("min"),
    LOOM_REDUCE_PRIMITIVE("max"),    LOOM_REDUCE_PRIMITIVE("any"),    LOOM_REDUCE_PRIMITIVE("all"),
    LOOM_REDUCE_PRIMITIVE("argmin"), LOOM_REDUCE_PRIMITIVE("argmax"), LOOM_REDUCE_PRIMITIVE("mean"),
    LOOM_REDUCE_PRIMITIVE("var"),    LOOM_REDUCE_PRIMITIVE("norm"),   LOOM_REDUCE_PRIMITIVE("norm"),
    LOOM_REDUCE_PRIMITIVE("norm"),   LOOM_REDUCE_PRIMITIVE("norm"),   LOOM_REDUCE_PRIMITIVE("norm"),
    LOOM_REDUCE_PRIMITIVE("norm"),
};
static_assert(sizeof(reduce) / sizeof(reduce[0]) == kNumReduceKinds, "one record per ReduceKind");
inline const Primitive<ReduceFn> reduce_std = LOOM_REDUCE_PRIMITIVE("std");
#undef LOOM_REDUCE_PRIMITIVE

/// The record of `kind` run with `params`.
inline const Primitive<ReduceFn>& reduce_of(ReduceKind kind, const ReduceParams& params) {
  return kind == ReduceKind::var && params.take_sqrt ? reduce_std : reduce[static_cast<int>(kind)];
}

// One record per ScanKind, indexed by it.
inline const Primitive<ScanFn> scan[2] = {
    {{"cumsum", "reduce"}, cpu_backend::scan, gpu_backend::scan},
    {{"cumprod", "reduce"}, cpu_backend::scan, gpu_backend::scan},
};

}  // namespace primitives
}  // namespace loom
