// loom::stop_gradient: x itself, through which no derivative flows (JAX's stop_gradient).
#pragma once
#include "loom/array/array.h"

namespace loom {

/// `x` as a value that grad treats as a constant. Eagerly it is `x` itself; while a
/// function is traced (grad, jit, vmap) it records an identity copy, the primitive
/// "stop_gradient", whose derivative rule passes no cotangent.
Array stop_gradient(const Array& x);

}  // namespace loom
