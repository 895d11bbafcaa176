// Derivative rules of the convolutions. conv2d is bilinear in (x, w), so each of its
// gradients is again one of the three primitives, and so are theirs: grad of grad (and
// jvp, the transpose of the vjp) stays within the family.
//   y  = conv2d(x, w):             dx = input_grad(ct, w)     dw = weight_grad(x, ct)
//   dx = input_grad(dy, w):        ddy = conv2d(ct, w)        dw = weight_grad(ct, dy)
//   dw = weight_grad(x, dy):       dx = input_grad(dy, ct)    ddy = conv2d(x, ct)
#include "loom/backend/conv.h"
#include "loom/ops/conv.h"
#include "loom/ops/grad_rules.h"

namespace loom::grad_rules {
namespace {

const Conv2dGeometry& geometry(const TracedOp& op) { return std::get<3>(op.args_as<Array, Array, Array, Conv2dGeometry>()); }

Array cotangent(const std::vector<Array>& out_cts, const Array& like) {
  const Array& ct = out_cts[0];
  return ct.dtype() == like.dtype() ? ct : ct.astype(like.dtype());
}

void conv2d_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  if (!out_cts[0].valid()) return;
  const Array &x = op.inputs[0], &w = op.inputs[1];
  const Array ct = cotangent(out_cts, x);
  if (op.wants_cotangent(0)) in_cts[0] = conv2d_input_grad(ct, w, x.shape(), geometry(op));
  if (op.wants_cotangent(1)) in_cts[1] = conv2d_weight_grad(x, ct, w.shape(), geometry(op));
}

void input_grad_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  if (!out_cts[0].valid()) return;
  const Array &dy = op.inputs[0], &w = op.inputs[1];
  const Array ct = cotangent(out_cts, dy);
  if (op.wants_cotangent(0)) in_cts[0] = conv2d(ct, w, geometry(op));
  if (op.wants_cotangent(1)) in_cts[1] = conv2d_weight_grad(ct, dy, w.shape(), geometry(op));
}

void weight_grad_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  if (!out_cts[0].valid()) return;
  const Array &x = op.inputs[0], &dy = op.inputs[1];
  const Array ct = cotangent(out_cts, x);
  if (op.wants_cotangent(0)) in_cts[0] = conv2d_input_grad(dy, ct, x.shape(), geometry(op));
  if (op.wants_cotangent(1)) in_cts[1] = conv2d(x, ct, geometry(op));
}

}  // namespace

void register_conv() {
  set_vjp_rule(primitives::conv2d.info, conv2d_vjp);
  set_vjp_rule(primitives::conv2d_input_grad.info, input_grad_vjp);
  set_vjp_rule(primitives::conv2d_weight_grad.info, weight_grad_vjp);
}

}  // namespace loom::grad_rules
