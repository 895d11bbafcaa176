// The control-flow family's primitives (transforms/control_flow_primitives.h), each row
// below with its eval and rules.
//
// while_loop's eval runs the two compiled graphs on the carry, reading the predicate on the
// host after each test (as JAX's while_loop does on a GPU). Batching: the loop keeps going
// while any example's predicate holds, and an example whose predicate has failed keeps its
// carry (a select, as JAX does), so every example ends where it would have alone; the new
// loop is itself a while_loop over vmapped cond and body. No vjp: the trip count is known
// only at run time, and reverse mode would need each iteration's carry.
#include "loom/transforms/control_flow_primitives.h"

#include <cstdint>
#include <optional>
#include <string>

#include "loom/core/interrupt.h"
#include "loom/dispatch/rules.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"
#include "loom/transforms/control_flow.h"
#include "loom/transforms/vmap.h"

namespace loom {

void LoopProgram::compile() const {
  std::call_once(compiled_, [this] {
    cond_plan_ = std::make_unique<CompiledPlan>(cond);
    body_plan_ = std::make_unique<CompiledPlan>(body);
  });
}
const CompiledPlan& LoopProgram::cond_plan() const {
  compile();
  return *cond_plan_;
}
const CompiledPlan& LoopProgram::body_plan() const {
  compile();
  return *body_plan_;
}

namespace control_flow_evals {

// One eval for every device: the graphs' records dispatch to their own backends.
void while_loop(const std::vector<Array>& init, const std::vector<Array>& captured, const std::vector<Array>& out,
                const LoopProgramPtr& program) {
  std::vector<Array> args;
  for (const Array& a : init) args.push_back(program->writes_carry ? a.copy() : a);
  args.insert(args.end(), captured.begin(), captured.end());
  const CompiledPlan& cond = program->cond_plan();
  const CompiledPlan& body = program->body_plan();
  InterruptScope interrupt;  // a loop that never ends stops at Ctrl-C
  for (int64_t iteration = 0;; ++iteration) {
    uint8_t go = 0;
    cond.run(args)[0].copy_to_host(&go);
    if (!go) break;
    if (interrupt.interrupted())
      throw_interrupted("while_loop", " after " + std::to_string(iteration) + " iterations");
    std::vector<Array> next = body.run(args);
    for (size_t i = 0; i < next.size(); ++i) args[i] = std::move(next[i]);
  }
  for (size_t i = 0; i < out.size(); ++i) copyto(out[i], args[i]);
}

}  // namespace control_flow_evals

namespace batch {
namespace {

void while_loop_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [init, captured, out, program] = op.args_as<std::vector<Array>, std::vector<Array>, std::vector<Array>,
                                                          LoopProgramPtr>();
  const size_t n = init.size();
  // The carry over all examples (an unbatched element is copied per example: it will
  // differ once the body has run); a captured buffer is batched only where it differs.
  std::vector<Array> carry;
  for (const Array& a : init) carry.push_back(m.is_batched(a) ? m.batched(a) : m.batched(a).copy());
  std::vector<Array> extra;
  std::vector<std::optional<int>> axes(n, 0);
  const BufferMap example0 = m.example(0);
  for (const Array& c : captured) {
    extra.push_back(m.is_batched(c) ? m.batched(c) : rebind(c, example0));
    axes.push_back(m.is_batched(c) ? std::optional<int>(0) : std::nullopt);
  }
  const LoopProgramPtr p = program;
  const ArrayFn vcond = vmap([p](const std::vector<Array>& a) { return replay(p->cond, a); }, axes);
  const ArrayFn vbody = vmap([p](const std::vector<Array>& a) { return replay(p->body, a); }, axes);
  auto with_extra = [extra](std::vector<Array> c) {
    c.insert(c.end(), extra.begin(), extra.end());
    return c;
  };
  const ArrayFn cond = [=](const std::vector<Array>& c) { return std::vector<Array>{any(vcond(with_extra(c))[0])}; };
  const ArrayFn body = [=](const std::vector<Array>& c) {
    const Array going = vcond(with_extra(c))[0];  // (batch,): which examples still loop
    const std::vector<Array> next = vbody(with_extra(c));
    std::vector<Array> kept;
    for (size_t i = 0; i < c.size(); ++i) {
      Shape s(c[i].ndim(), 1);
      s[0] = m.size;
      kept.push_back(where(reshape(going, s), next[i], c[i]));
    }
    return kept;
  };
  const std::vector<Array> result = lax::while_loop(cond, body, carry);
  for (size_t i = 0; i < n; ++i) copyto(m.batched(op.outputs[i]), result[i]);
}

}  // namespace
}  // namespace batch

const Primitive<WhileLoopFn> primitives::while_loop{
    PrimitiveInfo{"while_loop", "control_flow"}
        .takes_complex()
        .no_vjp_because("its trip count is decided at run time, and reverse mode would need every iteration's "
                        "carry (JAX refuses it too): differentiate a Python loop, which the trace unrolls")
        .batched(batch::while_loop_rule),
    control_flow_evals::while_loop, control_flow_evals::while_loop};

std::vector<const PrimitiveInfo*> control_flow_primitives() {
  std::vector<const PrimitiveInfo*> out;
#define LOOM_LIST_PRIMITIVE(Fn, name, extent) out.push_back(&primitives::name.info);
  LOOM_CONTROL_FLOW_PRIMITIVES(LOOM_LIST_PRIMITIVE)
#undef LOOM_LIST_PRIMITIVE
  return out;
}

}  // namespace loom
