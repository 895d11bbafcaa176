// loom::lax's control flow and the call transforms (transforms/control_flow.h): each
// function (a loop's cond and body, a scan's step, a switch's branches, checkpoint's or
// custom_vjp's function) is traced on its arguments' specs, closed over what it reads from an
// enclosing trace, checked, and run as one op of the family's primitives
// (transforms/control_flow_primitives.h). So is the step of a while_loop's derivative
// (while_loop_transpose; its eval and rules are in loop_transpose.cpp).
#include "loom/transforms/control_flow.h"

#include <algorithm>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/grad_util.h"
#include "loom/runtime/abstract_allocations.h"
#include "loom/transforms/autodiff.h"
#include "loom/transforms/control_flow_primitives.h"
#include "loom/transforms/scan_hoist.h"
#include "loom/transforms/scan_sink.h"

namespace loom::lax {
namespace {

std::string spec_str(const Array& a) { return std::string(dtype_name(a.dtype())) + shape_str(a.shape()); }

// The buffers of an enclosing trace that the traced functions read, in order of first use,
// each with the dtype its readers view it in (bytes when they differ).
struct Captures {
  std::vector<std::shared_ptr<Buffer>> buffers;
  std::unordered_map<const Buffer*, DType> dtype;

  void add(const Array& a) {
    auto [it, fresh] = dtype.emplace(a.buffer().get(), a.dtype());
    if (fresh)
      buffers.push_back(a.buffer());
    else if (it->second != a.dtype())
      it->second = uint8;
  }
  // Each buffer whole, as the op's operand and the graphs' input: typed, so that grad can
  // hand a cotangent to what a loop body reads (a scan's weights), else as bytes.
  std::vector<Array> arrays() const {
    std::vector<Array> out;
    for (const auto& b : buffers) {
      DType dt = dtype.at(b.get());
      if (b->nbytes() % itemsize(dt) != 0) dt = uint8;
      const int64_t item = static_cast<int64_t>(itemsize(dt));
      out.emplace_back(b, dt, Shape{static_cast<int64_t>(b->nbytes()) / item}, Strides{item}, 0);
    }
    return out;
  }
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
    if (outer(a)) captures.add(a);
  };
  for (const TracedOp& o : g.ops) {
    for (const Array& a : o.inputs) capture(a);
    for (const Array& a : o.outputs)
      if (outer(a))
        throw_value_error(op, std::string(who) + " writes an array from outside the loop in place (" + o.op->name +
                                  " into a " + spec_str(a) +
                                  " view); a loop's only results are its carry (and a scan's ys): return the new "
                                  "value in it");
  }
  for (const Array& a : g.outputs) capture(a);
  return g;
}

// The first init.size() results of a step must have the carry's types.
void check_carry(const char* op, const char* who, const std::vector<Array>& next, const std::vector<Array>& init) {
  for (size_t i = 0; i < init.size(); ++i)
    if (!next[i].valid() || !(ArraySpec::of(next[i]) == ArraySpec::of(init[i])))
      throw_dtype_error(op, std::string(who) + " must return the carry's types: element " + std::to_string(i) +
                                " is " +
                                (next[i].valid() ? spec_str(next[i]) + " on " + next[i].device().str() : "empty") +
                                ", the carry's is " + spec_str(init[i]) + " on " + init[i].device().str());
}

// Whether one of g's records writes into one of its inputs (graphs are traced on their
// arguments alone: the captured buffers are appended after this is asked).
bool writes_inputs(const TracedGraph& g) {
  std::unordered_set<const Buffer*> in;
  for (const Array& a : g.inputs) in.insert(a.buffer().get());
  for (const TracedOp& o : g.ops)
    for (const Array& a : o.outputs)
      if (a.valid() && in.count(a.buffer().get()) > 0) return true;
  return false;
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
  check_carry(kOp, "body_fun", next, init);
  program->writes_carry = writes_inputs(program->cond) || writes_inputs(program->body);
  // Each captured buffer, whole, becomes an input of both graphs and an operand of the op.
  const std::vector<Array> captured = captures.arrays();
  for (const Array& c : captured) {
    program->cond.inputs.push_back(c);
    program->body.inputs.push_back(c);
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
  if (!body) throw_value_error("fori_loop", "body_fun is empty");
  const Device dev = init.empty() || !init[0].valid() ? cpu() : init[0].device();
  // A known trip count: a scan over (i, carry), which reverse mode can run backwards.
  std::vector<Array> carry{full({}, Scalar(lower), int64, dev)};
  carry.insert(carry.end(), init.begin(), init.end());
  const ArrayFn step = [&body](const std::vector<Array>& c) {
    const std::vector<Array> rest = body(c[0], std::vector<Array>(c.begin() + 1, c.end()));
    std::vector<Array> next{add(c[0], Scalar(1))};
    next.insert(next.end(), rest.begin(), rest.end());
    return next;
  };
  ScanResult r = scan(step, carry, {}, std::max<int64_t>(upper - lower, 0));
  return std::vector<Array>(r.carry.begin() + 1, r.carry.end());
}

ScanResult scan(const ArrayFn& f, const std::vector<Array>& init, const std::vector<Array>& xs,
                std::optional<int64_t> length, bool reverse) {
  constexpr const char* kOp = "scan";
  if (!f) throw_value_error(kOp, "f is empty");
  std::vector<ArraySpec> specs;
  for (size_t i = 0; i < init.size(); ++i) {
    if (!init[i].valid()) throw_value_error(kOp, "carry element " + std::to_string(i) + " is an empty Array handle");
    specs.push_back(ArraySpec::of(init[i]));
  }
  // The trip count: every x's leading extent, and `length` where given.
  std::optional<int64_t> n = length;
  std::vector<Array> slices_of;  // each x, C-contiguous, so that its slices are
  for (size_t j = 0; j < xs.size(); ++j) {
    const Array& x = xs[j];
    if (!x.valid()) throw_value_error(kOp, "xs element " + std::to_string(j) + " is an empty Array handle");
    if (x.ndim() == 0)
      throw_value_error(kOp, "xs element " + std::to_string(j) + " is a scalar (shape ()): scan steps over each x's "
                                 "leading axis, so every x needs one");
    if (n && *n != x.shape()[0])
      throw_value_error(kOp, "xs element " + std::to_string(j) + " has leading extent " + std::to_string(x.shape()[0]) +
                                 ", but " + (j == 0 ? "length is " : "xs element 0 has ") + std::to_string(*n) +
                                 ": every x must have the scan's length along axis 0");
    n = x.shape()[0];
    slices_of.push_back(x.contiguous());
    specs.push_back({Shape(x.shape().begin() + 1, x.shape().end()), x.dtype(), x.device()});
  }
  if (!n) throw_value_error(kOp, "with no xs, give the length of the scan");
  if (*n < 0) throw_value_error(kOp, "length must be >= 0, got " + std::to_string(*n));

  auto program = std::make_shared<ScanProgram>();
  program->num_carry = init.size();
  program->num_xs = xs.size();
  program->length = *n;
  program->reverse = reverse;
  Captures captures;
  program->body = trace_closed(kOp, "f", f, specs, captures);
  const std::vector<Array>& outs = program->body.outputs;
  if (outs.size() < init.size())
    throw_value_error(kOp, "f must return the carry (" + std::to_string(init.size()) + " arrays) and then the ys, got " +
                               std::to_string(outs.size()) + " arrays");
  check_carry(kOp, "f", outs, init);
  program->num_ys = outs.size() - init.size();
  program->writes_inputs = writes_inputs(program->body);
  const std::vector<Array> captured = captures.arrays();
  for (const Array& c : captured) program->body.inputs.push_back(c);
  // What the step computes from its x alone runs once over all the xs (transforms/scan_hoist.h).
  const std::vector<Array> hoisted = hoist_carry_independent(*program, slices_of, captured);
  slices_of.insert(slices_of.end(), hoisted.begin(), hoisted.end());
  // What the step computes only for its ys runs once after the loop (transforms/scan_sink.h).
  size_t xs_bytes = 0;
  for (const Array& x : slices_of) xs_bytes += x.nbytes();
  const std::unique_ptr<ScanSink> sink = sink_ys_only_ops(*program, xs_bytes);

  ScanResult r;
  for (const ArraySpec& s : std::vector<ArraySpec>(specs.begin(), specs.begin() + init.size()))
    r.carry.push_back(Array::allocate(s.shape, s.dtype, s.device));
  for (size_t j = init.size(); j < outs.size(); ++j) {
    if (!outs[j].valid()) throw_value_error(kOp, "f returned an empty Array handle as y " + std::to_string(j - init.size()));
    Shape shape{*n};
    shape.insert(shape.end(), outs[j].shape().begin(), outs[j].shape().end());
    r.ys.push_back(Array::allocate(shape, outs[j].dtype(), outs[j].device()));
  }
  std::vector<Array> operands = init, results = r.carry;
  operands.insert(operands.end(), slices_of.begin(), slices_of.end());
  operands.insert(operands.end(), captured.begin(), captured.end());
  results.insert(results.end(), r.ys.begin(), r.ys.end());
  dispatch(primitives::scan_loop, trace_detail::refs(operands), trace_detail::refs(results), init, slices_of, captured,
           r.carry, r.ys, ScanProgramPtr(std::move(program)));
  if (sink) r.ys = finish_sunk_ys(*sink, r.ys, slices_of, captured);
  return r;
}

namespace {

// switch_ under the name of the op the user called (switch or cond).
std::vector<Array> run_switch(const char* kOp, const Array& index, const std::vector<ArrayFn>& branches,
                              const std::vector<Array>& operands) {
  if (!index.valid() || index.ndim() != 0 || !(is_integer(index.dtype()) || index.dtype() == bool_))
    throw_dtype_error(kOp, "the index must be an integer or bool scalar, got " +
                               (index.valid() ? spec_str(index) : std::string("an empty Array handle")));
  if (branches.empty()) throw_value_error(kOp, "there are no branches");
  std::vector<ArraySpec> specs;
  for (size_t i = 0; i < operands.size(); ++i) {
    if (!operands[i].valid())
      throw_value_error(kOp, "operand " + std::to_string(i) + " is an empty Array handle");
    specs.push_back(ArraySpec::of(operands[i]));
  }
  auto program = std::make_shared<SwitchProgram>(branches.size());
  program->num_operands = operands.size();
  Captures captures;
  for (size_t k = 0; k < branches.size(); ++k) {
    if (!branches[k]) throw_value_error(kOp, "branch " + std::to_string(k) + " is empty");
    program->branches[k] = trace_closed(kOp, ("branch " + std::to_string(k)).c_str(), branches[k], specs, captures);
  }
  const std::vector<Array>& first = program->branches[0].outputs;
  for (size_t k = 1; k < branches.size(); ++k) {
    const std::vector<Array>& outs = program->branches[k].outputs;
    if (outs.size() != first.size())
      throw_value_error(kOp, "branch 0 returns " + std::to_string(first.size()) + " arrays but branch " +
                                 std::to_string(k) + " returns " + std::to_string(outs.size()));
    for (size_t j = 0; j < outs.size(); ++j)
      if (!outs[j].valid() || !first[j].valid() || !(ArraySpec::of(outs[j]) == ArraySpec::of(first[j])))
        throw_dtype_error(kOp, "the branches must return identical shapes, dtypes and devices: output " +
                                   std::to_string(j) + " is " + (first[j].valid() ? spec_str(first[j]) : "empty") +
                                   " in branch 0 but " + (outs[j].valid() ? spec_str(outs[j]) : "empty") +
                                   " in branch " + std::to_string(k));
  }
  const std::vector<Array> captured = captures.arrays();
  for (TracedGraph& g : program->branches)
    for (const Array& c : captured) g.inputs.push_back(c);
  // The index as int32 (a bool picks branch 0 or 1), made on the host side of no one: an op.
  const Array idx = index.dtype() == int32 ? index : index.astype(int32);
  std::vector<Array> out;
  for (const Array& o : first) out.push_back(Array::allocate(o.shape(), o.dtype(), o.device()));
  std::vector<Array> in{idx};
  in.insert(in.end(), operands.begin(), operands.end());
  in.insert(in.end(), captured.begin(), captured.end());
  dispatch(primitives::switch_branches, trace_detail::refs(in), trace_detail::refs(out), idx, operands, captured, out,
           SwitchProgramPtr(std::move(program)));
  return out;
}

}  // namespace

std::vector<Array> switch_(const Array& index, const std::vector<ArrayFn>& branches, const std::vector<Array>& operands) {
  return run_switch("switch", index, branches, operands);
}

std::vector<Array> cond(const Array& pred, const ArrayFn& true_fn, const ArrayFn& false_fn,
                        const std::vector<Array>& operands) {
  if (!pred.valid() || pred.ndim() != 0 || !(is_integer(pred.dtype()) || pred.dtype() == bool_))
    throw_dtype_error("cond", "the predicate must be a bool (or integer) scalar, got " +
                                  (pred.valid() ? spec_str(pred) : std::string("an empty Array handle")));
  // Any nonzero integer is true, as JAX converts it.
  const Array p = pred.dtype() == bool_ ? pred : not_equal(pred, Scalar(0));
  return run_switch("cond", p, {false_fn, true_fn}, operands);
}

}  // namespace loom::lax

namespace loom {

namespace {

// What the call-like primitives share (remat, custom_vjp_call, custom_jvp_call): `f` traced
// once on the args' specs into `graph`, the arrays it captures appended to the graph's
// inputs; the record's inputs (args, then captured) and one fresh output per graph output.
struct CallOperands {
  std::vector<Array> captured, in, out;
};
CallOperands trace_call(const char* op, const char* what, const ArrayFn& f, const std::vector<Array>& args,
                        TracedGraph& graph) {
  std::vector<ArraySpec> specs;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].valid()) throw_value_error(op, "argument " + std::to_string(i) + " is an empty Array handle");
    specs.push_back(ArraySpec::of(args[i]));
  }
  lax::Captures captures;
  graph = lax::trace_closed(op, what, f, specs, captures);
  CallOperands c;
  c.captured = captures.arrays();
  for (const Array& a : c.captured) graph.inputs.push_back(a);
  for (size_t j = 0; j < graph.outputs.size(); ++j) {
    const Array& o = graph.outputs[j];
    if (!o.valid())
      throw_value_error(op, std::string(what) + " returned an empty Array handle as output " + std::to_string(j));
    c.out.push_back(Array::allocate(o.shape(), o.dtype(), o.device()));
  }
  c.in = args;
  c.in.insert(c.in.end(), c.captured.begin(), c.captured.end());
  return c;
}

}  // namespace

ArrayFn checkpoint(ArrayFn fn) {
  if (!fn) throw_value_error("checkpoint", "the function is empty");
  return [fn = std::move(fn)](const std::vector<Array>& args) {
    auto program = std::make_shared<RematProgram>();
    const CallOperands c = trace_call("checkpoint", "the function", fn, args, program->fn);
    dispatch(primitives::remat, trace_detail::refs(c.in), trace_detail::refs(c.out), args, c.captured, c.out,
             RematProgramPtr(std::move(program)));
    return c.out;
  };
}

std::vector<Array> custom_vjp_call(const ArrayFn& fwd, ArrayFn bwd, const std::vector<Array>& args,
                                   const std::function<size_t()>& num_out) {
  constexpr const char* kOp = "custom_vjp";
  if (!fwd) throw_value_error(kOp, "fwd is empty");
  if (!bwd) throw_value_error(kOp, "bwd is empty");
  auto program = std::make_shared<CustomVjpProgram>();
  const CallOperands c = trace_call(kOp, "fwd", fwd, args, program->fwd);
  program->bwd = std::move(bwd);
  program->num_args = args.size();
  program->num_out = num_out();
  if (program->num_out > c.out.size())
    throw_value_error(kOp, "fwd returned " + std::to_string(c.out.size()) + " arrays, fewer than its " +
                               std::to_string(program->num_out) + " outputs");
  dispatch(primitives::custom_vjp_call, trace_detail::refs(c.in), trace_detail::refs(c.out), args, c.captured, c.out,
           CustomVjpProgramPtr(std::move(program)));
  return c.out;
}

std::vector<Array> custom_jvp_call(const ArrayFn& fn, ArrayFn jvp, const std::vector<Array>& args) {
  constexpr const char* kOp = "custom_jvp";
  if (!fn) throw_value_error(kOp, "fn is empty");
  if (!jvp) throw_value_error(kOp, "jvp is empty");
  auto program = std::make_shared<CustomJvpProgram>();
  const CallOperands c = trace_call(kOp, "fn", fn, args, program->fn);
  program->jvp = std::move(jvp);
  program->num_args = args.size();
  dispatch(primitives::custom_jvp_call, trace_detail::refs(c.in), trace_detail::refs(c.out), args, c.captured, c.out,
           CustomJvpProgramPtr(std::move(program)));
  return c.out;
}

std::vector<Array> while_loop_transpose(const LoopProgramPtr& loop, const std::vector<Array>& init,
                                        const std::vector<Array>& captured, const std::vector<Array>& cts) {
  const size_t nc = init.size(), ncap = captured.size();
  // One step back: the body's pullback at the carry it started from, on (carry, captured,
  // the next carry's cotangent). A buffer with no tangent space gets a zero cotangent.
  const ArrayFn back = [loop, nc, ncap](const std::vector<Array>& a) {
    const std::vector<Array> primals(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(nc + ncap));
    const std::vector<Array> ct(a.begin() + static_cast<std::ptrdiff_t>(nc + ncap), a.end());
    auto [unused, pullback] = vjp([loop](const std::vector<Array>& in) { return replay(loop->body, in); }, primals);
    (void)unused;
    std::vector<Array> g = pullback(ct);
    for (size_t i = 0; i < g.size(); ++i)
      if (!g[i].valid() || !has_tangent_space(primals[i].dtype())) g[i] = zeros_like(primals[i]);
    return g;
  };
  std::vector<Array> args = init;
  args.insert(args.end(), captured.begin(), captured.end());
  args.insert(args.end(), cts.begin(), cts.end());
  auto program = std::make_shared<LoopTransposeProgram>();
  program->loop = loop;
  program->num_captured = ncap;
  const CallOperands c = trace_call("while_loop", "the loop's derivative", back, args, program->back);
  program->back_writes_inputs = lax::writes_inputs(program->back);
  const std::vector<Array> ct_init(c.out.begin(), c.out.begin() + static_cast<std::ptrdiff_t>(nc));
  const std::vector<Array> ct_captured(c.out.begin() + static_cast<std::ptrdiff_t>(nc), c.out.end());
  dispatch(primitives::while_loop_transpose, trace_detail::refs(c.in), trace_detail::refs(c.out), init, captured, cts,
           c.captured, ct_init, ct_captured, LoopTransposeProgramPtr(std::move(program)));
  return c.out;
}

}  // namespace loom
