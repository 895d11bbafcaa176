// Reverse- and forward-mode rules of the op table's ops (dispatch/rules.h), from each op's
// partial derivatives (elementwise_grad_*.cpp). Conventions, as JAX:
// - integer and bool operands get no cotangent, nor do ops computed in an integer loop;
// - comparisons, logical and bitwise ops and isnan/isinf/isfinite have none;
// - floor, ceil, trunc, rint, sign, floor_divide (zero almost everywhere) give zeros;
// - a cotangent is summed over the axes broadcasting added and cast to its operand's dtype.
// The values read are the record's arrays (rebound to the forward pass by the engine): its
// inputs as dispatched, its output, and the weak scalars of its ElementwiseCall.
#include "loom/ops/elementwise_grad.h"

#include <array>
#include <tuple>

#include "loom/dispatch/rules.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/grad_util.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/transform_rules.h"

namespace loom {
namespace ew_grad {

Ctx::Ctx(const TracedOp& op, const ElementwiseCall& call) : op_(op), call_(call) {
  int j = 0;
  for (int i = 0; i < call.nin; ++i)
    if (!call.is_scalar[i]) input_of_[i] = j++;
}

const Array& Ctx::x(int i) {
  if (!x_[i].valid()) {
    const DType d = input_loop_dtype(call_.op, i, call_.loop);
    const int j = input_of_[i];
    x_[i] = j < 0 ? full(Shape{}, call_.scalar[i], d, op_.device) : cast_to(op_.inputs[static_cast<size_t>(j)], d);
  }
  return x_[i];
}

const Array& Ctx::y() {
  if (!y_.valid()) {
    const DType res = result_dtype(op_info(call_.op).rule, call_.loop);
    if (op_.outputs[0].dtype() == res) {
      y_ = op_.outputs[0];
    } else {
      Operand in[3];
      for (int i = 0; i < call_.nin; ++i) in[i] = Operand(x(i));
      UfuncArgs args;
      if (call_.op != OpId::where) args.dtype = call_.loop;
      y_ = apply(call_.op, in, call_.nin, args);
    }
  }
  return y_;
}

const Derivative& derivative(OpId op) {
  static const auto table = [] {
    std::array<Derivative, kNumOps> t{};
    for (int k = 0; k < kNumOps; ++k) {
      const OpId id = static_cast<OpId>(k);
      Derivative& d = t[static_cast<size_t>(k)];
      if (!arith_derivative(id, &d) && !transcendental_derivative(id, &d)) select_derivative(id, &d);
    }
    return t;
  }();
  return table[static_cast<size_t>(op)];
}

namespace {

const ElementwiseCall& call_of(const TracedOp& op) { return std::get<0>(op.args_as<ElementwiseCall>()); }

// Whether operand i (op.inputs[j]) gets a cotangent or carries a tangent.
bool differentiable(const Derivative& d, const ElementwiseCall& call, int i, const Array& input) {
  return ((d.operands >> i) & 1u) && has_tangent_space(input.dtype());
}

void vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  if (out_cts.empty() || !out_cts[0].valid()) return;
  const ElementwiseCall& call = call_of(op);
  const Derivative& d = derivative(call.op);
  if (!d.apply || !has_tangent_space(call.loop)) return;
  Ctx ctx(op, call);
  Array ct;
  for (int i = 0; i < call.nin; ++i) {
    const int j = ctx.input_index(i);
    if (j < 0 || static_cast<size_t>(j) >= in_cts.size()) continue;
    const Array& input = op.inputs[static_cast<size_t>(j)];
    if (!differentiable(d, call, i, input)) continue;
    if (!ct.valid()) ct = cast_to(out_cts[0], call.loop);
    const Array c = d.apply(ctx, i, ct);
    in_cts[static_cast<size_t>(j)] = c.valid() ? cotangent_for(c, input) : zero_cotangent(input);
  }
}

void jvp(const TracedOp& op, const std::vector<Array>& in_tangents, std::vector<Array>& out_tangents) {
  if (out_tangents.size() < op.outputs.size()) out_tangents.resize(op.outputs.size());
  const ElementwiseCall& call = call_of(op);
  const Derivative& d = derivative(call.op);
  const Array& out = op.outputs[0];
  if (!d.apply || !has_tangent_space(call.loop) || !has_tangent_space(out.dtype())) return;
  Ctx ctx(op, call);
  Array acc;
  bool zero = false;  // some tangent met a derivative that is zero
  for (int i = 0; i < call.nin; ++i) {
    const int j = ctx.input_index(i);
    if (j < 0 || static_cast<size_t>(j) >= in_tangents.size()) continue;
    const Array& t = in_tangents[static_cast<size_t>(j)];
    if (!t.valid() || !differentiable(d, call, i, op.inputs[static_cast<size_t>(j)])) continue;
    const Array c = d.apply(ctx, i, cast_to(t, call.loop));
    if (!c.valid()) zero = true;
    else acc = acc.valid() ? add(acc, c) : c;
  }
  if (!acc.valid()) {
    if (zero) out_tangents[0] = zero_cotangent(out);
    return;
  }
  acc = cast_to(acc, out.dtype());
  // Tangents of operands smaller than the output broadcast to it (a view).
  out_tangents[0] = acc.shape() == out.shape() ? acc : broadcast_to(acc, out.shape());
}

}  // namespace
}  // namespace ew_grad

void register_elementwise_grad_rules() {
  for (int k = 0; k < kNumOps; ++k) {
    set_vjp_rule(primitives::elementwise[k].info, ew_grad::vjp);
    set_jvp_rule(primitives::elementwise[k].info, ew_grad::jvp);
  }
  set_vjp_rule(primitives::copyto_strided.info, ew_grad::vjp);
  set_jvp_rule(primitives::copyto_strided.info, ew_grad::jvp);
}

}  // namespace loom
