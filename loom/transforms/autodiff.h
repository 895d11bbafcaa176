// Reverse- and forward-mode differentiation of functions of arrays (docs/TRANSFORMS.md):
// loom::vjp, loom::jvp, loom::grad, loom::value_and_grad. The function is traced into its
// primitives (graph.h), run forward keeping every record's values (autodiff_forward.h),
// then walked backwards calling each primitive's VjpRule (dispatch/rules.h) with one
// cotangent buffer per buffer of the trace. The rules are written with public ops, so the
// backward pass is itself traced under an enclosing transform: grad(grad(f)), jit(grad(f))
// and vmap(grad(f)) compose. Only floating dtypes carry cotangents; an integer input's
// gradient is zeros of its dtype.
#pragma once
#include <functional>
#include <utility>
#include <vector>

#include "loom/transforms/graph.h"

namespace loom {

/// vjp(f, primals): f's outputs at `primals` and the function that maps cotangents of the
/// outputs (one per output, of its shape; an invalid Array for zero) to the cotangents of
/// the primals (J^T ct). The returned function may be called any number of times.
std::pair<std::vector<Array>, ArrayFn> vjp(const ArrayFn& f, const std::vector<Array>& primals);

/// Called during a backward pass with an argument's index and its cotangent as soon as
/// that cotangent is final (after the rule of the first record that reads the argument),
/// while the rest of the backward pass is still to be enqueued. The array is the one the
/// pullback returns for that argument, and nothing else in the pass refers to it: the
/// callback may write into it (nn.DistributedDataParallel averages it over the ranks in
/// place). Arguments last (the ones no record reads, or one writes into) come at the end.
using GradReadyHook = std::function<void(size_t argument, const Array& cotangent)>;
using HookedPullback = std::function<std::vector<Array>(const std::vector<Array>& cts, const GradReadyHook& ready)>;

/// vjp whose pullback takes a GradReadyHook (which may be empty).
std::pair<std::vector<Array>, HookedPullback> vjp_with_hook(const ArrayFn& f, const std::vector<Array>& primals);

/// jvp(f, primals, tangents): f's outputs and their tangents J t (one tangent per primal,
/// of its shape; an invalid Array for zero). Computed by transposing the vjp (which is
/// linear in its cotangents), so it needs only the primitives' VjpRules.
std::pair<std::vector<Array>, std::vector<Array>> jvp(const ArrayFn& f, const std::vector<Array>& primals,
                                                      const std::vector<Array>& tangents);

/// The function of `f`'s arguments that returns the gradients of f's first output (a
/// floating scalar) with respect to the arguments `argnums`, in that order.
ArrayFn grad(ArrayFn f, std::vector<int> argnums = {0});

/// Like grad, returning (f's outputs, the gradients of its first output).
using ValueAndGradFn = std::function<std::pair<std::vector<Array>, std::vector<Array>>(const std::vector<Array>&)>;
ValueAndGradFn value_and_grad(ArrayFn f, std::vector<int> argnums = {0});

}  // namespace loom
