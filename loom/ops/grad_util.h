// Helpers shared by the derivative rules (ops/*_grad*.cpp) and the reverse-mode engine
// (transforms/autodiff.*): fitting a cotangent to the view it belongs to. Written with public
// ops, so they are recorded when a rule runs under a trace (grad of grad, jit of grad).
#pragma once
#include "loom/array/array.h"
#include "loom/core/shape.h"
#include "loom/ops/complex.h"

namespace loom {

/// Whether values of `dtype` carry a cotangent or tangent: floats and complex numbers do;
/// integers and bool do not (JAX gives them float0, i.e. none).
inline bool has_tangent_space(DType dtype) { return is_floating(dtype) || is_complex(dtype); }

/// `ct` summed over the axes NumPy broadcasting added to reach its shape from `shape`:
/// leading axes, and axes where `shape` has 1 and `ct` does not. `ct` itself when the
/// shapes are equal. The dtype is kept (float16/bfloat16 accumulate in float32).
Array sum_to_shape(const Array& ct, const Shape& shape);

/// `a` as `dtype`: itself when it has it already, else a cast copy (astype). A complex `a`
/// cast to a real dtype gives its real part: the cotangent of a real value that an op read
/// as complex (docs/TRANSFORMS.md §6).
Array cast_to(const Array& a, DType dtype);

/// The cotangent of view `like` from `ct` (which has the broadcast shape of an op that
/// read `like`): summed to like's shape and cast to its dtype.
Array cotangent_for(const Array& ct, const Array& like);

/// The complex conjugate of a complex `a`; `a` itself (no op) otherwise.
Array conj(const Array& a);

/// A zero cotangent (or tangent) of `like`: zeros of its shape and dtype on its device.
Array zero_cotangent(const Array& like);

}  // namespace loom
