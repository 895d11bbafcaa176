// The derivative rules of the families outside the op table (ops/<family>_grad.cpp), each
// registered by its family's function; register_grad_rules (ops/transform_rules.h) calls
// them all. Shared helpers of those rules are here too.
#pragma once
#include <vector>

#include "loom/array/array.h"
#include "loom/dispatch/rules.h"

namespace loom::grad_rules {

void register_reduce();    // reduce_grad.cpp: reductions, norms, scans
void register_linalg();    // linalg_grad.cpp: matmul
void register_creation();  // creation_grad.cpp: conversions, stop_gradient, fills
void register_indexing();  // indexing_grad.cpp: getitem, setitem, at
void register_shape();     // shape_grad.cpp: repeat
void register_sorting();   // sorting_grad.cpp: sort
void register_conv();      // conv_grad.cpp: conv2d and its gradients
void register_pool();      // pool_grad.cpp: max and average pooling
void register_nn_loss();   // nn_loss_grad.cpp: the fused softmax cross-entropy
void register_linalg_decomp();  // linalg_decomp_grad.cpp: solve, slogdet, cholesky, eigh
void register_counting();  // counting_grad.cpp: bincount's and histogram's weights
void register_fft();       // fft_grad.cpp: the three FFT primitives

/// A VjpRule for a primitive whose inputs have no derivative (indices, fills, stop_gradient).
void no_cotangent(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts);

/// Zeros laid out as `like` (same shape, strides, dtype and device) in a buffer of their
/// own that spans like's extent, so that a plan made for `like` (byte offsets, a gather
/// or scatter walk) applies to it.
Array zeros_laid_out_as(const Array& like);
/// `src` (like's shape) copied into zeros_laid_out_as(like).
Array copy_laid_out_as(const Array& src, const Array& like);

}  // namespace loom::grad_rules
