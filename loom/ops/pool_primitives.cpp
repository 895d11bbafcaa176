// The pool family's primitives (ops/pool_primitives.h), each row below with its rules.
//
// Derivative rules of the pooling ops. Max pooling's gradient routes the cotangent to each
// window's maximum (max_pool2d_grad); that routing has no rule of its own yet, so a second
// derivative through max pooling raises. Average pooling is linear: its gradient is its
// adjoint, and the adjoint of that is average pooling again.
//
// Batching the pooling ops: every array runs along the images, so the examples' images are
// more images and one call pools them all (batch_common.h's rows_rule).
#include "loom/ops/pool_primitives.h"

#include "loom/ops/batch_common.h"
#include "loom/ops/grad_rules.h"
#include "loom/ops/pool.h"

namespace loom::grad_rules {
namespace {

void max_pool_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  if (!out_cts[0].valid() || !op.wants_cotangent(0)) return;
  const auto& g = std::get<2>(op.args_as<Array, Array, Pool2dGeometry>());
  in_cts[0] = max_pool2d_grad(op.inputs[0], op.outputs[0], out_cts[0], g);
}

void avg_pool_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  if (!out_cts[0].valid() || !op.wants_cotangent(0)) return;
  const auto& g = std::get<2>(op.args_as<Array, Array, Pool2dGeometry>());
  in_cts[0] = avg_pool2d_grad(out_cts[0], op.inputs[0].shape(), g);
}

void avg_pool_grad_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  if (!out_cts[0].valid() || !op.wants_cotangent(0)) return;
  const auto& g = std::get<2>(op.args_as<Array, Array, Pool2dGeometry>());
  in_cts[0] = avg_pool2d(out_cts[0], g);
}

}  // namespace

}  // namespace loom::grad_rules

namespace loom {

using A = const Array&;
using G = const Pool2dGeometry&;
const Primitive<MaxPool2dFn> primitives::max_pool2d{
    PrimitiveInfo{"max_pool2d", "pool"}.real_vjp(grad_rules::max_pool_vjp).batched(batch::rows_rule<A, A, G>),
    cpu_backend::max_pool2d, gpu_backend::max_pool2d};
const Primitive<MaxPool2dGradFn> primitives::max_pool2d_grad{
    PrimitiveInfo{"max_pool2d_grad", "pool"}
        .no_vjp_because("the routing to each window's maximum has no rule yet: a second derivative through max pooling")
        .batched(batch::rows_rule<A, A, A, A, G>),
    cpu_backend::max_pool2d_grad, gpu_backend::max_pool2d_grad};
const Primitive<AvgPool2dFn> primitives::avg_pool2d{
    PrimitiveInfo{"avg_pool2d", "pool"}.real_vjp(grad_rules::avg_pool_vjp).batched(batch::rows_rule<A, A, G>),
    cpu_backend::avg_pool2d, gpu_backend::avg_pool2d};
const Primitive<AvgPool2dGradFn> primitives::avg_pool2d_grad{
    PrimitiveInfo{"avg_pool2d_grad", "pool"}.real_vjp(grad_rules::avg_pool_grad_vjp).batched(batch::rows_rule<A, A, G>),
    cpu_backend::avg_pool2d_grad, gpu_backend::avg_pool2d_grad};

}  // namespace loom
