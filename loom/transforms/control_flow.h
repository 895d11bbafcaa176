// Control flow that stays inside a trace (JAX's lax): a loop written with these is one op
// of the traced function (transforms/control_flow_primitives.h), not Python or C++ control
// flow unrolled into it, so jit compiles a function with a loop whose trip count depends on
// the data, and vmap batches it. docs/TRANSFORMS.md §7 has the design.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "loom/transforms/graph.h"

namespace loom::lax {

/// JAX's lax.while_loop: `carry = init; while (cond(carry)) carry = body(carry); return carry`.
/// `cond` returns one bool array of shape (); `body` returns arrays of the carry's shapes,
/// dtypes and device. Both are traced once per call (they may read arrays from outside,
/// under an enclosing trace too), and the loop runs as one op. Under vmap a batched
/// predicate keeps every example looping until the last is done, each stopping where its own
/// predicate failed. Reverse-mode differentiation is refused: the trip count is decided at
/// run time (a C++ loop, which the trace unrolls, can be differentiated).
std::vector<Array> while_loop(const ArrayFn& cond, const ArrayFn& body, const std::vector<Array>& init);

/// The loop body of fori_loop: the index (an int64 scalar array) and the carry.
using ForiBody = std::function<std::vector<Array>(const Array& i, const std::vector<Array>& carry)>;

/// JAX's lax.fori_loop: `for (i = lower; i < upper; ++i) carry = body(i, carry)`, as a
/// while_loop over (i, carry). `lower` and `upper` are int64 scalars or 0-d integer arrays.
std::vector<Array> fori_loop(const Array& lower, const Array& upper, const ForiBody& body,
                             const std::vector<Array>& init);
std::vector<Array> fori_loop(int64_t lower, int64_t upper, const ForiBody& body, const std::vector<Array>& init);

}  // namespace loom::lax
