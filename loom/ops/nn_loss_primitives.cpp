// The nn_loss family's primitives (ops/nn_loss_primitives.h), each row below with its rules.
//
// Derivative rules of the fused softmax cross-entropy, in public ops so that they nest
// (grad of grad, Hessian-vector products of a classifier's loss). With p = softmax(x):
//   loss = lse - x[label], lse = logsumexp(x):   dx = ct_loss * (p - onehot) + ct_lse * p
//   dx = w * (p - onehot), w = ct (0 on rows with a bad label), p = exp(x - lse):
//     d/dx = w * p * g,  d/dlse = -w * sum(p * g),  d/dct = sum(p * g) - g[label]
// where g is the cotangent of dx; the lse term reaches x through the forward op's rule.
//
// Batching the fused cross-entropy: its rows are independent, so the examples' rows are
// more rows and one call does them all (batch_common.h's rows_rule).
#include "loom/ops/nn_loss_primitives.h"

#include "loom/ops/batch_common.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/grad_rules.h"
#include "loom/ops/nn_loss.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"

namespace loom::grad_rules {
namespace {

Array column(const Array& v) { return expand_dims(v, {1}); }

Array valid_rows(const Array& labels, int64_t classes) {
  return logical_and(greater_equal(labels, 0), less(labels, classes));
}

void forward_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  if (!op.wants_cotangent(0)) return;
  const Array &x = op.inputs[0], &labels = op.inputs[1], &lse = op.outputs[1];
  Array dx;
  if (out_cts[0].valid()) dx = softmax_cross_entropy_grad(x, labels, lse, out_cts[0]);
  if (out_cts[1].valid()) {
    const Array via_lse = multiply(exp(subtract(x, column(lse))), column(out_cts[1]));
    dx = dx.valid() ? add(dx, via_lse) : via_lse;
  }
  in_cts[0] = dx;
}

void grad_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  const Array& g = out_cts[0];
  if (!g.valid()) return;
  const Array &x = op.inputs[0], &labels = op.inputs[1], &lse = op.inputs[2], &ct = op.inputs[3];
  const int64_t classes = x.shape()[1];
  const Array valid = valid_rows(labels, classes);
  const Array p = exp(subtract(x, column(lse)));
  const Array w = where(valid, ct, 0);
  const Array pg = sum(multiply(p, g), std::vector<int64_t>{1});
  if (op.wants_cotangent(0)) in_cts[0] = multiply(column(w), multiply(p, g));
  if (op.wants_cotangent(2)) in_cts[2] = negative(multiply(w, pg));
  if (op.wants_cotangent(3)) {
    const Array onehot = equal(column(labels), arange(0, classes, 1, labels.dtype(), labels.device()));
    const Array g_label = sum(where(onehot, g, 0), std::vector<int64_t>{1});
    in_cts[3] = where(valid, subtract(pg, g_label), 0);
  }
}

}  // namespace

}  // namespace loom::grad_rules

namespace loom {

const Primitive<CrossEntropyFn> primitives::cross_entropy{
    PrimitiveInfo{"cross_entropy", "nn_loss"}
        .real_vjp(grad_rules::forward_vjp)
        .batched(batch::rows_rule<const Array&, const Array&, const Array&, const Array&>),
    cpu_backend::cross_entropy, gpu_backend::cross_entropy};
const Primitive<CrossEntropyGradFn> primitives::cross_entropy_grad{
    PrimitiveInfo{"cross_entropy_grad", "nn_loss"}
        .real_vjp(grad_rules::grad_vjp)
        .batched(batch::rows_rule<const Array&, const Array&, const Array&, const Array&, const Array&>),
    cpu_backend::cross_entropy_grad, gpu_backend::cross_entropy_grad};

}  // namespace loom
