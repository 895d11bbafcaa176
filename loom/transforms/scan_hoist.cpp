#include "loom/transforms/scan_hoist.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "loom/transforms/control_flow_primitives.h"
#include "loom/transforms/graph.h"
#include "loom/transforms/vmap.h"

namespace loom {
namespace {

// What a buffer's value depends on, in increasing order: captured arrays and constants
// only (the same every step), the step's xs, the carry.
enum Dep : uint8_t { kInvariant = 0, kXs = 1, kCarry = 2 };

// The moved ops' values exist for every step at once: at most this many bytes, and at most
// a few times the xs themselves (a step that widens x a lot, an outer product of it, would
// trade a launch per step for a large array).
constexpr size_t kMaxHoistedBytes = size_t{1} << 30;
constexpr size_t kHoistedPerXsByte = 8;
constexpr size_t kSlackBytes = size_t{16} << 20;

struct Classes {
  std::vector<Dep> op;                             // per op of the body
  std::unordered_map<const Buffer*, Dep> buffer;   // per buffer an op or input touches
  Dep of(const Buffer* b) const {
    const auto it = buffer.find(b);
    return it == buffer.end() ? kInvariant : it->second;
  }
};

// Each op's dependence: the most of its buffers', raised to the carry's for an op that
// must stay in the loop (ops_pinned_in_step). A fixpoint, as an op's class raises the
// buffers it writes and those may be read earlier.
Classes classify(const TracedGraph& g, size_t num_carry, size_t num_xs) {
  Classes c;
  for (size_t i = 0; i < g.inputs.size(); ++i)
    c.buffer[g.inputs[i].buffer().get()] = i < num_carry ? kCarry : i < num_carry + num_xs ? kXs : kInvariant;
  const size_t n = g.ops.size();
  const std::vector<bool> stays = ops_pinned_in_step(g);
  c.op.assign(n, kInvariant);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < n; ++i) {
      const TracedOp& op = g.ops[i];
      Dep d = stays[i] ? kCarry : kInvariant;
      for (const auto* list : {&op.inputs, &op.outputs})
        for (const Array& a : *list)
          if (a.valid()) d = std::max(d, c.of(a.buffer().get()));
      if (d == kXs && stays[i]) d = kCarry;
      if (d != c.op[i]) {
        c.op[i] = d;
        changed = true;
      }
      for (const Array& a : op.outputs) {
        if (!a.valid()) continue;
        Dep& bd = c.buffer[a.buffer().get()];
        if (bd < d) {
          bd = d;
          changed = true;
        }
      }
    }
  }
  return c;
}

}  // namespace

std::vector<bool> ops_pinned_in_step(const TracedGraph& g) {
  std::unordered_set<const Buffer*> inputs;
  for (const Array& a : g.inputs) inputs.insert(a.buffer().get());
  const size_t n = g.ops.size();
  std::unordered_map<const Buffer*, size_t> writers, first_touch;
  std::vector<bool> pinned(n, false);
  for (size_t i = 0; i < n; ++i) {
    for (const Array& a : g.ops[i].inputs)
      if (a.valid()) first_touch.emplace(a.buffer().get(), i);
    for (const Array& a : g.ops[i].outputs) {
      if (!a.valid()) continue;
      const Buffer* b = a.buffer().get();
      first_touch.emplace(b, i);
      ++writers[b];
      if (inputs.count(b) || !b->is_abstract() || b->is_trace_constant()) pinned[i] = true;
    }
  }
  for (size_t i = 0; i < n; ++i)
    for (const Array& a : g.ops[i].outputs)
      if (a.valid() && (writers[a.buffer().get()] != 1 || first_touch[a.buffer().get()] != i)) pinned[i] = true;
  return pinned;
}

std::vector<Array> hoist_carry_independent(ScanProgram& p, const std::vector<Array>& xs,
                                           const std::vector<Array>& captured) {
  TracedGraph& g = p.body;
  const size_t nc = p.num_carry, nx = p.num_xs;
  if (p.length < 2 || nx == 0 || p.writes_inputs || !g.written_constants.empty()) return {};
  const Classes c = classify(g, nc, nx);
  const size_t n = g.ops.size();
  std::vector<bool> moved(n);
  for (size_t i = 0; i < n; ++i) moved[i] = c.op[i] == kXs;
  if (std::find(moved.begin(), moved.end(), true) == moved.end()) return {};

  // The values the loop still reads: buffers the moved ops wrote that a remaining op reads
  // or a result views, each handed over whole (so the moved op must have written it whole).
  std::unordered_set<const Buffer*> inputs;
  for (const Array& a : g.inputs) inputs.insert(a.buffer().get());
  std::unordered_map<const Buffer*, const Array*> written_by_moved;
  for (size_t i = 0; i < n; ++i)
    if (moved[i])
      for (const Array& a : g.ops[i].outputs)
        if (a.valid()) written_by_moved[a.buffer().get()] = &a;
  std::vector<Array> handed;  // each a C-contiguous view of a whole buffer (as graph inputs are)
  std::unordered_set<const Buffer*> seen;
  auto hand_over = [&](const Array& a) {
    if (!a.valid()) return true;
    const Buffer* b = a.buffer().get();
    if (c.of(b) != kXs || inputs.count(b) || !seen.insert(b).second) return true;
    const auto it = written_by_moved.find(b);
    if (it == written_by_moved.end()) return false;
    const Array& w = *it->second;
    if (!w.is_contiguous() || w.nbytes() != b->nbytes() || w.offset() != 0) return false;
    handed.push_back(w);  // the writer's own view: the step reads the value as it was made
    return true;
  };
  for (size_t i = 0; i < n; ++i) {
    if (moved[i]) continue;
    for (const auto* list : {&g.ops[i].inputs, &g.ops[i].outputs})
      for (const Array& a : *list)
        if (!hand_over(a)) return {};
  }
  for (const Array& o : g.outputs)
    if (!hand_over(o)) return {};
  if (handed.empty()) return {};
  // Every value the moved ops make exists for all the steps at once while they run.
  size_t xs_bytes = 0, stacked_bytes = 0;
  for (const Array& x : xs) xs_bytes += x.nbytes();
  for (const auto& [b, view] : written_by_moved) stacked_bytes += b->nbytes() * static_cast<size_t>(p.length);
  if (stacked_bytes > std::min(kMaxHoistedBytes, kHoistedPerXsByte * xs_bytes + kSlackBytes)) return {};

  // The moved ops and the invariant ones they read (which stay in the loop as well, where
  // a remaining op reads them; compiling drops them otherwise), as a graph of (x..., captured...).
  auto moved_graph = std::make_shared<TracedGraph>();
  moved_graph->inputs.assign(g.inputs.begin() + static_cast<std::ptrdiff_t>(nc), g.inputs.end());
  std::unordered_set<const Buffer*> needed;
  std::vector<bool> in_moved_graph(n, false);
  for (size_t k = n; k-- > 0;) {
    bool take = moved[k];
    if (!take && c.op[k] == kInvariant)
      for (const Array& a : g.ops[k].outputs)
        take = take || (a.valid() && needed.count(a.buffer().get()));
    if (!take) continue;
    in_moved_graph[k] = true;
    for (const Array& a : g.ops[k].inputs)
      if (a.valid()) needed.insert(a.buffer().get());
  }
  for (size_t i = 0; i < n; ++i)
    if (in_moved_graph[i]) moved_graph->ops.push_back(g.ops[i]);
  moved_graph->outputs = handed;

  // Run once over every step: vmap over the xs' scan axis, the captured arrays shared.
  std::vector<std::optional<int>> axes(nx, 0);
  axes.resize(nx + captured.size(), std::nullopt);
  std::vector<Array> args = xs;
  args.insert(args.end(), captured.begin(), captured.end());
  const ArrayFn run = [moved_graph](const std::vector<Array>& a) { return replay(*moved_graph, a); };
  std::vector<Array> stacked = vmap(run, axes)(args);
  for (Array& s : stacked) s = s.contiguous();

  // The step without them: the handed-over values are extra xs, after the others.
  TracedGraph step;
  step.inputs.assign(g.inputs.begin(), g.inputs.begin() + static_cast<std::ptrdiff_t>(nc + nx));
  step.inputs.insert(step.inputs.end(), handed.begin(), handed.end());
  step.inputs.insert(step.inputs.end(), g.inputs.begin() + static_cast<std::ptrdiff_t>(nc + nx), g.inputs.end());
  for (size_t i = 0; i < n; ++i)
    if (!moved[i]) step.ops.push_back(g.ops[i]);
  step.outputs = g.outputs;
  g = std::move(step);
  p.num_xs = nx + handed.size();
  return stacked;
}

}  // namespace loom
