// The creation and conversion family's contract (DESIGN.md §2): the evals behind full,
// arange, linspace, eye, from_host and the dtype conversions (astype, copy, copyto), and
// their primitive records. loom/ops/creation.cpp, copyto.cpp and array_methods.cpp own
// every rule (shapes, dtypes, devices) and reach these through dispatch(). The CPU evals
// (backend/cpu/creation.cpp, convert.cpp) run synchronously; the GPU evals
// (backend/cuda/creation.cpp, convert.cpp; stubs in backend/no_cuda/creation_stubs.cpp)
// enqueue on the current stream of the output's device.
#pragma once
#include <cstdint>

#include "loom/array/array.h"
#include "loom/backend/primitive.h"
#include "loom/core/scalar.h"

namespace loom {

/// Sets every element of contiguous `out` to `value` (NumPy cast rules).
using FillFn = void(const Array& out, const Scalar& value);
/// Contiguous 1-d `out`: out[0] = first, out[1] = second, out[i] = first + i * (second - first)
/// computed in out's dtype (float16/bfloat16 in float), as NumPy's arange fill.
using ArangeFn = void(const Array& out, const Scalar& first, const Scalar& second);
/// Contiguous 1-d `out`: start + i * step in float64, the last one `stop` when `endpoint`,
/// then cast (integer dtypes: floor first), as NumPy's linspace.
using LinspaceFn = void(const Array& out, double start, double step, double stop, bool endpoint);
/// Contiguous 2-d `out`: ones on diagonal k, zeros elsewhere.
using EyeFn = void(const Array& out, int64_t k);
/// dst (contiguous, same shape, same device) = src (any layout) cast to dst's dtype; a
/// plain copy when the dtypes agree. The GPU eval orders itself after src's last user.
using ConvertFn = void(const Array& src, const Array& dst);
/// Host memory of any layout -> contiguous `dst` (same dtype and shape). On a GPU this is
/// gpu_runtime::upload (pinned staging, direct DMA from pinned memory).
using CopyFromHostFn = void(const HostView& src, const Array& dst);

namespace cpu_backend {
FillFn fill;
ArangeFn arange;
LinspaceFn linspace;
EyeFn eye;
ConvertFn convert;
CopyFromHostFn copy_from_host;
}  // namespace cpu_backend

namespace gpu_backend {  // NOTE: not loom::gpu, which is the function gpu(i)
FillFn fill;
ArangeFn arange;
LinspaceFn linspace;
EyeFn eye;
ConvertFn convert;
CopyFromHostFn copy_from_host;
}  // namespace gpu_backend

namespace primitives {

// The fourth field (PrimitiveInfo::complex) is true where the evals take complex arrays.
// zeros, ones, full and their _like forms all fill through full().
inline const Primitive<FillFn> full{{"full", "creation", true, true}, cpu_backend::fill, gpu_backend::fill};
inline const Primitive<ArangeFn> arange{{"arange", "creation"}, cpu_backend::arange, gpu_backend::arange};
inline const Primitive<LinspaceFn> linspace{{"linspace", "creation"}, cpu_backend::linspace,
                                            gpu_backend::linspace};
inline const Primitive<EyeFn> eye{{"eye", "creation", true, true}, cpu_backend::eye, gpu_backend::eye};
// Its input is host memory, not an operand array: hooks see only the output.
inline const Primitive<CopyFromHostFn> from_host{{"from_host", "creation", true, true}, cpu_backend::copy_from_host,
                                                 gpu_backend::copy_from_host};

// One eval, convert, under the names of the ops that call it, so that hooks see the op
// the user called. Copies between devices are no primitive: they are runtime transfers
// (array/transfer.h).
inline const Primitive<ConvertFn> astype{{"astype", "creation", true, true}, cpu_backend::convert, gpu_backend::convert};
inline const Primitive<ConvertFn> copy{{"copy", "creation", true, true}, cpu_backend::convert, gpu_backend::convert};
inline const Primitive<ConvertFn> copyto{{"copyto", "creation", true, true}, cpu_backend::convert, gpu_backend::convert};
// stop_gradient (ops/stop_gradient.h) while tracing: an identity copy that grad does not
// differentiate through.
inline const Primitive<ConvertFn> stop_gradient{{"stop_gradient", "creation", true, true}, cpu_backend::convert,
                                                gpu_backend::convert};
// copy_to_host of a CPU array converts into the caller's memory wrapped as a CPU array (a
// GPU array's is a download, a transfer). Not traceable: it hands data to the host, which
// a traced function cannot do with values it does not have yet.
inline const Primitive<ConvertFn> copy_to_host{{"copy_to_host", "creation", false, true}, cpu_backend::convert,
                                               gpu_backend::convert};

}  // namespace primitives
}  // namespace loom
