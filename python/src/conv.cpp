// The ops loom.nn is built on: conv2d, max_pool2d, avg_pool2d and their gradients (Conv2d,
// MaxPool2d, AvgPool2d), the fused softmax cross-entropy (nn.losses.cross_entropy), and the
// query of what computes convolutions on a device. The Python layer (loom/nn/conv.py) turns
// PyTorch's int-or-pair and 'same'/'valid' arguments into the pairs taken here.
#include <array>
#include <string>

#include "bindings.h"
#include "loom/backend/conv.h"
#include "loom/ops/conv.h"
#include "loom/ops/nn_loss.h"
#include "loom/ops/pool.h"

#include <nanobind/stl/array.h>
#include <nanobind/stl/string.h>

namespace loom::py {
namespace {

using Pair = std::array<int64_t, 2>;

Conv2dGeometry geometry(Pair stride, Pair padding, Pair dilation, int64_t groups) {
  Conv2dGeometry g;
  for (int i = 0; i < 2; ++i) g.stride[i] = stride[i], g.padding[i] = padding[i], g.dilation[i] = dilation[i];
  g.groups = groups;
  return g;
}

Pool2dGeometry pool(Pair kernel, Pair stride, Pair padding) {
  Pool2dGeometry g;
  for (int i = 0; i < 2; ++i) g.kernel[i] = kernel[i], g.stride[i] = stride[i], g.padding[i] = padding[i];
  return g;
}

}  // namespace

LOOM_BINDING_FAMILY(conv, 35) {
  m.def(
      "conv2d",
      [](const Array& x, const Array& w, Pair stride, Pair padding, Pair dilation, int64_t groups) {
        nb::gil_scoped_release release;
        return conv2d(x, w, geometry(stride, padding, dilation, groups));
      },
      nb::arg("x"), nb::arg("weight"), nb::arg("stride") = Pair{1, 1}, nb::arg("padding") = Pair{0, 0},
      nb::arg("dilation") = Pair{1, 1}, nb::arg("groups") = 1,
      "The 2-d convolution (cross-correlation, as PyTorch's) of x (N, C, H, W) with weight "
      "(O, C/groups, KH, KW), zero-padded: (N, O, OH, OW). cuDNN on a GPU, im2col and the BLAS "
      "on a CPU. Differentiable, batchable and traceable.");
  m.def(
      "conv2d_input_grad",
      [](const Array& dy, const Array& w, nb::handle input_shape, Pair stride, Pair padding, Pair dilation,
         int64_t groups) {
        const Shape s = to_shape(input_shape);
        nb::gil_scoped_release release;
        return conv2d_input_grad(dy, w, s, geometry(stride, padding, dilation, groups));
      },
      nb::arg("dy"), nb::arg("weight"), nb::arg("input_shape"), nb::arg("stride") = Pair{1, 1},
      nb::arg("padding") = Pair{0, 0}, nb::arg("dilation") = Pair{1, 1}, nb::arg("groups") = 1,
      "The gradient of sum(conv2d(x, weight) * dy) with respect to x of shape input_shape "
      "(a transposed convolution).");
  m.def(
      "conv2d_weight_grad",
      [](const Array& x, const Array& dy, nb::handle weight_shape, Pair stride, Pair padding, Pair dilation,
         int64_t groups) {
        const Shape s = to_shape(weight_shape);
        nb::gil_scoped_release release;
        return conv2d_weight_grad(x, dy, s, geometry(stride, padding, dilation, groups));
      },
      nb::arg("x"), nb::arg("dy"), nb::arg("weight_shape"), nb::arg("stride") = Pair{1, 1},
      nb::arg("padding") = Pair{0, 0}, nb::arg("dilation") = Pair{1, 1}, nb::arg("groups") = 1,
      "The gradient of sum(conv2d(x, weight) * dy) with respect to a weight of weight_shape.");
  m.def(
      "max_pool2d",
      [](const Array& x, Pair kernel_size, Pair stride, Pair padding) {
        nb::gil_scoped_release release;
        return max_pool2d(x, pool(kernel_size, stride, padding));
      },
      nb::arg("x"), nb::arg("kernel_size"), nb::arg("stride"), nb::arg("padding") = Pair{0, 0},
      "The maximum of each window of x (N, C, H, W); padding never wins, a NaN is a window's maximum.");
  m.def(
      "max_pool2d_grad",
      [](const Array& x, const Array& y, const Array& dy, Pair kernel_size, Pair stride, Pair padding) {
        nb::gil_scoped_release release;
        return max_pool2d_grad(x, y, dy, pool(kernel_size, stride, padding));
      },
      nb::arg("x"), nb::arg("y"), nb::arg("dy"), nb::arg("kernel_size"), nb::arg("stride"),
      nb::arg("padding") = Pair{0, 0},
      "The gradient of sum(max_pool2d(x) * dy) with respect to x, y being max_pool2d(x): dy routed to "
      "each window's (first) maximum.");
  m.def(
      "avg_pool2d",
      [](const Array& x, Pair kernel_size, Pair stride, Pair padding) {
        nb::gil_scoped_release release;
        return avg_pool2d(x, pool(kernel_size, stride, padding));
      },
      nb::arg("x"), nb::arg("kernel_size"), nb::arg("stride"), nb::arg("padding") = Pair{0, 0},
      "The mean of each window of x (N, C, H, W), padding counted as zeros (count_include_pad=True).");
  m.def(
      "avg_pool2d_grad",
      [](const Array& dy, nb::handle input_shape, Pair kernel_size, Pair stride, Pair padding) {
        const Shape s = to_shape(input_shape);
        nb::gil_scoped_release release;
        return avg_pool2d_grad(dy, s, pool(kernel_size, stride, padding));
      },
      nb::arg("dy"), nb::arg("input_shape"), nb::arg("kernel_size"), nb::arg("stride"),
      nb::arg("padding") = Pair{0, 0}, "The gradient of sum(avg_pool2d(x) * dy) with respect to x.");
  m.def(
      "softmax_cross_entropy",
      [](const Array& logits, const Array& labels) {
        nb::gil_scoped_release release;
        return softmax_cross_entropy(logits, labels);
      },
      nb::arg("logits"), nb::arg("labels"),
      "Per row of logits (N, C) (float32/float64): logsumexp(logits[r]) - logits[r, labels[r]], one "
      "fused op with a fused gradient; NaN where a label is outside [0, C).");
  m.def("conv_backend", &conv_backend, nb::arg("device"),
        "What computes convolutions and pooling on device: 'im2col+<blas>' on a CPU, 'cudnn 9.x.y' on a GPU, "
        "or '' when no convolution library could be loaded there (loom.nn then uses its GEMM path).");
}

}  // namespace loom::py
