// The reverse-mode rule of the op table's ops (ew_grad::vjp, the rule of each elementwise
// row in ops/elementwise_primitives.cpp), from each op's
// partial derivatives (elementwise_grad_*.cpp). Conventions, as JAX:
// - integer and bool operands get no cotangent, nor do ops computed in an integer loop;
// - comparisons, logical and bitwise ops and isnan/isinf/isfinite have none;
// - floor, ceil, trunc, rint, sign, floor_divide (zero almost everywhere) give zeros;
// - a cotangent is summed over the axes broadcasting added and cast to its operand's dtype.
// Complex values (docs/TRANSFORMS.md §6): the backward pass holds cotangents in the adjoint
// convention (the cotangent of z = x + iy is dL/dx + i dL/dy), so the cotangent of a
// holomorphic op's operand is ct * conj(f'(z)) = conj(f'(z) * conj(ct)), the derivative
// below applied to conj(ct) and conjugated; conjugate and absolute have rules of their own,
// and every other op raises UnsupportedError on complex values (maximum, sign, ...: not
// differentiable there, or not written yet).
// The values read are the record's arrays (rebound to the forward pass by the engine): its
// inputs as dispatched, its output, and the weak scalars of its ElementwiseCall.
#include "loom/ops/elementwise_grad.h"

#include <array>
#include <tuple>

#include "loom/core/error.h"
#include "loom/dispatch/rules.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/grad_util.h"
#include "loom/ops/shape_ops.h"

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
      if (!arith_derivative(id, &d) && !transcendental_derivative(id, &d) && !special_derivative(id, &d))
        select_derivative(id, &d);
    }
    return t;
  }();
  return table[static_cast<size_t>(op)];
}

namespace {

const ElementwiseCall& call_of(const TracedOp& op) { return std::get<0>(op.args_as<ElementwiseCall>()); }

// Whether the op's real derivative formulas hold for complex values unchanged (the op
// table's traits column, graph/op_table.h).
bool holomorphic(OpId op) { return kOpTable[static_cast<int>(op)].traits & op_trait::holo; }

// z / |z|, and 0 at 0: the derivative of |z| as the cotangent direction (sign(x) for reals).
Array unit_phase(const Array& z, const Array& magnitude) {
  return divide(z, where(equal(magnitude, 0), 1, magnitude));
}

[[noreturn]] void refuse_complex(const ElementwiseCall& call, const char* mode) {
  throw UnsupportedError(std::string("[") + mode + "] '" + op_info(call.op).name + "' of complex values has no " +
                         "derivative rule (it is not holomorphic; loom differentiates the holomorphic ops, " +
                         "conjugate and absolute on complex values)");
}

// The op's derivative at complex operand i applied to v, in `mode` (vjp: the adjoint
// convention's ct * conj(f'), jvp: f' * t); `complex_input` says whether the operand itself is
// complex (absolute's real output reads a complex operand).
Array complex_apply(Ctx& ctx, const Derivative& d, int i, const Array& v, bool reverse) {
  const OpId op = ctx.call().op;
  if (op == OpId::conjugate) return conj(v);
  if (op == OpId::absolute) {
    const Array u = unit_phase(ctx.x(0), absolute(ctx.x(0)));
    // d|z| = Re(conj(u) dz): the tangent Re(conj(u) t) (the engine casts to the real
    // output), the cotangent u * ct for a real ct.
    return reverse ? multiply(v, u) : multiply(v, conj(u));
  }
  if (!holomorphic(op)) refuse_complex(ctx.call(), reverse ? "grad" : "jvp");
  return reverse ? conj(d.apply(ctx, i, conj(v))) : d.apply(ctx, i, v);
}

// Whether operand i (op.inputs[j]) gets a cotangent or carries a tangent.
bool differentiable(const Derivative& d, const ElementwiseCall& call, int i, const Array& input) {
  return ((d.operands >> i) & 1u) && has_tangent_space(input.dtype());
}

}  // namespace

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
    const Array c = is_complex(call.loop) ? complex_apply(ctx, d, i, ct, true) : d.apply(ctx, i, ct);
    in_cts[static_cast<size_t>(j)] = c.valid() ? cotangent_for(c, input) : zero_cotangent(input);
  }
}

}  // namespace ew_grad

}  // namespace loom
