// The control-flow family's primitives (transforms/control_flow_primitives.h), each row
// below with its eval and rules.
//
// while_loop's eval runs the two compiled graphs on the carry, reading the predicate on the
// host after each test (as JAX's while_loop does on a GPU). Batching: the loop keeps going
// while any example's predicate holds, and an example whose predicate has failed keeps its
// carry (a select, as JAX does), so every example ends where it would have alone; the new
// loop is itself a while_loop over vmapped cond and body. Its vjp, a while_loop_transpose
// record, and forward mode through it are in transforms/loop_transpose.cpp.
//
// scan's eval runs the compiled body once per step on the carry and the step's slices of
// the xs, and writes each step's ys into row t of the stacked outputs. Its vjp is two scans
// (JAX's rule, with the residuals recomputed rather than stored by the forward op): a forward
// scan that stacks the carry each step starts from, then a scan the other way whose step is
// the body's pullback at (that carry, x[t]), carrying the carry's cotangent and the sums of
// the captured arrays' cotangents, and stacking the xs' cotangents. Both are scans, so grad
// of grad and jit of grad go through the same records. Batching scans a vmapped body over
// the xs with the batch axis moved behind the scan's.
//
// switch_branches's eval reads the index on the host and runs that branch's compiled graph.
// Its vjp is a switch on the same index over the branches' pullbacks (the index has no
// derivative); batching runs a switch of vmapped branches when the index is shared, and
// every branch with a per-example select when it is batched (JAX's rule).
#include "loom/transforms/control_flow_primitives.h"

#include <cstdint>
#include <optional>
#include <tuple>
#include <string>

#include "loom/core/interrupt.h"
#include "loom/dispatch/rules.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/creation.h"
#include "loom/ops/grad_util.h"
#include "loom/transforms/autodiff.h"
#include "loom/transforms/control_flow.h"
#include "loom/transforms/vmap.h"
#include "loom/transforms/vmap_operands.h"

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

const CompiledPlan& ScanProgram::body_plan() const {
  std::call_once(compiled_, [this] { body_plan_ = std::make_unique<CompiledPlan>(body); });
  return *body_plan_;
}

namespace {

// Row t of `a` along its leading axis, as a view.
Array row(const Array& a, int64_t t) {
  return a.view(Shape(a.shape().begin() + 1, a.shape().end()), Strides(a.strides().begin() + 1, a.strides().end()),
                a.offset() + t * a.strides()[0]);
}

}  // namespace

const CompiledPlan& SwitchProgram::plan(size_t k) const {
  std::call_once(once_[k], [this, k] { plans_[k] = std::make_unique<CompiledPlan>(branches[k]); });
  return *plans_[k];
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

void scan_loop(const std::vector<Array>& init, const std::vector<Array>& xs, const std::vector<Array>& captured,
          const std::vector<Array>& carry_out, const std::vector<Array>& ys, const ScanProgramPtr& program) {
  const ScanProgram& p = *program;
  const size_t nc = p.num_carry;
  std::vector<Array> args;
  for (const Array& a : init) args.push_back(p.writes_inputs ? a.copy() : a);
  args.resize(nc + xs.size());
  args.insert(args.end(), captured.begin(), captured.end());
  InterruptScope interrupt;
  std::vector<Array> into(nc + ys.size());  // the step's ys are written straight into their rows
  for (int64_t step = 0; step < p.length; ++step) {
    const int64_t t = p.reverse ? p.length - 1 - step : step;
    for (size_t j = 0; j < xs.size(); ++j) args[nc + j] = p.writes_inputs ? row(xs[j], t).copy() : row(xs[j], t);
    for (size_t j = 0; j < ys.size(); ++j) into[nc + j] = row(ys[j], t);
    if (interrupt.interrupted()) throw_interrupted("scan", " after " + std::to_string(step) + " steps");
    std::vector<Array> next = p.body_plan().run(args, &into);
    for (size_t j = 0; j < ys.size(); ++j) {
      const Array& y = next[nc + j];
      const Array& dst = into[nc + j];
      if (!(y.buffer() == dst.buffer() && y.offset() == dst.offset())) copyto(dst, y);  // not written in place
    }
    for (size_t i = 0; i < nc; ++i) args[i] = std::move(next[i]);
  }
  for (size_t i = 0; i < nc; ++i) copyto(carry_out[i], args[i]);
}

// On a GPU the scan replays its CUDA graph once it has one (transforms/scan_graph.h).
void scan_loop_gpu(const std::vector<Array>& init, const std::vector<Array>& xs, const std::vector<Array>& captured,
                   const std::vector<Array>& carry_out, const std::vector<Array>& ys, const ScanProgramPtr& program) {
  if (!run_scan_as_graph(init, xs, captured, carry_out, ys, program, scan_loop))
    scan_loop(init, xs, captured, carry_out, ys, program);
}

void switch_branches(const Array& index, const std::vector<Array>& operands, const std::vector<Array>& captured,
                     const std::vector<Array>& out, const SwitchProgramPtr& program) {
  int32_t k = 0;
  index.copy_to_host(&k);
  const int32_t last = static_cast<int32_t>(program->branches.size()) - 1;
  k = k < 0 ? 0 : (k > last ? last : k);  // JAX clamps the index
  std::vector<Array> args = operands;
  args.insert(args.end(), captured.begin(), captured.end());
  const std::vector<Array> r = program->plan(static_cast<size_t>(k)).run(args);
  for (size_t j = 0; j < out.size(); ++j) copyto(out[j], r[j]);
}

}  // namespace control_flow_evals

namespace control_flow_vjp {
namespace {

// The cotangents in the rule are in the backward pass's convention, the conjugates of the
// public vjp's (docs/TRANSFORMS.md §6), which the steps' pullbacks below use.
// The record's arrays are read from its operands and results, which the backward pass has
// bound to their values (its array arguments still name the trace's buffers).
void scan_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  const ScanProgramPtr p = std::get<5>(op.args_as<std::vector<Array>, std::vector<Array>, std::vector<Array>,
                                                  std::vector<Array>, std::vector<Array>, ScanProgramPtr>());
  const size_t nc = p->num_carry, nx = p->num_xs, ny = p->num_ys, ncap = op.inputs.size() - nc - nx;
  const auto part = [](const std::vector<Array>& v, size_t from, size_t n) {
    return std::vector<Array>(v.begin() + static_cast<std::ptrdiff_t>(from),
                              v.begin() + static_cast<std::ptrdiff_t>(from + n));
  };
  const std::vector<Array> init = part(op.inputs, 0, nc), xs = part(op.inputs, nc, nx),
                           captured = part(op.inputs, nc + nx, ncap), carry_out = part(op.outputs, 0, nc),
                           ys = part(op.outputs, nc, ny);
  const std::vector<Array> caps = captured;
  auto step = [p, caps](std::vector<Array> carry_and_x) {
    carry_and_x.insert(carry_and_x.end(), caps.begin(), caps.end());
    return replay(p->body, carry_and_x);
  };
  // The carry each step starts from, at the step's row (a forward scan: the residuals).
  const ArrayFn starts = [step, nc](const std::vector<Array>& a) {
    std::vector<Array> out = step(a);
    out.resize(nc);
    out.insert(out.end(), a.begin(), a.begin() + static_cast<std::ptrdiff_t>(nc));
    return out;
  };
  const lax::ScanResult fwd = lax::scan(starts, init, xs, p->length, p->reverse);

  // Backwards: carry (the carry's cotangent, the captured arrays' summed cotangents), xs
  // (x[t], the carry at t, ys' cotangent at t); each step the body's pullback there.
  const ArrayFn back = [p, caps, nc, nx, ny, ncap](const std::vector<Array>& a) {
    const auto at = [&a](size_t from, size_t n) {
      return std::vector<Array>(a.begin() + static_cast<std::ptrdiff_t>(from),
                                a.begin() + static_cast<std::ptrdiff_t>(from + n));
    };
    const std::vector<Array> ct_carry = at(0, nc), acc = at(nc, ncap), x = at(nc + ncap, nx),
                             carry = at(nc + ncap + nx, nc), ct_y = at(nc + ncap + nx + nc, ny);
    std::vector<Array> primals = carry;
    primals.insert(primals.end(), x.begin(), x.end());
    primals.insert(primals.end(), caps.begin(), caps.end());
    auto [unused, pullback] = vjp([p](const std::vector<Array>& in) { return replay(p->body, in); }, primals);
    (void)unused;
    std::vector<Array> cts = ct_carry;
    cts.insert(cts.end(), ct_y.begin(), ct_y.end());
    const std::vector<Array> g = pullback(cts);
    std::vector<Array> out(g.begin(), g.begin() + static_cast<std::ptrdiff_t>(nc));  // the carry's cotangent
    for (size_t k = 0; k < ncap; ++k) out.push_back(add(acc[k], g[nc + nx + k]));
    out.insert(out.end(), g.begin() + static_cast<std::ptrdiff_t>(nc), g.begin() + static_cast<std::ptrdiff_t>(nc + nx));
    return out;
  };
  std::vector<Array> back_init, back_xs = xs;
  for (size_t i = 0; i < nc; ++i)
    back_init.push_back(out_cts[i].valid() ? conj(out_cts[i]) : zeros_like(carry_out[i]));
  for (const Array& c : captured) back_init.push_back(zeros_like(c));
  back_xs.insert(back_xs.end(), fwd.ys.begin(), fwd.ys.end());
  for (size_t j = 0; j < ny; ++j) back_xs.push_back(out_cts[nc + j].valid() ? conj(out_cts[nc + j]) : zeros_like(ys[j]));
  const lax::ScanResult bwd = lax::scan(back, back_init, back_xs, p->length, !p->reverse);
  for (size_t i = 0; i < nc; ++i) in_cts[i] = conj(bwd.carry[i]);
  for (size_t j = 0; j < nx; ++j) in_cts[nc + j] = conj(bwd.ys[j]);
  for (size_t k = 0; k < ncap; ++k) in_cts[nc + nx + k] = conj(bwd.carry[nc + k]);
}

// A switch on the same index whose branch k is branch k's pullback at the operands (in the
// public vjp's convention, as for scan), giving the operands' and captured arrays' cotangents.
void switch_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  const SwitchProgramPtr p = std::get<4>(
      op.args_as<Array, std::vector<Array>, std::vector<Array>, std::vector<Array>, SwitchProgramPtr>());
  const size_t nops = p->num_operands, nin = op.inputs.size() - 1;
  const std::vector<Array> primals(op.inputs.begin() + 1, op.inputs.end());  // operands, captured
  std::vector<Array> cts;
  for (size_t j = 0; j < op.outputs.size(); ++j)
    cts.push_back(out_cts[j].valid() ? conj(out_cts[j]) : zeros_like(op.outputs[j]));
  std::vector<ArrayFn> backs;
  for (size_t k = 0; k < p->branches.size(); ++k)
    backs.push_back([p, k, nin](const std::vector<Array>& a) {
      const std::vector<Array> prim(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(nin));
      const std::vector<Array> ct(a.begin() + static_cast<std::ptrdiff_t>(nin), a.end());
      auto [unused, pullback] = vjp([p, k](const std::vector<Array>& in) { return replay(p->branches[k], in); }, prim);
      (void)unused;
      return pullback(ct);
    });
  std::vector<Array> args = primals;
  args.insert(args.end(), cts.begin(), cts.end());
  const std::vector<Array> g = lax::switch_(op.inputs[0], backs, args);
  for (size_t i = 0; i < nin; ++i) in_cts[1 + i] = conj(g[i]);
  (void)nops;
}

}  // namespace
}  // namespace control_flow_vjp

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
  append_vmap_operands(captured, m, m.example(0), extra, axes);
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

void scan_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [init, xs, captured, carry_out, ys, program] =
      op.args_as<std::vector<Array>, std::vector<Array>, std::vector<Array>, std::vector<Array>, std::vector<Array>,
                 ScanProgramPtr>();
  const size_t nc = init.size();
  const BufferMap example0 = m.example(0);
  // The carry over all examples (an unbatched element is copied per example, as for a loop);
  // a batched x is scanned over axis 1 (its batch axis moves behind the scan's), an
  // unbatched one as it is, and a captured buffer is batched only where it differs.
  std::vector<Array> carry, scan_xs, extra;
  std::vector<std::optional<int>> axes(nc, 0);
  for (const Array& a : init) carry.push_back(m.is_batched(a) ? m.batched(a) : m.batched(a).copy());
  for (const Array& x : xs) {
    scan_xs.push_back(m.is_batched(x) ? swapaxes(m.batched(x), 0, 1) : rebind(x, example0));
    axes.push_back(m.is_batched(x) ? std::optional<int>(0) : std::nullopt);
  }
  append_vmap_operands(captured, m, example0, extra, axes);
  const ScanProgramPtr p = program;
  const ArrayFn vbody = vmap([p](const std::vector<Array>& a) { return replay(p->body, a); }, axes);
  const ArrayFn f = [vbody, extra](std::vector<Array> a) {
    a.insert(a.end(), extra.begin(), extra.end());
    return vbody(a);
  };
  const lax::ScanResult r = lax::scan(f, carry, scan_xs, p->length, p->reverse);
  for (size_t i = 0; i < nc; ++i) copyto(m.batched(op.outputs[i]), r.carry[i]);
  for (size_t j = 0; j < r.ys.size(); ++j) copyto(m.batched(op.outputs[nc + j]), swapaxes(r.ys[j], 0, 1));
}

void switch_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [index, operands, captured, out, program] =
      op.args_as<Array, std::vector<Array>, std::vector<Array>, std::vector<Array>, SwitchProgramPtr>();
  const BufferMap example0 = m.example(0);
  std::vector<Array> args;
  std::vector<std::optional<int>> axes;
  append_vmap_operands(operands, m, example0, args, axes);
  append_vmap_operands(captured, m, example0, args, axes);
  const SwitchProgramPtr p = program;
  std::vector<ArrayFn> vbranches;
  for (size_t k = 0; k < p->branches.size(); ++k)
    vbranches.push_back(vmap([p, k](const std::vector<Array>& a) { return replay(p->branches[k], a); }, axes));
  std::vector<Array> result;
  if (!m.is_batched(index)) {
    // One index for every example: still one branch runs.
    std::vector<ArrayFn> fns;
    for (const ArrayFn& f : vbranches) fns.push_back([f, args](const std::vector<Array>&) { return f(args); });
    result = lax::switch_(rebind(index, example0), fns, {});
  } else {
    // Each example its own branch: every branch runs, each example selects its own result.
    const Array idx = clip(m.batched(index), Scalar(int32_t{0}), Scalar(static_cast<int32_t>(p->branches.size() - 1)));
    for (size_t k = 0; k < vbranches.size(); ++k) {
      const std::vector<Array> r = vbranches[k](args);
      if (k == 0) {
        result = r;
        continue;
      }
      const Array take_k = equal(idx, Scalar(static_cast<int32_t>(k)));
      for (size_t j = 0; j < r.size(); ++j) {
        Shape s(r[j].ndim(), 1);
        s[0] = m.size;
        result[j] = where(reshape(take_k, s), r[j], result[j]);
      }
    }
  }
  for (size_t j = 0; j < out.size(); ++j) copyto(m.batched(op.outputs[j]), result[j]);
}

}  // namespace
}  // namespace batch

const Primitive<WhileLoopFn> primitives::while_loop{
    PrimitiveInfo{"while_loop", "control_flow"}
        .takes_complex()
        .real_vjp(control_flow_vjp::while_loop_vjp)
        .batched(batch::while_loop_rule),
    control_flow_evals::while_loop, control_flow_evals::while_loop};

const Primitive<ScanLoopFn> primitives::scan_loop{
    PrimitiveInfo{"scan_loop", "control_flow"}.takes_complex().complex_vjp(control_flow_vjp::scan_vjp).batched(batch::scan_rule),
    control_flow_evals::scan_loop, control_flow_evals::scan_loop_gpu};

const Primitive<SwitchFn> primitives::switch_branches{
    PrimitiveInfo{"switch_branches", "control_flow"}
        .takes_complex()
        .complex_vjp(control_flow_vjp::switch_vjp)
        .batched(batch::switch_rule),
    control_flow_evals::switch_branches, control_flow_evals::switch_branches};

std::vector<const PrimitiveInfo*> control_flow_primitives() {
  std::vector<const PrimitiveInfo*> out;
#define LOOM_LIST_PRIMITIVE(Fn, name, extent) out.push_back(&primitives::name.info);
  LOOM_CONTROL_FLOW_PRIMITIVES(LOOM_LIST_PRIMITIVE)
#undef LOOM_LIST_PRIMITIVE
  return out;
}

}  // namespace loom
