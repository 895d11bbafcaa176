// The pooling family's contract (DESIGN.md §2): 2-d max and average pooling over NCHW
// arrays and their gradients. ops/pool.cpp owns the shape and dtype rules and hands the
// backends contiguous operands of one floating dtype on one device.
// CPU: backend/cpu/pool.cpp (direct loops). GPU: backend/cuda/pool.cpp (cuDNN, where
// backend/conv.h's conv_backend names it); stub in backend/no_cuda/evals.cpp.
#pragma once
#include <cstdint>

#include "loom/array/array.h"
#include "loom/array/rebind.h"
#include "loom/backend/eval_list.h"

namespace loom {

/// Window, stride and padding of a 2-d pooling (PyTorch's MaxPool2d/AvgPool2d).
/// Output size per axis: (in + 2 * padding - kernel) / stride + 1. Padding is at most half
/// the kernel, so every window holds at least one input element.
struct Pool2dGeometry {
  int64_t kernel[2] = {1, 1};
  int64_t stride[2] = {1, 1};
  int64_t padding[2] = {0, 0};
};
template <>
struct PlainTraceArg<Pool2dGeometry> : std::true_type {};

/// y (N, C, OH, OW) = the maximum of each window of x (N, C, H, W); padding never wins
/// (it counts as -inf) and a NaN in a window is its maximum.
using MaxPool2dFn = void(const Array& x, const Array& y, const Pool2dGeometry& g);
/// dx (x's shape, overwritten) = dy routed to the element that is each window's maximum
/// (the first such in row-major order), summed where windows overlap.
using MaxPool2dGradFn = void(const Array& x, const Array& y, const Array& dy, const Array& dx,
                             const Pool2dGeometry& g);
/// y = the mean of each window, padding counted as zeros (count_include_pad=True).
using AvgPool2dFn = void(const Array& x, const Array& y, const Pool2dGeometry& g);
/// dx (overwritten) = dy / window size spread over each window (the adjoint of AvgPool2dFn).
using AvgPool2dGradFn = void(const Array& dy, const Array& dx, const Pool2dGeometry& g);

// Its evals, declared in cpu_backend and gpu_backend (backend/eval_list.h); without CUDA
// backend/no_cuda/evals.cpp defines the GPU ones as stubs from this list.
#define LOOM_POOL_EVALS(X)               \
  X(MaxPool2dFn, max_pool2d, 3)          \
  X(MaxPool2dGradFn, max_pool2d_grad, 5) \
  X(AvgPool2dFn, avg_pool2d, 3)          \
  X(AvgPool2dGradFn, avg_pool2d_grad, 3)
LOOM_DECLARE_EVALS(LOOM_POOL_EVALS)

}  // namespace loom
