#include "loom/transforms/scan_sink.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "loom/transforms/control_flow_primitives.h"
#include "loom/transforms/scan_hoist.h"
#include "loom/transforms/vmap.h"

namespace loom {
namespace {

// The stacked values exist for every step at once: at most this many bytes, and at most a
// few times what the scan reads anyway (the same bound as scan_hoist.cpp's).
constexpr size_t kMaxSunkBytes = size_t{1} << 30;
constexpr size_t kSunkPerXsByte = 8;
constexpr size_t kSlackBytes = size_t{16} << 20;

using BufferSet = std::unordered_set<const Buffer*>;

// Which ops the step keeps: those the carry needs (transitively), those that read a carry
// argument directly (the step's input is not one of its results, so it could not be
// stacked for free), and those that cannot move at all (they write an argument, a constant
// or a buffer another op writes or touched first), with everything a kept op reads.
std::vector<bool> kept_ops(const TracedGraph& g, size_t num_carry) {
  const size_t n = g.ops.size();
  BufferSet carry_args, needed;
  for (size_t i = 0; i < num_carry; ++i) {
    carry_args.insert(g.inputs[i].buffer().get());
    if (g.outputs[i].valid()) needed.insert(g.outputs[i].buffer().get());
  }
  std::vector<bool> kept = ops_pinned_in_step(g);
  for (size_t i = 0; i < n; ++i)
    for (const Array& a : g.ops[i].inputs)
      if (a.valid() && carry_args.count(a.buffer().get())) kept[i] = true;
  // A fixpoint: a kept op's buffers are needed, and an op writing a needed buffer is kept.
  std::vector<bool> spread(n, false);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t k = n; k-- > 0;) {
      if (!kept[k])
        for (const Array& a : g.ops[k].outputs)
          if (a.valid() && needed.count(a.buffer().get())) kept[k] = true;
      if (!kept[k] || spread[k]) continue;
      spread[k] = changed = true;
      for (const auto* list : {&g.ops[k].inputs, &g.ops[k].outputs})
        for (const Array& a : *list)
          if (a.valid()) needed.insert(a.buffer().get());
    }
  }
  return kept;
}

}  // namespace

std::unique_ptr<ScanSink> sink_ys_only_ops(ScanProgram& p, size_t xs_bytes) {
  TracedGraph& g = p.body;
  const size_t nc = p.num_carry;
  if (p.length < 2 || p.num_ys == 0 || p.writes_inputs || !g.written_constants.empty()) return nullptr;
  const size_t n = g.ops.size();
  const std::vector<bool> kept = kept_ops(g, nc);
  if (std::find(kept.begin(), kept.end(), false) == kept.end()) return nullptr;

  BufferSet inputs, by_moved;
  for (const Array& a : g.inputs) inputs.insert(a.buffer().get());
  std::unordered_map<const Buffer*, const Array*> by_kept;  // each buffer a kept op wrote, and its view
  for (size_t i = 0; i < n; ++i)
    for (const Array& a : g.ops[i].outputs)
      if (a.valid()) {
        if (kept[i]) by_kept.emplace(a.buffer().get(), &a);
        else by_moved.insert(a.buffer().get());
      }
  // The frontier: what the moved ops read from the kept ones, each a whole buffer handed
  // out as a y (so that the step writes it into its row in place).
  std::vector<Array> frontier;
  BufferSet seen;
  for (size_t i = 0; i < n; ++i) {
    if (kept[i]) continue;
    for (const Array& a : g.ops[i].inputs) {
      if (!a.valid()) continue;
      const Buffer* b = a.buffer().get();
      if (by_moved.count(b) || inputs.count(b) || !seen.insert(b).second) continue;
      const auto it = by_kept.find(b);
      if (it == by_kept.end()) continue;  // a constant of the trace: the moved op reads it as it is
      const Array& w = *it->second;
      if (!w.is_contiguous() || w.nbytes() != b->nbytes() || w.offset() != 0) return nullptr;
      frontier.push_back(w);
    }
  }
  std::vector<size_t> sunk_ys, kept_ys;
  for (size_t j = 0; j < p.num_ys; ++j) {
    const Array& y = g.outputs[nc + j];
    (y.valid() && by_moved.count(y.buffer().get()) ? sunk_ys : kept_ys).push_back(j);
  }
  if (sunk_ys.empty()) return nullptr;  // the moved ops make nothing the scan returns
  // Every value the moved ops make, and the frontier they read, exists for all the steps at
  // once (a lax.map whose hoist was refused for size must keep its memory per step here too).
  size_t stacked_bytes = 0;
  for (const Array& f : frontier) stacked_bytes += f.nbytes() * static_cast<size_t>(p.length);
  for (const Buffer* b : by_moved) stacked_bytes += b->nbytes() * static_cast<size_t>(p.length);
  if (stacked_bytes > std::min(kMaxSunkBytes, kSunkPerXsByte * xs_bytes + kSlackBytes)) return nullptr;

  auto sink = std::make_unique<ScanSink>();
  sink->graph = std::make_shared<TracedGraph>();
  TracedGraph& moved = *sink->graph;
  moved.inputs = frontier;
  moved.inputs.insert(moved.inputs.end(), g.inputs.begin() + static_cast<std::ptrdiff_t>(nc), g.inputs.end());
  for (size_t i = 0; i < n; ++i)
    if (!kept[i]) moved.ops.push_back(g.ops[i]);
  for (size_t j : sunk_ys) moved.outputs.push_back(g.outputs[nc + j]);
  sink->ys = sunk_ys;
  sink->kept = kept_ys;

  // The step without them: the carry, the kept ys, then the frontier values.
  TracedGraph step;
  step.inputs = g.inputs;
  for (size_t i = 0; i < n; ++i)
    if (kept[i]) step.ops.push_back(g.ops[i]);
  step.outputs.assign(g.outputs.begin(), g.outputs.begin() + static_cast<std::ptrdiff_t>(nc));
  for (size_t j : kept_ys) step.outputs.push_back(g.outputs[nc + j]);
  step.outputs.insert(step.outputs.end(), frontier.begin(), frontier.end());
  g = std::move(step);
  p.num_ys = kept_ys.size() + frontier.size();
  return sink;
}

std::vector<Array> finish_sunk_ys(const ScanSink& sink, const std::vector<Array>& ys, const std::vector<Array>& xs,
                                  const std::vector<Array>& captured) {
  const size_t nk = sink.kept.size();
  std::vector<Array> args(ys.begin() + static_cast<std::ptrdiff_t>(nk), ys.end());
  std::vector<std::optional<int>> axes(args.size() + xs.size(), 0);
  axes.resize(axes.size() + captured.size(), std::nullopt);
  args.insert(args.end(), xs.begin(), xs.end());
  args.insert(args.end(), captured.begin(), captured.end());
  const std::shared_ptr<TracedGraph> graph = sink.graph;
  const ArrayFn run = [graph](const std::vector<Array>& a) { return replay(*graph, a); };
  const std::vector<Array> made = vmap(run, axes)(args);
  std::vector<Array> out(nk + sink.ys.size());
  for (size_t i = 0; i < nk; ++i) out[sink.kept[i]] = ys[i];
  for (size_t i = 0; i < sink.ys.size(); ++i) out[sink.ys[i]] = made[i];
  return out;
}

}  // namespace loom
