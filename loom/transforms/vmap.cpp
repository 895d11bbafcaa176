// loom::vmap: trace one example, give each abstract buffer that depends on a mapped
// argument one copy per example (BatchMap), run each record for the whole batch.
#include "loom/transforms/vmap.h"

#include <string>
#include <unordered_set>

#include "loom/core/error.h"
#include "loom/dispatch/rules.h"
#include "loom/ops/batch_common.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/shape_ops.h"
#include "loom/runtime/abstract_allocations.h"

namespace loom {
namespace {

using BufferSet = std::unordered_set<const Buffer*>;

int normalize(int axis, int ndim, const std::string& what) {
  if (axis < -ndim || axis >= ndim)
    throw_value_error("vmap", what + " = " + std::to_string(axis) + " is out of range for an array of rank " +
                                  std::to_string(ndim) + " (valid: " + std::to_string(-ndim) + " to " +
                                  std::to_string(ndim - 1) + ")");
  return axis < 0 ? axis + ndim : axis;
}

// The batch size, from the batched arguments and axis_size; names them when they disagree.
int64_t batch_size(const std::vector<Array>& args, const std::vector<std::optional<int>>& axes,
                   std::optional<int64_t> axis_size) {
  std::optional<int64_t> size = axis_size;
  std::string first = axis_size ? "axis_size " + std::to_string(*axis_size) : "";
  if (axis_size && *axis_size < 0)
    throw_value_error("vmap", "axis_size must be >= 0, got " + std::to_string(*axis_size));
  for (size_t i = 0; i < args.size(); ++i) {
    if (!axes[i]) continue;
    const int64_t n = args[i].shape()[*axes[i]];
    const std::string here = "argument " + std::to_string(i) + " has size " + std::to_string(n) + " on axis " +
                             std::to_string(*axes[i]);
    if (!size) size = n, first = here;
    else if (*size != n)
      throw_value_error("vmap", "the mapped axes have different sizes: " + first + ", but " + here);
  }
  if (!size) throw_value_error("vmap", "no argument is mapped (every in_axes entry is None): give axis_size");
  return *size;
}

// Which buffers differ between examples: the batched arguments', then (to a fixpoint, since
// a buffer may be written after it is read) every buffer an op writes from a batched one.
BufferSet batched_buffers(const TracedGraph& g, const std::vector<std::optional<int>>& axes) {
  BufferSet s;
  for (size_t i = 0; i < g.inputs.size(); ++i)
    if (axes[i]) s.insert(g.inputs[i].buffer().get());
  for (bool changed = true; changed;) {
    changed = false;
    for (const TracedOp& op : g.ops) {
      bool any = false;
      for (const Array& a : op.inputs) any = any || (a.valid() && s.count(a.buffer().get()));
      if (!any) continue;
      for (const Array& o : op.outputs)
        if (o.valid() && s.insert(o.buffer().get()).second) changed = true;
    }
  }
  return s;
}

// A contiguous array's memory as bytes.
Array bytes_of(const Array& c) { return Array(c.buffer(), uint8, {static_cast<int64_t>(c.nbytes())}, {1}, c.offset()); }

// A buffer the size of `b` for every example (or one shared by all), starting as `init`
// (bytes, the same for every example) when given.
BatchBinding fresh(const Buffer& b, int64_t size, bool batched, const Array& init = Array()) {
  const int64_t n = static_cast<int64_t>(b.nbytes());
  const Array all = Array::allocate({batched ? size : 1, n}, uint8, b.device());
  if (init.valid()) copyto(all, init);
  return {all.buffer(), all.offset(), batched ? n : 0};
}

std::vector<Array> run_vmap(const ArrayFn& f, std::vector<std::optional<int>> axes, const OutAxesFn& out_axes_of,
                            std::optional<int64_t> axis_size, const std::vector<Array>& args) {
  if (axes.empty()) axes.assign(args.size(), 0);
  if (axes.size() != args.size())
    throw_value_error("vmap", "in_axes has " + std::to_string(axes.size()) + " entries but the function got " +
                                  std::to_string(args.size()) + " arguments");
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].valid()) throw_value_error("vmap", "argument " + std::to_string(i) + " is an empty Array handle");
    if (axes[i]) axes[i] = normalize(*axes[i], args[i].ndim(), "in_axes[" + std::to_string(i) + "]");
  }
  const int64_t size = batch_size(args, axes, axis_size);

  // Each batched argument with its batch axis first and contiguous: batch stride = example size.
  std::vector<Array> bound(args.size());
  std::vector<ArraySpec> specs;
  for (size_t i = 0; i < args.size(); ++i) {
    bound[i] = (axes[i] ? moveaxis(args[i], {*axes[i]}, {0}) : args[i]).contiguous();
    ArraySpec s = ArraySpec::of(args[i]);
    if (axes[i]) s.shape.erase(s.shape.begin() + *axes[i]);
    specs.push_back(std::move(s));
  }
  // What the trace allocates is the function's own; an abstract buffer it reads but did not
  // allocate belongs to an enclosing trace (jit(lambda w, xs: vmap(lambda x: w @ x)(xs))).
  memory::AbstractAllocationLog log;
  const TracedGraph g = trace(f, specs);
  const std::vector<std::optional<int>> out_axes = out_axes_of(g.outputs.size());
  const BufferSet batched = batched_buffers(g, axes);
  if (!out_axes.empty() && out_axes.size() != g.outputs.size())
    throw_value_error("vmap", "out_axes has " + std::to_string(out_axes.size()) +
                                  " entries but the function returned " + std::to_string(g.outputs.size()) +
                                  " arrays");

  BatchMap m;
  m.size = size;
  for (size_t i = 0; i < args.size(); ++i) {
    const Buffer* key = g.inputs[i].buffer().get();
    if (axes[i]) m.buffers[key] = {bound[i].buffer(), bound[i].offset(), static_cast<int64_t>(g.inputs[i].nbytes())};
    else if (batched.count(key))  // an unmapped argument that ops write per example: one copy each
      m.buffers[key] = fresh(*key, size, true, bytes_of(bound[i]));
    else m.buffers[key] = {bound[i].buffer(), bound[i].offset(), 0};
  }
  // Constants the function writes into start each call as a fresh copy (as in replay()).
  for (const Array& c : g.written_constants)
    m.buffers[c.buffer().get()] = fresh(*c.buffer(), size, batched.count(c.buffer().get()), c);
  // Intermediates, and results allocated but never written (empty()). An enclosing trace's
  // array the function closes over is the same array for every example: bound to itself.
  auto add = [&](const Array& a) {
    const Buffer* b = a.valid() ? a.buffer().get() : nullptr;
    if (!b || !b->is_abstract() || b->is_trace_constant() || m.buffers.count(b)) return;
    if (log.allocated_here(b)) m.buffers[b] = fresh(*b, size, batched.count(b));
    else m.buffers[b] = {a.buffer(), 0, 0};
  };
  for (const TracedOp& op : g.ops) {
    for (const Array& a : op.inputs) add(a);
    for (const Array& a : op.outputs) {
      if (a.valid() && a.buffer()->is_abstract() && !a.buffer()->is_trace_constant() &&
          !log.allocated_here(a.buffer().get()) && batched.count(a.buffer().get()))
        throw_value_error("vmap", std::string("the function writes an array from outside it in place (") +
                                      op.op->name + "): under vmap each example would write the one array; "
                                      "return the new value instead");
      add(a);
    }
  }
  for (const Array& a : g.outputs) add(a);

  // An op that touches no batched buffer runs once; the others through their batching rule,
  // or once per example where the primitive has none (its row says why: PrimitiveInfo::no_batch).
  const BufferMap example0 = m.example(0);
  for (const TracedOp& op : g.ops) {
    bool any = false;
    for (const auto* list : {&op.inputs, &op.outputs})
      for (const Array& a : *list) any = any || (a.valid() && batched.count(a.buffer().get()));
    if (!any) {
      op.run(op, example0);
      continue;
    }
    if (BatchRule rule = op.op->batch) rule(op, m);
    else batch::per_example(op, m);
  }

  std::vector<Array> outs;
  outs.reserve(g.outputs.size());
  for (size_t j = 0; j < g.outputs.size(); ++j) {
    const Array& o = g.outputs[j];
    if (!o.valid()) throw_value_error("vmap", "result " + std::to_string(j) + " is an empty Array handle");
    const Buffer* b = o.buffer().get();
    const std::optional<int> out_axis = out_axes.empty() ? std::optional<int>(0) : out_axes[j];
    if (!out_axis) {  // an unmapped result: the one value every example shares, as JAX
      if (batched.count(b))
        throw_value_error("vmap", "out_axes[" + std::to_string(j) + "] is None, but result " + std::to_string(j) +
                                      " depends on the mapped axis");
      outs.push_back(rebind(o, example0).copy());
      continue;
    }
    Array r;
    if (batched.count(b)) {
      r = m.batched(o);
    } else {  // the same for every example: broadcast, as JAX does
      Shape shape{size};
      shape.insert(shape.end(), o.shape().begin(), o.shape().end());
      r = broadcast_to(rebind(o, example0), shape).copy();
    }
    const int axis = normalize(*out_axis, r.ndim(), "out_axes[" + std::to_string(j) + "]");
    outs.push_back(axis == 0 ? r : moveaxis(r, {0}, {axis}));
  }
  return outs;
}

}  // namespace

ArrayFn vmap_deferred_out_axes(ArrayFn f, std::vector<std::optional<int>> in_axes, OutAxesFn out_axes_of,
             std::optional<int64_t> axis_size) {
  if (!f) throw_value_error("vmap", "the function is empty");
  if (!out_axes_of) throw_value_error("vmap", "the out_axes function is empty");
  return [f = std::move(f), in_axes = std::move(in_axes), out_axes_of = std::move(out_axes_of),
          axis_size](const std::vector<Array>& args) { return run_vmap(f, in_axes, out_axes_of, axis_size, args); };
}

ArrayFn vmap(ArrayFn f, std::vector<std::optional<int>> in_axes, std::vector<std::optional<int>> out_axes,
             std::optional<int64_t> axis_size) {
  OutAxesFn fixed = [out_axes = std::move(out_axes)](size_t) { return out_axes; };
  return vmap_deferred_out_axes(std::move(f), std::move(in_axes), std::move(fixed), axis_size);
}

}  // namespace loom
