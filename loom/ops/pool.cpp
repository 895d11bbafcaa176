// Shape, dtype and argument rules of the pooling ops; the evals get contiguous operands of
// one floating dtype (backend/pool.h).
#include "loom/ops/pool.h"

#include <string>

#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/creation.h"
#include "loom/ops/pool_primitives.h"

namespace loom {
namespace {

std::string pair(const int64_t* v) { return "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ")"; }

Shape output_shape(const char* who, const Shape& x, const Pool2dGeometry& g) {
  if (x.size() != 4) {
    std::string s = "(";
    for (size_t i = 0; i < x.size(); ++i) s += (i ? ", " : "") + std::to_string(x[i]);
    throw_value_error(who, "expected an input of shape (N, C, H, W), got " + s + (x.size() == 1 ? ",)" : ")"));
  }
  Shape out{x[0], x[1], 0, 0};
  for (int i = 0; i < 2; ++i) {
    if (g.kernel[i] < 1) throw_value_error(who, "kernel_size must be >= 1, got " + pair(g.kernel));
    if (g.stride[i] < 1) throw_value_error(who, "stride must be >= 1, got " + pair(g.stride));
    if (g.padding[i] < 0 || 2 * g.padding[i] > g.kernel[i])
      throw_value_error(who, "padding " + pair(g.padding) + " must be between 0 and half the kernel " + pair(g.kernel));
    const int64_t padded = x[2 + i] + 2 * g.padding[i];
    if (g.kernel[i] > padded)
      throw_value_error(who, "the window " + pair(g.kernel) + " does not fit the input (" + std::to_string(x[2]) +
                                 ", " + std::to_string(x[3]) + ") padded by " + pair(g.padding));
    out[2 + i] = (padded - g.kernel[i]) / g.stride[i] + 1;
  }
  return out;
}

Array floating(const char* who, const Array& a) {
  if (!is_floating(a.dtype())) throw_dtype_error(who, std::string("needs a floating array, got ") + dtype_name(a.dtype()));
  return a.contiguous();
}

void expect(const char* who, const char* what, const Array& a, const Shape& s, DType t) {
  if (a.shape() != s || a.dtype() != t)
    throw_value_error(who, std::string(what) + " does not match the pooling's input and geometry");
}

}  // namespace

Array max_pool2d(const Array& x, const Pool2dGeometry& g) {
  const char* who = "max_pool2d";
  const Shape ys = output_shape(who, x.shape(), g);
  const Array xc = floating(who, x);
  const Array y = empty(ys, xc.dtype(), x.device());
  dispatch(primitives::max_pool2d, {xc}, {y}, xc, y, g);
  return y;
}

Array max_pool2d_grad(const Array& x, const Array& y, const Array& dy, const Pool2dGeometry& g) {
  const char* who = "max_pool2d_grad";
  const Shape ys = output_shape(who, x.shape(), g);
  const Array xc = floating(who, x);
  expect(who, "y", y, ys, xc.dtype());
  const Array dyf = floating(who, dy);
  const Array yc = y.contiguous(), dyc = dyf.dtype() == xc.dtype() ? dyf : dyf.astype(xc.dtype());
  expect(who, "the output gradient", dyc, ys, xc.dtype());
  const Array dx = empty(x.shape(), xc.dtype(), x.device());
  dispatch(primitives::max_pool2d_grad, {xc, yc, dyc}, {dx}, xc, yc, dyc, dx, g);
  return dx;
}

Array avg_pool2d(const Array& x, const Pool2dGeometry& g) {
  const char* who = "avg_pool2d";
  const Shape ys = output_shape(who, x.shape(), g);
  const Array xc = floating(who, x);
  const Array y = empty(ys, xc.dtype(), x.device());
  dispatch(primitives::avg_pool2d, {xc}, {y}, xc, y, g);
  return y;
}

Array avg_pool2d_grad(const Array& dy, const Shape& input_shape, const Pool2dGeometry& g) {
  const char* who = "avg_pool2d_grad";
  const Shape ys = output_shape(who, input_shape, g);
  const Array dyc = floating(who, dy);
  expect(who, "the output gradient", dyc, ys, dyc.dtype());
  const Array dx = empty(input_shape, dyc.dtype(), dy.device());
  dispatch(primitives::avg_pool2d_grad, {dyc}, {dx}, dyc, dx, g);
  return dx;
}

}  // namespace loom
