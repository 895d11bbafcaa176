// Jacobians and Hessians (JAX's jacrev, jacfwd, hessian) over vjp/jvp and vmap: the basis
// of the output space (jacrev) or of the input space (jacfwd) is pushed through in one
// batched pass, as JAX builds them. Python's loom.jacrev/jacfwd/hessian (pytrees, has_aux,
// holomorphic) are the same construction (python/loom/transforms/_jacobian.py).
#pragma once
#include <vector>

#include "loom/transforms/graph.h"

namespace loom {

/// The function returning, for each output y_j of f, the Jacobian of y_j with respect to
/// argument `argnum` (shape y_j.shape + x.shape), by one vjp and its pullback vmapped over
/// the basis of y_j's space. The argument and the outputs must be real floating arrays.
ArrayFn jacrev(ArrayFn f, int argnum = 0);

/// The same Jacobians by jvp, vmapped over the basis of the argument's space (cheaper than
/// jacrev when the argument has fewer elements than the outputs).
ArrayFn jacfwd(ArrayFn f, int argnum = 0);

/// The Hessian of f's first output (a real floating scalar) with respect to argument
/// `argnum` (shape x.shape + x.shape): jacfwd of jacrev, as JAX does.
ArrayFn hessian(ArrayFn f, int argnum = 0);

}  // namespace loom
