// The call-like rows of the control-flow family (transforms/control_flow_primitives.h): a
// function traced once and run as one op, with a derivative rule of its own.
//
// remat's eval runs its compiled graph; its vjp runs the graph again under vjp (the forward
// values recomputed, never stored by the record) and its batch rule is a remat of the
// vmapped graph.
//
// custom_vjp_call's eval runs the traced fwd (outputs and residuals); its vjp calls the
// user's bwd on the residuals (the record's own results) and the outputs' cotangents, and
// sends the residuals' cotangents (a second derivative) back through fwd; its batch rule is a
// custom_vjp_call of the vmapped fwd and the vmapped bwd.
//
// custom_jvp_call's eval runs the traced fn; its vjp transposes the user's jvp rule, which is
// linear in the tangents: the pullback of t -> jvp(primals, t) (at t = 0) applied to the
// outputs' cotangents; its batch rule is a custom_jvp_call of the vmapped fn and jvp.
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "loom/dispatch/rules.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/grad_util.h"
#include "loom/transforms/autodiff.h"
#include "loom/transforms/control_flow.h"
#include "loom/transforms/control_flow_primitives.h"
#include "loom/transforms/vmap.h"
#include "loom/transforms/vmap_operands.h"

namespace loom {

const CompiledPlan& RematProgram::plan() const {
  std::call_once(compiled_, [this] { plan_ = std::make_unique<CompiledPlan>(fn); });
  return *plan_;
}

const CompiledPlan& CustomVjpProgram::plan() const {
  std::call_once(compiled_, [this] { plan_ = std::make_unique<CompiledPlan>(fwd); });
  return *plan_;
}

const CompiledPlan& CustomJvpProgram::plan() const {
  std::call_once(compiled_, [this] { plan_ = std::make_unique<CompiledPlan>(fn); });
  return *plan_;
}

namespace control_flow_evals {

void remat(const std::vector<Array>& operands, const std::vector<Array>& captured, const std::vector<Array>& out,
           const RematProgramPtr& program) {
  std::vector<Array> args = operands;
  args.insert(args.end(), captured.begin(), captured.end());
  const std::vector<Array> r = program->plan().run(args);
  for (size_t j = 0; j < out.size(); ++j) copyto(out[j], r[j]);
}

void custom_vjp_call(const std::vector<Array>& args, const std::vector<Array>& captured, const std::vector<Array>& out,
                     const CustomVjpProgramPtr& program) {
  std::vector<Array> in = args;
  in.insert(in.end(), captured.begin(), captured.end());
  const std::vector<Array> r = program->plan().run(in);
  for (size_t j = 0; j < out.size(); ++j) copyto(out[j], r[j]);
}

void custom_jvp_call(const std::vector<Array>& args, const std::vector<Array>& captured, const std::vector<Array>& out,
                     const CustomJvpProgramPtr& program) {
  std::vector<Array> in = args;
  in.insert(in.end(), captured.begin(), captured.end());
  const std::vector<Array> r = program->plan().run(in);
  for (size_t j = 0; j < out.size(); ++j) copyto(out[j], r[j]);
}

}  // namespace control_flow_evals

namespace control_flow_vjp {
namespace {

void remat_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  const RematProgramPtr p =
      std::get<3>(op.args_as<std::vector<Array>, std::vector<Array>, std::vector<Array>, RematProgramPtr>());
  auto [unused, pullback] = vjp([p](const std::vector<Array>& in) { return replay(p->fn, in); }, op.inputs);
  (void)unused;
  std::vector<Array> cts;
  for (size_t j = 0; j < op.outputs.size(); ++j)
    cts.push_back(out_cts[j].valid() ? conj(out_cts[j]) : zeros_like(op.outputs[j]));
  const std::vector<Array> g = pullback(cts);
  for (size_t i = 0; i < g.size(); ++i) in_cts[i] = conj(g[i]);
}

void custom_vjp_rule(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  const CustomVjpProgramPtr p =
      std::get<3>(op.args_as<std::vector<Array>, std::vector<Array>, std::vector<Array>, CustomVjpProgramPtr>());
  std::vector<Array> in(op.outputs.begin() + static_cast<std::ptrdiff_t>(p->num_out), op.outputs.end());  // residuals
  for (size_t j = 0; j < p->num_out; ++j)
    in.push_back(out_cts[j].valid() ? conj(out_cts[j]) : zeros_like(op.outputs[j]));
  const std::vector<Array> g = p->bwd(in);
  if (g.size() != p->num_args)
    throw_value_error("custom_vjp", "bwd returned " + std::to_string(g.size()) + " cotangents for " +
                                        std::to_string(p->num_args) + " differentiated arguments");
  for (size_t i = 0; i < g.size(); ++i) {
    const Array& a = op.inputs[i];
    if (!g[i].valid() || g[i].shape() != a.shape())
      throw_value_error("custom_vjp", "bwd's cotangent " + std::to_string(i) + " has shape " +
                                          (g[i].valid() ? shape_str(g[i].shape()) : std::string("(none)")) +
                                          ", its argument " + shape_str(a.shape()));
    in_cts[i] = conj(g[i].dtype() == a.dtype() ? g[i] : g[i].astype(a.dtype()));
  }
  // A residual that got a cotangent (an enclosing derivative of bwd, which read it) passes it
  // back through fwd's own derivative, as JAX differentiates fwd for the second order.
  std::vector<Array> res_cts;
  bool any = false;
  for (size_t j = p->num_out; j < op.outputs.size(); ++j) {
    any |= out_cts[j].valid();
    res_cts.push_back(out_cts[j].valid() ? conj(out_cts[j]) : zeros_like(op.outputs[j]));
  }
  if (!any) return;
  const size_t n_out = p->num_out;
  auto [unused, pullback] = vjp(
      [p, n_out](const std::vector<Array>& a) {
        std::vector<Array> r = replay(p->fwd, a);
        return std::vector<Array>(r.begin() + static_cast<std::ptrdiff_t>(n_out), r.end());
      },
      op.inputs);
  (void)unused;
  const std::vector<Array> h = pullback(res_cts);
  for (size_t i = 0; i < h.size(); ++i) {
    const Array c = conj(h[i]);
    in_cts[i] = in_cts[i].valid() ? add(in_cts[i], c) : c;
  }
}

void custom_jvp_rule(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  const CustomJvpProgramPtr p =
      std::get<3>(op.args_as<std::vector<Array>, std::vector<Array>, std::vector<Array>, CustomJvpProgramPtr>());
  const std::vector<Array> primals(op.inputs.begin(), op.inputs.begin() + static_cast<std::ptrdiff_t>(p->num_args));
  std::vector<Array> zero_tangents;
  for (const Array& a : primals) zero_tangents.push_back(zeros_like(a));
  const size_t n_out = op.outputs.size();
  auto [unused, pullback] = vjp(
      [p, primals, n_out](const std::vector<Array>& tangents) {
        std::vector<Array> in = primals;
        in.insert(in.end(), tangents.begin(), tangents.end());
        std::vector<Array> t = p->jvp(in);
        if (t.size() != n_out)
          throw_value_error("custom_jvp", "the JVP rule returned " + std::to_string(t.size()) + " tangents for " +
                                              std::to_string(n_out) + " outputs");
        return t;
      },
      zero_tangents);
  (void)unused;
  std::vector<Array> cts;
  for (size_t j = 0; j < n_out; ++j) cts.push_back(out_cts[j].valid() ? conj(out_cts[j]) : zeros_like(op.outputs[j]));
  const std::vector<Array> g = pullback(cts);
  for (size_t i = 0; i < g.size(); ++i)
    if (g[i].valid()) in_cts[i] = conj(g[i].dtype() == primals[i].dtype() ? g[i] : g[i].astype(primals[i].dtype()));
}

}  // namespace
}  // namespace control_flow_vjp

namespace batch {
namespace {

void remat_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [operands, captured, out, program] =
      op.args_as<std::vector<Array>, std::vector<Array>, std::vector<Array>, RematProgramPtr>();
  const BufferMap example0 = m.example(0);
  std::vector<Array> args;
  std::vector<std::optional<int>> axes;
  append_vmap_operands(operands, m, example0, args, axes);
  append_vmap_operands(captured, m, example0, args, axes);
  const RematProgramPtr p = program;
  const std::vector<Array> r =
      checkpoint(vmap([p](const std::vector<Array>& a) { return replay(p->fn, a); }, axes))(args);
  for (size_t j = 0; j < out.size(); ++j) copyto(m.batched(op.outputs[j]), r[j]);
}

// What custom_vjp's and custom_jvp's batch rules share: every arg batched (a shared one
// copied per example, so the user's rule sees batched values and returns batched ones), and
// the traced function vmapped over them with the captured arrays' operands appended.
struct BatchedCall {
  std::vector<Array> args;
  ArrayFn fn;
};
BatchedCall batch_call(const std::vector<Array>& args, const std::vector<Array>& captured, const BatchMap& m,
                       ArrayFn traced) {
  const BufferMap example0 = m.example(0);
  BatchedCall c;
  std::vector<Array> extra;
  std::vector<std::optional<int>> axes;
  for (const Array& a : args) {
    c.args.push_back(m.is_batched(a) ? m.batched(a) : m.batched(a).copy());
    axes.push_back(0);
  }
  append_vmap_operands(captured, m, example0, extra, axes);
  const ArrayFn v = vmap(std::move(traced), axes);
  c.fn = [v, extra](std::vector<Array> a) {
    a.insert(a.end(), extra.begin(), extra.end());
    return v(a);
  };
  return c;
}

void custom_vjp_batch(const TracedOp& op, const BatchMap& m) {
  const auto& [args, captured, out, program] =
      op.args_as<std::vector<Array>, std::vector<Array>, std::vector<Array>, CustomVjpProgramPtr>();
  const CustomVjpProgramPtr p = program;
  const BatchedCall c = batch_call(args, captured, m, [p](const std::vector<Array>& a) { return replay(p->fwd, a); });
  const size_t n = p->num_out;
  const std::vector<Array> r = custom_vjp_call(c.fn, vmap(p->bwd), c.args, [n] { return n; });
  for (size_t j = 0; j < out.size(); ++j) copyto(m.batched(op.outputs[j]), r[j]);
}

void custom_jvp_batch(const TracedOp& op, const BatchMap& m) {
  const auto& [args, captured, out, program] =
      op.args_as<std::vector<Array>, std::vector<Array>, std::vector<Array>, CustomJvpProgramPtr>();
  const CustomJvpProgramPtr p = program;
  const BatchedCall c = batch_call(args, captured, m, [p](const std::vector<Array>& a) { return replay(p->fn, a); });
  const std::vector<Array> r = custom_jvp_call(c.fn, vmap(p->jvp), c.args);
  for (size_t j = 0; j < out.size(); ++j) copyto(m.batched(op.outputs[j]), r[j]);
}

}  // namespace
}  // namespace batch

const Primitive<RematFn> primitives::remat{
    PrimitiveInfo{"remat", "control_flow"}.takes_complex().complex_vjp(control_flow_vjp::remat_vjp).batched(batch::remat_rule),
    control_flow_evals::remat, control_flow_evals::remat};

const Primitive<CustomVjpFn> primitives::custom_vjp_call{
    PrimitiveInfo{"custom_vjp_call", "control_flow"}
        .takes_complex()
        .complex_vjp(control_flow_vjp::custom_vjp_rule)
        .batched(batch::custom_vjp_batch),
    control_flow_evals::custom_vjp_call, control_flow_evals::custom_vjp_call};

const Primitive<CustomJvpFn> primitives::custom_jvp_call{
    PrimitiveInfo{"custom_jvp_call", "control_flow"}
        .takes_complex()
        .complex_vjp(control_flow_vjp::custom_jvp_rule)
        .batched(batch::custom_jvp_batch),
    control_flow_evals::custom_jvp_call, control_flow_evals::custom_jvp_call};

}  // namespace loom
