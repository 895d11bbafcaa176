// Shape, dtype and argument rules of the convolutions; the evals get contiguous operands of
// one floating dtype (backend/conv.h).
#include "loom/ops/conv.h"

#include <string>

#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/creation.h"
#include "loom/ops/linalg.h"
#include "loom/ops/conv_primitives.h"

namespace loom {
namespace {

std::string shape_str(const Shape& s) {
  std::string r = "(";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + (s.size() == 1 ? ",)" : ")");
}

Conv2dGeometry checked(const char* who, Conv2dGeometry g) {
  for (int i = 0; i < 2; ++i) {
    if (g.stride[i] < 1) throw_value_error(who, "stride must be >= 1, got " + std::to_string(g.stride[i]));
    if (g.dilation[i] < 1) throw_value_error(who, "dilation must be >= 1, got " + std::to_string(g.dilation[i]));
    if (g.padding[i] < 0) throw_value_error(who, "padding must be >= 0, got " + std::to_string(g.padding[i]));
  }
  if (g.groups < 1) throw_value_error(who, "groups must be >= 1, got " + std::to_string(g.groups));
  g.allow_tf32 = get_matmul_precision() == "tf32";
  return g;
}

// The output shape for input (N, C, H, W) and weight (O, C/groups, KH, KW), checked.
Shape output_shape(const char* who, const Shape& x, const Shape& w, const Conv2dGeometry& g) {
  if (x.size() != 4) throw_value_error(who, "expected an input of shape (N, C, H, W), got " + shape_str(x));
  if (w.size() != 4) throw_value_error(who, "expected a weight of shape (O, C/groups, KH, KW), got " + shape_str(w));
  if (w[0] % g.groups != 0)
    throw_value_error(who, "the weight's " + std::to_string(w[0]) + " output channels are not divisible by groups=" +
                               std::to_string(g.groups));
  if (x[1] != w[1] * g.groups)
    throw_value_error(who, "the input has " + std::to_string(x[1]) + " channels but the weight " + shape_str(w) +
                               " with groups=" + std::to_string(g.groups) + " expects " +
                               std::to_string(w[1] * g.groups));
  Shape out{x[0], w[0], 0, 0};
  for (int i = 0; i < 2; ++i) {
    const int64_t span = g.dilation[i] * (w[2 + i] - 1) + 1, padded = x[2 + i] + 2 * g.padding[i];
    if (w[2 + i] < 1 || span > padded)
      throw_value_error(who, "the kernel " + shape_str({w[2], w[3]}) + " with dilation (" +
                                 std::to_string(g.dilation[0]) + ", " + std::to_string(g.dilation[1]) +
                                 ") does not fit the input " + shape_str({x[2], x[3]}) + " padded by (" +
                                 std::to_string(g.padding[0]) + ", " + std::to_string(g.padding[1]) + ")");
    out[2 + i] = (padded - span) / g.stride[i] + 1;
  }
  return out;
}

DType common_float(const char* who, const Array& a, const Array& b) {
  if (!is_floating(a.dtype()) || !is_floating(b.dtype()))
    throw_dtype_error(who, std::string("needs floating arrays, got ") + dtype_name(a.dtype()) + " and " +
                               dtype_name(b.dtype()));
  return promote_types(a.dtype(), b.dtype());
}

Array operand(const Array& a, DType t) { return (a.dtype() == t ? a : a.astype(t)).contiguous(); }

void expect_shape(const char* who, const char* what, const Shape& got, const Shape& want) {
  if (got != want)
    throw_value_error(who, std::string(what) + " has shape " + shape_str(got) + ", expected " + shape_str(want));
}

}  // namespace

Array conv2d(const Array& x, const Array& w, const Conv2dGeometry& geometry) {
  const char* who = "conv2d";
  const Conv2dGeometry g = checked(who, geometry);
  const Shape ys = output_shape(who, x.shape(), w.shape(), g);
  const DType t = common_float(who, x, w);
  const Array xc = operand(x, t), wc = operand(w, t);
  const Array y = empty(ys, t, x.device());
  dispatch(primitives::conv2d, {xc, wc}, {y}, xc, wc, y, g);
  return y;
}

Array conv2d_input_grad(const Array& dy, const Array& w, const Shape& input_shape, const Conv2dGeometry& geometry) {
  const char* who = "conv2d_input_grad";
  const Conv2dGeometry g = checked(who, geometry);
  expect_shape(who, "the output gradient", dy.shape(), output_shape(who, input_shape, w.shape(), g));
  const DType t = common_float(who, dy, w);
  const Array dyc = operand(dy, t), wc = operand(w, t);
  const Array dx = empty(input_shape, t, dy.device());
  dispatch(primitives::conv2d_input_grad, {dyc, wc}, {dx}, dyc, wc, dx, g);
  return dx;
}

Array conv2d_weight_grad(const Array& x, const Array& dy, const Shape& weight_shape, const Conv2dGeometry& geometry) {
  const char* who = "conv2d_weight_grad";
  const Conv2dGeometry g = checked(who, geometry);
  expect_shape(who, "the output gradient", dy.shape(), output_shape(who, x.shape(), weight_shape, g));
  const DType t = common_float(who, x, dy);
  const Array xc = operand(x, t), dyc = operand(dy, t);
  const Array dw = empty(weight_shape, t, x.device());
  dispatch(primitives::conv2d_weight_grad, {xc, dyc}, {dw}, xc, dyc, dw, g);
  return dw;
}

}  // namespace loom
