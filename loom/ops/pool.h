// The pooling family's public ops (backend/pool.h has the evals): 2-d max and average
// pooling of NCHW arrays with PyTorch's semantics, and their gradients.
#pragma once
#include "loom/array/array.h"
#include "loom/backend/pool.h"

namespace loom {

/// The maximum of each window of x (N, C, H, W): (N, C, OH, OW). Padding never wins; a NaN
/// in a window is its maximum. ValueError for shapes that do not fit.
Array max_pool2d(const Array& x, const Pool2dGeometry& g);
/// The gradient of sum(max_pool2d(x) * dy) with respect to x (y = max_pool2d(x)).
Array max_pool2d_grad(const Array& x, const Array& y, const Array& dy, const Pool2dGeometry& g);
/// The mean of each window, padding counted as zeros (count_include_pad=True).
Array avg_pool2d(const Array& x, const Pool2dGeometry& g);
/// The gradient of sum(avg_pool2d(x) * dy) with respect to x of `input_shape`.
Array avg_pool2d_grad(const Array& dy, const Shape& input_shape, const Pool2dGeometry& g);

}  // namespace loom
