// The convolution family's contract (DESIGN.md §2): 2-d convolution over NCHW arrays and its
// two gradients, each a primitive of its own so that grad (and grad of grad) stays within
// the family. ops/conv.cpp owns the shape and dtype rules and hands the backends contiguous
// operands of one floating dtype on one device.
// CPU: backend/cpu/conv.cpp (im2col + the BLAS GEMM of backend/cpu/linalg.cpp).
// GPU: backend/cuda/conv.cpp (cuDNN, loaded at run time when the library is there);
// stub in backend/no_cuda/evals.cpp.
#pragma once
#include <cstdint>
#include <string>

#include "loom/array/array.h"
#include "loom/array/rebind.h"
#include "loom/backend/eval_list.h"

namespace loom {

/// The hyper-parameters of a 2-d convolution (PyTorch's Conv2d arguments). Output size
/// per axis: (in + 2 * pad - dilation * (kernel - 1) - 1) / stride + 1.
struct Conv2dGeometry {
  int64_t stride[2] = {1, 1};
  int64_t padding[2] = {0, 0};
  int64_t dilation[2] = {1, 1};
  int64_t groups = 1;
  /// float32 on the GPU may use TF32 tensor cores (loom's matmul precision switch).
  bool allow_tf32 = false;
};
template <>
struct PlainTraceArg<Conv2dGeometry> : std::true_type {};

/// y (N, O, OH, OW) = the cross-correlation of x (N, C, H, W) with w (O, C/groups, KH, KW),
/// zero-padded. All three contiguous, of one floating dtype (float16/bfloat16 accumulate
/// in float32). The GPU eval writes y on the current stream of its device.
using Conv2dFn = void(const Array& x, const Array& w, const Array& y, const Conv2dGeometry& g);
/// dx (N, C, H, W) = the gradient of sum(conv2d(x, w) * dy) with respect to x (overwritten).
using Conv2dInputGradFn = void(const Array& dy, const Array& w, const Array& dx, const Conv2dGeometry& g);
/// dw (O, C/groups, KH, KW) = the gradient of sum(conv2d(x, w) * dy) with respect to w.
using Conv2dWeightGradFn = void(const Array& x, const Array& dy, const Array& dw, const Conv2dGeometry& g);

// Its evals, declared in cpu_backend and gpu_backend (backend/eval_list.h); without CUDA
// backend/no_cuda/evals.cpp defines the GPU ones as stubs from this list.
#define LOOM_CONV_EVALS(X)                     \
  X(Conv2dFn, conv2d, 4)                       \
  X(Conv2dInputGradFn, conv2d_input_grad, 4)   \
  X(Conv2dWeightGradFn, conv2d_weight_grad, 4)
LOOM_DECLARE_EVALS(LOOM_CONV_EVALS)

namespace gpu_backend {
/// The library behind the GPU convolutions on `device` ("cudnn 9.14.0"), or "" when none
/// could be loaded (the evals then raise UnsupportedError saying why). A build query.
std::string conv_library(int device);
}  // namespace gpu_backend

/// What computes convolutions on `device`: "im2col+<blas>" on a CPU, "cudnn 9.x.y" on a
/// GPU, or "" when that GPU has no convolution library (loom.nn then uses its GEMM path).
/// A build query, not an eval (backend/conv_query.cpp).
std::string conv_backend(const Device& device);

}  // namespace loom
