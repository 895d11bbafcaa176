// Pooling: max_pool2d, avg_pool2d and their gradients (loom.nn's MaxPool2d and AvgPool2d).
#include <array>

#include "bindings.h"
#include "loom/ops/pool.h"

#include <nanobind/stl/array.h>

namespace loom::py {
namespace {

using Pair = std::array<int64_t, 2>;

Pool2dGeometry pool(Pair kernel, Pair stride, Pair padding) {
  Pool2dGeometry g;
  for (int i = 0; i < 2; ++i) g.kernel[i] = kernel[i], g.stride[i] = stride[i], g.padding[i] = padding[i];
  return g;
}

}  // namespace

LOOM_BINDING_FAMILY(pool, 36) {
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
}

}  // namespace loom::py
