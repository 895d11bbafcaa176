// The convolution family's public ops (backend/conv.h has the evals): 2-d convolution of
// NCHW arrays with PyTorch's semantics (cross-correlation, zero padding, groups), and its
// gradients, which the grad rules (ops/conv_grad.cpp) and loom.nn use.
#pragma once
#include <string>

#include "loom/array/array.h"
#include "loom/backend/conv.h"

namespace loom {

/// x (N, C, H, W) convolved with w (O, C/groups, KH, KW): (N, O, OH, OW). Floating dtypes,
/// promoted to one; g.allow_tf32 is taken from set_matmul_precision. Raises ValueError
/// for shapes that do not fit, DTypeError for integers, DeviceMismatchError across devices.
Array conv2d(const Array& x, const Array& w, const Conv2dGeometry& g = {});
/// The gradient of sum(conv2d(x, w, g) * dy) with respect to x, for x of `input_shape`.
Array conv2d_input_grad(const Array& dy, const Array& w, const Shape& input_shape, const Conv2dGeometry& g = {});
/// The same with respect to w, for w of `weight_shape`.
Array conv2d_weight_grad(const Array& x, const Array& dy, const Shape& weight_shape, const Conv2dGeometry& g = {});

}  // namespace loom
