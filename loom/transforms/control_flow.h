// Control flow that stays inside a trace (JAX's lax): a loop, scan or switch written with
// these is one op of the traced function (transforms/control_flow_primitives.h), not Python
// or C++ control flow unrolled into it, so jit compiles a function with a loop whose trip
// count depends on the data, vmap batches it and grad differentiates it. Also
// checkpoint and custom_vjp, functions run as one op with a derivative rule of their own.
// docs/TRANSFORMS.md §7 and §9 have the design.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "loom/transforms/graph.h"

namespace loom::lax {

/// JAX's lax.while_loop: `carry = init; while (cond(carry)) carry = body(carry); return carry`.
/// `cond` returns one bool array of shape (); `body` returns arrays of the carry's shapes,
/// dtypes and device. Both are traced once per call (they may read arrays from outside,
/// under an enclosing trace too), and the loop runs as one op. Under vmap a batched
/// predicate keeps every example looping until the last is done, each stopping where its own
/// predicate failed. grad runs the loop again when the derivative runs, keeping each
/// iteration's carry (the trip count is known then; JAX refuses reverse mode here), and jvp
/// is the tangent loop, as in JAX; reverse over reverse is refused (docs/TRANSFORMS.md §7).
std::vector<Array> while_loop(const ArrayFn& cond, const ArrayFn& body, const std::vector<Array>& init);

/// What scan returns: the final carry and the stacked ys (each of shape (length, *y.shape)).
struct ScanResult {
  std::vector<Array> carry, ys;
};

/// JAX's lax.scan: `carry = init; for t in 0..length: (carry, ys[t]) = f(carry, x[t])`, x[t]
/// the t-th slice along the leading axis of each of `xs`; from the last t back to the first
/// when `reverse` (ys[t] still belongs to x[t]). `f` takes the carry's arrays then the x
/// slices and returns the next carry (the carry's shapes, dtypes and device) then the ys.
/// `length` is the leading extent of every x (required when xs is empty). It is traced once
/// and runs as one op; grad differentiates it (the backward pass is a scan running the other
/// way over the steps' pullbacks, with each step's carry recomputed by a forward scan), and
/// vmap batches it.
ScanResult scan(const ArrayFn& f, const std::vector<Array>& init, const std::vector<Array>& xs,
                std::optional<int64_t> length = std::nullopt, bool reverse = false);

/// JAX's lax.switch: branches[clamp(index, 0, n - 1)](operands). `index` is an integer or
/// bool scalar array (a traced one too); each branch takes the operands and returns arrays of
/// the same shapes, dtypes and devices in every branch. Every branch is traced once and the
/// choice runs as one op that runs one branch; grad differentiates the branch taken (the
/// index has no derivative); under vmap a batched index runs every branch and selects each
/// example's result, as JAX does.
std::vector<Array> switch_(const Array& index, const std::vector<ArrayFn>& branches, const std::vector<Array>& operands);

/// JAX's lax.cond: true_fn(operands) if pred else false_fn(operands), as switch_(pred,
/// {false_fn, true_fn}, operands).
std::vector<Array> cond(const Array& pred, const ArrayFn& true_fn, const ArrayFn& false_fn,
                        const std::vector<Array>& operands);

/// The loop body of fori_loop: the index (an int64 scalar array) and the carry.
using ForiBody = std::function<std::vector<Array>(const Array& i, const std::vector<Array>& carry)>;

/// JAX's lax.fori_loop: `for (i = lower; i < upper; ++i) carry = body(i, carry)`. With array
/// bounds (known only at run time) a while_loop over (i, carry); with integer bounds, as JAX
/// does, a scan of upper - lower steps, which grad can differentiate.
std::vector<Array> fori_loop(const Array& lower, const Array& upper, const ForiBody& body,
                             const std::vector<Array>& init);
std::vector<Array> fori_loop(int64_t lower, int64_t upper, const ForiBody& body, const std::vector<Array>& init);

}  // namespace loom::lax

namespace loom {

/// JAX's checkpoint (remat): the same function, whose forward values grad does not keep. It
/// runs as one op (fn traced once per call, compiled); the op's derivative rule runs fn
/// again under vjp, so reverse mode stores fn's arguments and results only and recomputes
/// the rest in the backward pass, trading compute for memory.
ArrayFn checkpoint(ArrayFn fn);

/// JAX's custom_vjp as one op: `fwd` maps args to the function's outputs followed by its
/// residuals (num_out() outputs, known once fwd is traced: it is asked after); the op runs fwd
/// and returns the outputs (all arrays: outputs, then residuals). When reverse mode reaches
/// it, `bwd` gets (residual..., output cotangent...) and returns one cotangent per arg (of its
/// shape and dtype): the derivative is bwd's, whatever it computes (clipping included), to
/// any order (bwd's own ops are differentiated as any others). Arrays fwd closes over get
/// no cotangent. vmap batches fwd and bwd.
std::vector<Array> custom_vjp_call(const ArrayFn& fwd, ArrayFn bwd, const std::vector<Array>& args,
                                   const std::function<size_t()>& num_out);

/// JAX's custom_jvp as one op: returns fn(args). Its derivative is `jvp`'s: jvp maps
/// (primal arg..., tangent arg...) to one tangent per output, linearly in the tangents (JAX's
/// contract); forward mode uses that map, reverse mode its transpose (a vjp of jvp in the
/// tangents), and jvp's own ops are differentiated for higher orders. Arrays fn closes over
/// get no derivative. vmap batches fn and jvp.
std::vector<Array> custom_jvp_call(const ArrayFn& fn, ArrayFn jvp, const std::vector<Array>& args);

}  // namespace loom
