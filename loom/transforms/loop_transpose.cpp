// Reverse and forward mode through a while_loop (transforms/control_flow_primitives.h).
//
// A while_loop's trip count is known only when it runs. JAX therefore refuses reverse mode
// (XLA needs every array's size when it compiles) and differentiates the loop forward only.
// loom runs a loop's iterations from the host, so the trip count is known when the
// derivative runs: while_loop's vjp rule is one while_loop_transpose record, whose eval runs
// the loop again from its init, keeping the carry each iteration starts from, and then the
// body's pullback at those carries from the last to the first. Reverse mode thus costs a
// second forward run and memory for one carry per iteration.
//
// Forward mode: loom's jvp transposes the pullback (transforms/autodiff.cpp), so it meets the
// transpose record's own vjp rule. The record is linear in the final carry's cotangent, and
// the transpose of that map is the tangent loop JAX runs: a while_loop over (carry, tangent)
// whose body is the body's jvp. Its derivative with respect to the loop's own inputs (reverse
// over reverse, or forward over reverse) is not formed: the rule refuses it by name.
#include <string>
#include <tuple>
#include <vector>

#include "loom/core/error.h"
#include "loom/core/interrupt.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/grad_util.h"
#include "loom/transforms/autodiff.h"
#include "loom/transforms/control_flow.h"
#include "loom/transforms/control_flow_primitives.h"

namespace loom {

const CompiledPlan& LoopTransposeProgram::back_plan() const {
  std::call_once(compiled_, [this] { back_plan_ = std::make_unique<CompiledPlan>(back); });
  return *back_plan_;
}

namespace control_flow_evals {

void while_loop_transpose(const std::vector<Array>& init, const std::vector<Array>& captured,
                          const std::vector<Array>& cts, const std::vector<Array>& back_captured,
                          const std::vector<Array>& ct_init, const std::vector<Array>& ct_captured,
                          const LoopTransposeProgramPtr& program) {
  const LoopProgram& loop = *program->loop;
  const size_t nc = init.size();
  std::vector<Array> args;
  for (const Array& a : init) args.push_back(loop.writes_carry ? a.copy() : a);
  args.insert(args.end(), captured.begin(), captured.end());
  const CompiledPlan& cond = loop.cond_plan();
  const CompiledPlan& body = loop.body_plan();
  InterruptScope interrupt;
  // The carry each iteration starts from (copies where the body writes its carry in place).
  std::vector<std::vector<Array>> starts;
  for (int64_t iteration = 0;; ++iteration) {
    uint8_t go = 0;
    cond.run(args)[0].copy_to_host(&go);
    if (!go) break;
    if (interrupt.interrupted())
      throw_interrupted("while_loop", " after " + std::to_string(iteration) + " iterations of its derivative");
    std::vector<Array> start(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(nc));
    if (loop.writes_carry)
      for (Array& a : start) a = a.copy();
    starts.push_back(std::move(start));
    std::vector<Array> next = body.run(args);
    for (size_t i = 0; i < next.size(); ++i) args[i] = std::move(next[i]);
  }
  std::vector<Array> ct = cts, acc;
  for (const Array& c : captured) acc.push_back(zeros_like(c));
  const CompiledPlan& back = program->back_plan();
  for (size_t t = starts.size(); t-- > 0;) {
    if (interrupt.interrupted()) throw_interrupted("while_loop", " in its derivative");
    std::vector<Array> in = starts[t];
    in.insert(in.end(), captured.begin(), captured.end());
    for (const Array& c : ct) in.push_back(program->back_writes_inputs ? c.copy() : c);
    in.insert(in.end(), back_captured.begin(), back_captured.end());
    std::vector<Array> r = back.run(in);
    for (size_t i = 0; i < nc; ++i) ct[i] = std::move(r[i]);
    for (size_t k = 0; k < acc.size(); ++k)
      if (has_tangent_space(acc[k].dtype())) acc[k] = add(acc[k], r[nc + k]);
    starts[t].clear();  // this iteration's carry is no longer needed
  }
  for (size_t i = 0; i < nc; ++i) copyto(ct_init[i], ct[i]);
  for (size_t k = 0; k < acc.size(); ++k) copyto(ct_captured[k], acc[k]);
}

}  // namespace control_flow_evals

namespace control_flow_vjp {

void while_loop_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  const LoopProgramPtr p =
      std::get<3>(op.args_as<std::vector<Array>, std::vector<Array>, std::vector<Array>, LoopProgramPtr>());
  const size_t nc = p->num_carry;
  const std::vector<Array> init(op.inputs.begin(), op.inputs.begin() + static_cast<std::ptrdiff_t>(nc));
  const std::vector<Array> captured(op.inputs.begin() + static_cast<std::ptrdiff_t>(nc), op.inputs.end());
  std::vector<Array> cts;
  for (size_t i = 0; i < nc; ++i) cts.push_back(out_cts[i].valid() ? out_cts[i] : zeros_like(op.outputs[i]));
  const std::vector<Array> g = while_loop_transpose(p, init, captured, cts);
  for (size_t i = 0; i < g.size(); ++i)
    if (op.wants_cotangent(i)) in_cts[i] = g[i];
}

namespace {

// The transpose of the linear map cts -> (ct_init, ct_captured): tangents of init and of the
// captured arrays in, the final carry's tangent out, by the tangent loop.
void while_loop_transpose_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  const LoopTransposeProgramPtr p =
      std::get<6>(op.args_as<std::vector<Array>, std::vector<Array>, std::vector<Array>, std::vector<Array>,
                             std::vector<Array>, std::vector<Array>, LoopTransposeProgramPtr>());
  const size_t nc = p->loop->num_carry, ncap = p->num_captured;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const bool is_ct = i >= nc + ncap && i < 2 * nc + ncap;
    if (!is_ct && op.wants_cotangent(i))
      throw UnsupportedError(
          "[grad] the derivative of a while_loop's reverse-mode derivative with respect to the loop's own inputs "
          "(reverse over reverse, or forward over reverse as in hessian = jacfwd(jacrev)) is not supported: take "
          "the second derivative in forward mode (jacfwd(jacfwd(f)), jvp of jvp), or differentiate a Python loop, "
          "which the trace unrolls");
  }
  const std::vector<Array> caps(op.inputs.begin() + static_cast<std::ptrdiff_t>(nc),
                                op.inputs.begin() + static_cast<std::ptrdiff_t>(nc + ncap));
  std::vector<Array> carry(op.inputs.begin(), op.inputs.begin() + static_cast<std::ptrdiff_t>(nc));
  for (size_t i = 0; i < nc; ++i) carry.push_back(out_cts[i].valid() ? out_cts[i] : zeros_like(carry[i]));
  // A captured array with no tangent space (a buffer read as bytes, an integer) has none.
  std::vector<Array> t_caps;
  for (size_t k = 0; k < ncap; ++k)
    t_caps.push_back(!has_tangent_space(caps[k].dtype()) ? Array()
                     : out_cts[nc + k].valid()          ? out_cts[nc + k]
                                                        : zeros_like(caps[k]));
  const LoopProgramPtr loop = p->loop;
  const ArrayFn cond = [loop, caps, nc](const std::vector<Array>& c) {
    std::vector<Array> in(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(nc));
    in.insert(in.end(), caps.begin(), caps.end());
    return replay(loop->cond, in);
  };
  const ArrayFn body = [loop, caps, t_caps, nc](const std::vector<Array>& c) {
    std::vector<Array> primals(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(nc));
    std::vector<Array> tangents(c.begin() + static_cast<std::ptrdiff_t>(nc), c.end());
    for (size_t i = 0; i < nc; ++i)
      if (!has_tangent_space(primals[i].dtype())) tangents[i] = Array();
    primals.insert(primals.end(), caps.begin(), caps.end());
    tangents.insert(tangents.end(), t_caps.begin(), t_caps.end());
    auto [next, t_next] = jvp([loop](const std::vector<Array>& in) { return replay(loop->body, in); }, primals, tangents);
    // An integer carry element keeps its (zero) tangent: it has none.
    for (size_t i = 0; i < nc; ++i)
      next.push_back(!t_next[i].valid() || !has_tangent_space(c[nc + i].dtype()) ? c[nc + i]
                     : t_next[i].dtype() == c[nc + i].dtype()                     ? t_next[i]
                                                                                  : t_next[i].astype(c[nc + i].dtype()));
    return next;
  };
  const std::vector<Array> r = lax::while_loop(cond, body, carry);
  for (size_t i = 0; i < nc; ++i)
    if (op.wants_cotangent(nc + ncap + i)) in_cts[nc + ncap + i] = r[nc + i];
}

}  // namespace
}  // namespace control_flow_vjp

const Primitive<WhileLoopTransposeFn> primitives::while_loop_transpose{
    PrimitiveInfo{"while_loop_transpose", "control_flow"}
        .takes_complex()
        .real_vjp(control_flow_vjp::while_loop_transpose_vjp)
        .no_batch_because("each example's loop has its own trip count and carries to keep: the record runs once "
                          "per example"),
    control_flow_evals::while_loop_transpose, control_flow_evals::while_loop_transpose};

}  // namespace loom
