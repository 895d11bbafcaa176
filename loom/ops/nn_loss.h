// The loss family's public ops (backend/nn_loss.h has the evals): softmax cross-entropy of
// integer labels, fused, which loom.nn.losses.cross_entropy runs on (N, C) logits.
#pragma once
#include "loom/array/array.h"

namespace loom {

/// loss[r] = logsumexp(logits[r]) - logits[r, labels[r]] for logits (N, C) float32/float64
/// and integer labels (N,); NaN where a label is outside [0, C) (a device cannot raise
/// without a synchronisation, so a bad label poisons the loss instead).
Array softmax_cross_entropy(const Array& logits, const Array& labels);

/// The gradient of sum(loss * ct) with respect to the logits, given lse = logsumexp(logits)
/// per row (what the derivative rule has); zero on rows with a label out of range.
Array softmax_cross_entropy_grad(const Array& logits, const Array& labels, const Array& lse, const Array& ct);

}  // namespace loom
