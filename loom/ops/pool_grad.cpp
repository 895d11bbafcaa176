// Derivative rules of the pooling ops. Max pooling's gradient routes the cotangent to each
// window's maximum (max_pool2d_grad); that routing has no rule of its own yet, so a second
// derivative through max pooling raises. Average pooling is linear: its gradient is its
// adjoint, and the adjoint of that is average pooling again.
#include "loom/backend/pool.h"
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

void register_pool() {
  set_vjp_rule(primitives::max_pool2d.info, max_pool_vjp);
  set_vjp_rule(primitives::avg_pool2d.info, avg_pool_vjp);
  set_vjp_rule(primitives::avg_pool2d_grad.info, avg_pool_grad_vjp);
}

}  // namespace loom::grad_rules
