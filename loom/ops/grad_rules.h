// What the derivative rules (in ops/<family>_primitives.cpp; dispatch/primitive.h VjpRule)
// share.
#pragma once
#include <vector>

#include "loom/array/array.h"
#include "loom/dispatch/rules.h"
#include "loom/dispatch/trace.h"

namespace loom::grad_rules {

/// A VjpRule for an identity of values (conversions, copies): the cotangent passes through,
/// cast back by the engine to the input's dtype (a complex one to a real input as its real
/// part); a broadcast source is summed by the engine.
void pass_through(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts);
/// A VjpRule for a primitive whose inputs have no derivative (indices, fills, stop_gradient).
void no_cotangent(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts);

/// Zeros laid out as `like` (same shape, strides, dtype and device) in a buffer of their
/// own that spans like's extent, so that a plan made for `like` (byte offsets, a gather
/// or scatter walk) applies to it.
Array zeros_laid_out_as(const Array& like);
/// `src` (like's shape) copied into zeros_laid_out_as(like).
Array copy_laid_out_as(const Array& src, const Array& like);

}  // namespace loom::grad_rules
