// The loss family's contract (DESIGN.md §2): softmax cross-entropy of integer labels over
// the rows of a logits matrix, fused, and its gradient. ops/nn_loss.cpp owns the rules and
// hands the backends contiguous float32/float64 logits (N, C) and int64 labels (N,).
// CPU: backend/cpu/nn_loss.cpp; GPU: backend/cuda/nn_loss.cpp (NVRTC kernels of
// kernels/loom_loss.cuh); stub in backend/no_cuda/evals.cpp.
#pragma once
#include "loom/array/array.h"
#include "loom/backend/eval_list.h"

namespace loom {

/// loss[r] = logsumexp(x[r]) - x[r, labels[r]] (NaN where the label is outside [0, C)) and
/// lse[r] = logsumexp(x[r]), which the gradient reuses.
using CrossEntropyFn = void(const Array& x, const Array& labels, const Array& loss, const Array& lse);
/// dx[r, c] = ct[r] * (exp(x[r, c] - lse[r]) - (c == labels[r])), 0 on rows whose label is
/// out of range.
using CrossEntropyGradFn = void(const Array& x, const Array& labels, const Array& lse, const Array& ct,
                                const Array& dx);

// Its evals, declared in cpu_backend and gpu_backend (backend/eval_list.h); without CUDA
// backend/no_cuda/evals.cpp defines the GPU ones as stubs from this list.
#define LOOM_NN_LOSS_EVALS(X)                  \
  X(CrossEntropyFn, cross_entropy, 4)          \
  X(CrossEntropyGradFn, cross_entropy_grad, 5)
LOOM_DECLARE_EVALS(LOOM_NN_LOSS_EVALS)

}  // namespace loom
