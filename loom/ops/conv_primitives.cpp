// The conv family's primitives (ops/conv_primitives.h), each row below with its rules.
//
// Derivative rules of the convolutions. conv2d is bilinear in (x, w), so each of its
// gradients is again one of the three primitives, and so are theirs: grad of grad (and
// jvp, the transpose of the vjp) stays within the family.
//   y  = conv2d(x, w):             dx = input_grad(ct, w)     dw = weight_grad(x, ct)
//   dx = input_grad(dy, w):        ddy = conv2d(ct, w)        dw = weight_grad(ct, dy)
//   dw = weight_grad(x, dy):       dx = input_grad(dy, ct)    ddy = conv2d(x, ct)
//
// Batching the convolutions: with the weight shared by all examples, the examples' images
// are more images, so the batch axis merges with N and one call does them all (the usual
// case: vmap over examples of a network). A batched weight, and the weight gradient (whose
// output is per example), run once per example.
#include "loom/ops/conv_primitives.h"

#include "loom/ops/batch_common.h"
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

}  // namespace loom::grad_rules

namespace loom::batch {
namespace {

// Rule for conv2d (x, w -> y) and conv2d_input_grad (dy, w -> dx): operand 0 batched, w shared.
void images_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [in, w, out, g] = op.args_as<Array, Array, Array, Conv2dGeometry>();
  if (m.is_batched(w)) return per_example(op, m);
  const Array o = merge_leading(m.batched(out));
  if (!o.valid()) return per_example(op, m);
  const Array i = merge_leading_copy(m.batched(in));
  const Array wf = first_example(m.batched(w));
  redispatch<void, const Array&, const Array&, const Array&, const Conv2dGeometry&>(op, {i, wf}, {o}, i, wf, o, g);
}

}  // namespace

}  // namespace loom::batch

namespace loom {

// Batched images are a bigger N (images_rule); batched weights run once per example.
const Primitive<Conv2dFn> primitives::conv2d{
    PrimitiveInfo{"conv2d", "conv"}.real_vjp(grad_rules::conv2d_vjp).batched(batch::images_rule),
    cpu_backend::conv2d, gpu_backend::conv2d};
const Primitive<Conv2dInputGradFn> primitives::conv2d_input_grad{
    PrimitiveInfo{"conv2d_input_grad", "conv"}.real_vjp(grad_rules::input_grad_vjp).batched(batch::images_rule),
    cpu_backend::conv2d_input_grad, gpu_backend::conv2d_input_grad};
const Primitive<Conv2dWeightGradFn> primitives::conv2d_weight_grad{
    PrimitiveInfo{"conv2d_weight_grad", "conv"}
        .real_vjp(grad_rules::weight_grad_vjp)
        .no_batch_because("each example has its own weight gradient: vmap runs it once per example"),
    cpu_backend::conv2d_weight_grad, gpu_backend::conv2d_weight_grad};

}  // namespace loom
