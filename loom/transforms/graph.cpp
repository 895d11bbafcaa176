#include "loom/transforms/graph.h"

#include <algorithm>
#include <string>
#include <unordered_set>

#include "loom/core/error.h"

namespace loom {
namespace {

class GraphBuilder : public Tracer {
 public:
  explicit GraphBuilder(TracedGraph& g) : g_(g) {}
  void record(TracedOp op) override { g_.ops.push_back(std::move(op)); }

 private:
  TracedGraph& g_;
};

}  // namespace

BufferBinding bind_argument(const Array& a) {
  if (a.is_contiguous()) return {a.buffer(), a.offset()};  // the per-call path: no Array copy
  const Array c = a.copy();
  return {c.buffer(), c.offset()};
}

TracedGraph trace(const ArrayFn& f, const std::vector<ArraySpec>& specs) {
  TracedGraph g;
  GraphBuilder builder(g);
  {
    TraceScope scope(&builder);
    for (const ArraySpec& s : specs) g.inputs.push_back(Array::allocate(s.shape, s.dtype, s.device));
    g.outputs = f(g.inputs);
  }
  std::unordered_set<const Buffer*> seen;
  for (const TracedOp& op : g.ops)
    for (const Array& out : op.outputs)
      if (out.valid() && out.buffer()->is_trace_constant() && seen.insert(out.buffer().get()).second) {
        const auto& b = out.buffer();
        g.written_constants.push_back(
            Array(b, uint8, {static_cast<int64_t>(b->nbytes())}, {1}, 0));  // the whole buffer as bytes
      }
  return g;
}

void check_args(const char* who, const TracedGraph& g, const std::vector<Array>& args) {
  if (args.size() != g.inputs.size())
    throw_value_error(who, "takes " + std::to_string(g.inputs.size()) + " arrays, got " +
                               std::to_string(args.size()));
  for (size_t i = 0; i < args.size(); ++i) {
    const ArraySpec want = ArraySpec::of(g.inputs[i]), got = ArraySpec::of(args[i]);
    if (!(want == got))
      throw_value_error(who, "argument " + std::to_string(i) + " is " + dtype_name(got.dtype) + shape_str(got.shape) +
                                 " on " + got.device.str() + ", but the function was traced for " +
                                 dtype_name(want.dtype) + shape_str(want.shape) + " on " + want.device.str());
  }
}

BufferMap bind_inputs(const TracedGraph& g, const std::vector<Array>& args) {
  BufferMap map;
  map.reserve(g.inputs.size() + g.ops.size() + g.written_constants.size());
  for (size_t i = 0; i < args.size(); ++i) map[g.inputs[i].buffer().get()] = bind_argument(args[i]);
  for (const Array& c : g.written_constants) map[c.buffer().get()] = {c.copy().buffer(), 0};
  return map;
}

void bind_outputs(const TracedOp& op, BufferMap& map) {
  for (const Array& out : op.outputs) {
    const Buffer* b = out.buffer().get();
    if (out.valid() && b->is_abstract() && map.find(b) == map.end()) map[b] = {allocate(b->nbytes(), b->device()), 0};
  }
}

std::vector<Array> bind_results(const TracedGraph& g, BufferMap& map) {
  std::vector<Array> outs;
  outs.reserve(g.outputs.size());
  for (const Array& o : g.outputs) {
    const Buffer* b = o.valid() ? o.buffer().get() : nullptr;
    if (b && b->is_abstract() && map.find(b) == map.end())  // allocated and never written: empty()
      map[b] = {allocate(b->nbytes(), b->device()), 0};
    const bool constant = o.valid() && o.buffer()->is_trace_constant() && map.find(o.buffer().get()) == map.end();
    outs.push_back(constant ? o.copy() : rebind(o, map));
  }
  return outs;
}

std::vector<Array> replay(const TracedGraph& g, const std::vector<Array>& args) {
  check_args("replay", g, args);
  BufferMap map = bind_inputs(g, args);
  for (const TracedOp& op : g.ops) {
    bind_outputs(op, map);
    op.run(op, map);
  }
  return bind_results(g, map);
}

}  // namespace loom
