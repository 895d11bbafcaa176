// Convolutions: conv2d and its two gradients (loom.nn builds Conv2d on them), and the
// query of what computes them on a device. The Python layer (loom/nn/conv.py) turns
// PyTorch's int-or-pair and 'same'/'valid' arguments into the pairs taken here.
#include <array>
#include <string>

#include "bindings.h"
#include "loom/backend/conv.h"
#include "loom/ops/conv.h"

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
  m.def("conv_backend", &conv_backend, nb::arg("device"),
        "What computes convolutions and pooling on device: 'im2col+<blas>' on a CPU, 'cudnn 9.x.y' on a GPU, "
        "or '' when no convolution library could be loaded there (loom.nn then uses its GEMM path).");
}

}  // namespace loom::py
