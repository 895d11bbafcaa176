// The part of a scan's step that does not read the carry, moved out of the loop. An RNN
// cell `h = tanh(h @ w + x @ u + b)` computes `x @ u` from the step's x and a captured
// weight alone: run once over all the xs (vmap over the scan axis: one (L*B, I) x (I, H)
// product instead of L small ones) and handed to each step as one more x, it costs a single
// launch, and each step keeps only the work that needs the carry. JAX leaves this to XLA's
// loop optimisations; here it is a rewrite of the traced body before the scan op is made,
// so jit, grad and vmap see an ordinary scan after ordinary batched ops. docs/TRANSFORMS.md
// §7 has the rules.
#pragma once
#include <vector>

#include "loom/array/array.h"
#include "loom/transforms/graph.h"

namespace loom {

struct ScanProgram;

/// Moves out of `program.body` the ops that read only the xs and captured arrays (and
/// constants), never the carry, when their values fit the size bound: runs them batched over
/// the scan axis of `xs` (C-contiguous, as the scan takes them) and returns the stacked values
/// each remaining step reads, as extra xs (C-contiguous, leading extent program.length),
/// having rewritten program.body to take them after its xs and raised program.num_xs.
/// Returns nothing, and leaves the program as it was, when no op can move.
std::vector<Array> hoist_carry_independent(ScanProgram& program, const std::vector<Array>& xs,
                                           const std::vector<Array>& captured);

/// The ops of a scan body that must stay in its step whatever they compute (here and in
/// scan_sink.h): they write an argument or a constant, or a buffer they do not own alone
/// (another op writes it too, or an earlier op touched it first).
std::vector<bool> ops_pinned_in_step(const TracedGraph& body);

}  // namespace loom
