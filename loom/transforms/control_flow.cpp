// loom::lax's loops (transforms/control_flow.h): cond and body are traced on the carry's
// specs, closed over what they read from an enclosing trace, checked, and run as one
// while_loop op (transforms/control_flow_primitives.h).
#include "loom/transforms/control_flow.h"

#include <memory>
#include <string>
#include <unordered_set>

#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/runtime/abstract_allocations.h"
#include "loom/transforms/control_flow_primitives.h"

namespace loom::lax {
namespace {

std::string spec_str(const Array& a) { return std::string(dtype_name(a.dtype())) + shape_str(a.shape()); }

// The buffers of an enclosing trace that `fn` reads, in order of first use.
struct Captures {
  std::vector<std::shared_ptr<Buffer>> buffers;
  std::unordered_set<const Buffer*> seen;
};

// `fn` traced on `specs`. A buffer its ops or results touch that is abstract and was not
// allocated during this trace belongs to an enclosing trace: read, it is captured; written
// (an in-place update of an array from outside), it is refused, since a loop op's outputs
// are its carry alone.
TracedGraph trace_closed(const char* op, const char* who, const ArrayFn& fn, const std::vector<ArraySpec>& specs,
                         Captures& captures) {
  memory::AbstractAllocationLog log;
  TracedGraph g = trace(fn, specs);
  auto outer = [&](const Array& a) { return a.valid() && a.buffer()->is_abstract() && !log.allocated_here(a.buffer().get()); };
  auto capture = [&](const Array& a) {
    if (outer(a) && captures.seen.insert(a.buffer().get()).second) captures.buffers.push_back(a.buffer());
  };
  for (const TracedOp& o : g.ops) {
    for (const Array& a : o.inputs) capture(a);
    for (const Array& a : o.outputs)
      if (outer(a))
        throw_value_error(op, std::string(who) + " writes an array from outside the loop in place (" + o.op->name +
                                  " into a " + spec_str(a) +
                                  " view); a loop's only results are its carry: return the new value in it");
  }
  for (const Array& a : g.outputs) capture(a);
  return g;
}

}  // namespace

std::vector<Array> while_loop(const ArrayFn& cond, const ArrayFn& body, const std::vector<Array>& init) {
  constexpr const char* kOp = "while_loop";
  if (!cond) throw_value_error(kOp, "cond_fun is empty");
  if (!body) throw_value_error(kOp, "body_fun is empty");
  if (init.empty()) throw_value_error(kOp, "the carry is empty: give it at least one array");
  std::vector<ArraySpec> specs;
  for (size_t i = 0; i < init.size(); ++i) {
    if (!init[i].valid()) throw_value_error(kOp, "carry element " + std::to_string(i) + " is an empty Array handle");
    specs.push_back(ArraySpec::of(init[i]));
  }
  auto program = std::make_shared<LoopProgram>();
  program->num_carry = init.size();
  Captures captures;
  program->cond = trace_closed(kOp, "cond_fun", cond, specs, captures);
  program->body = trace_closed(kOp, "body_fun", body, specs, captures);

  const std::vector<Array>& pred = program->cond.outputs;
  if (pred.size() != 1 || !pred[0].valid() || pred[0].dtype() != bool_ || pred[0].ndim() != 0)
    throw_dtype_error(kOp, "cond_fun must return one bool scalar (shape ()), got " +
                               (pred.size() == 1 && pred[0].valid() ? spec_str(pred[0])
                                                                   : std::to_string(pred.size()) + " arrays"));
  const std::vector<Array>& next = program->body.outputs;
  if (next.size() != init.size())
    throw_value_error(kOp, "body_fun must return the carry (" + std::to_string(init.size()) + " arrays), got " +
                               std::to_string(next.size()));
  for (size_t i = 0; i < next.size(); ++i)
    if (!next[i].valid() || !(ArraySpec::of(next[i]) == specs[i]))
      throw_dtype_error(kOp, "body_fun must return the carry's types: element " + std::to_string(i) + " is " +
                                 (next[i].valid() ? spec_str(next[i]) + " on " + next[i].device().str() : "empty") +
                                 ", the carry's is " + spec_str(init[i]) + " on " + init[i].device().str());

  for (const TracedGraph* g : {&program->cond, &program->body}) {
    std::unordered_set<const Buffer*> carry;
    for (const Array& a : g->inputs) carry.insert(a.buffer().get());
    for (const TracedOp& o : g->ops)
      for (const Array& a : o.outputs) program->writes_carry |= a.valid() && carry.count(a.buffer().get()) > 0;
  }
  // Each captured buffer, whole, becomes an input of both graphs and an operand of the op.
  std::vector<Array> captured;
  for (const auto& b : captures.buffers) {
    const Array bytes(b, uint8, {static_cast<int64_t>(b->nbytes())}, {1}, 0);
    captured.push_back(bytes);
    program->cond.inputs.push_back(bytes);
    program->body.inputs.push_back(bytes);
  }
  std::vector<Array> out, operands = init;
  for (const ArraySpec& s : specs) out.push_back(Array::allocate(s.shape, s.dtype, s.device));
  operands.insert(operands.end(), captured.begin(), captured.end());
  dispatch(primitives::while_loop, trace_detail::refs(operands), trace_detail::refs(out), init, captured, out,
           LoopProgramPtr(std::move(program)));
  return out;
}

std::vector<Array> fori_loop(const Array& lower, const Array& upper, const ForiBody& body,
                             const std::vector<Array>& init) {
  constexpr const char* kOp = "fori_loop";
  for (const Array* b : {&lower, &upper})
    if (!b->valid() || b->ndim() != 0 || !is_integer(b->dtype()))
      throw_dtype_error(kOp, std::string(b == &lower ? "lower" : "upper") + " must be an integer scalar, got " +
                                 (b->valid() ? spec_str(*b) : "an empty Array handle"));
  if (!body) throw_value_error(kOp, "body_fun is empty");
  const DType t = promote_types(lower.dtype(), upper.dtype());
  const Array hi = upper.astype(t);
  std::vector<Array> carry{lower.astype(t)};
  carry.insert(carry.end(), init.begin(), init.end());
  const ArrayFn cond = [hi](const std::vector<Array>& c) { return std::vector<Array>{less(c[0], hi)}; };
  const ArrayFn step = [&body](const std::vector<Array>& c) {
    const std::vector<Array> rest = body(c[0], std::vector<Array>(c.begin() + 1, c.end()));
    std::vector<Array> next{add(c[0], Scalar(1))};
    next.insert(next.end(), rest.begin(), rest.end());
    return next;
  };
  std::vector<Array> result = while_loop(cond, step, carry);
  return std::vector<Array>(result.begin() + 1, result.end());
}

std::vector<Array> fori_loop(int64_t lower, int64_t upper, const ForiBody& body, const std::vector<Array>& init) {
  const Device dev = init.empty() || !init[0].valid() ? cpu() : init[0].device();
  return fori_loop(full({}, Scalar(lower), int64, dev), full({}, Scalar(upper), int64, dev), body, init);
}

}  // namespace loom::lax
