#include "loom/transforms/compile.h"

#include <unordered_map>
#include <unordered_set>

#include "loom/backend/reduce_kinds.h"
#include "loom/dispatch/dispatch.h"
#include "loom/graph/op_table.h"
#include "loom/runtime/profiler.h"
#include "loom/transforms/compile_fuse.h"
#include "loom/transforms/compile_reduce.h"
#include "loom/ops/elementwise_primitives.h"
#include "loom/ops/reduce_primitives.h"

namespace loom {
namespace {

// Backward over the ops: an op lives when it writes a buffer a live op or a result reads,
// or memory the plan does not own (an argument, a captured array: the caller can see it).
std::vector<bool> live_ops(const TracedGraph& g) {
  std::unordered_set<const Buffer*> needed, inputs;
  for (const Array& a : g.inputs) inputs.insert(a.buffer().get());
  for (const Array& a : g.outputs)
    if (a.valid()) needed.insert(a.buffer().get());
  std::vector<bool> live(g.ops.size(), false);
  for (size_t i = g.ops.size(); i-- > 0;) {
    const TracedOp& op = g.ops[i];
    bool keep = op.outputs.empty();  // an op with no outputs does something else: keep it
    for (const Array& o : op.outputs) {
      if (!o.valid()) continue;
      const Buffer* b = o.buffer().get();
      const bool owned = b->is_abstract() && !inputs.count(b);
      keep = keep || !owned || needed.count(b);
    }
    if (!keep) continue;
    live[i] = true;
    for (const Array& a : op.inputs)
      if (a.valid()) needed.insert(a.buffer().get());
  }
  return live;
}

// The profiler's name of a fused kernel: the ops it fuses in the order they run,
// "fused[multiply,add,exp]", and "fused_reduce[exp,sum,sqrt]" around the reduction (the
// primitive's own name would make every jit kernel one row, "fused").
void append_ops(std::string& s, const FusedGraph* g) {
  if (!g) return;
  for (const FusedGraph::Node& n : g->nodes) {
    if (s.back() != '[') s += ',';
    s += op_info(n.op).name;
  }
}

std::string profile_name(const FusedCall& c) {
  std::string s = "fused[";
  append_ops(s, c.graph.get());
  return s + "]";
}

std::string profile_name(const FusedReduceCall& c) {
  std::string s = "fused_reduce[";
  append_ops(s, c.pre.get());
  if (s.back() != '[') s += ',';
  s += reduce_kind_name(c.kind);
  append_ops(s, c.post.get());
  return s + "]";
}

}  // namespace

CompiledPlan::CompiledPlan(const TracedGraph& g) : g_(&g) {
  const std::vector<bool> live = live_ops(g);
  std::vector<FusedGroup> groups = find_fused_groups(g, live);
  std::vector<ReduceFusion> reductions = find_reduce_fusions(g, live, groups);
  stats_.traced_ops = g.ops.size();
  for (bool l : live) stats_.dead_ops += l ? 0 : 1;
  stats_.groups = groups.size();
  std::vector<int> group_at(g.ops.size(), -1);  // the group that runs at its last member
  std::vector<bool> in_group(g.ops.size(), false);
  for (size_t k = 0; k < groups.size(); ++k) {
    stats_.fused_ops += groups[k].members.size();
    group_at[groups[k].members.back()] = static_cast<int>(k);
    for (size_t m : groups[k].members) in_group[m] = true;
  }
  std::vector<int> reduce_at(g.ops.size(), -1);  // the fused reduction that runs there
  stats_.reduce_fusions = reductions.size();
  for (size_t k = 0; k < reductions.size(); ++k) {
    stats_.reduce_fused_ops += reductions[k].absorbed.size();
    reduce_at[reductions[k].at] = static_cast<int>(k);
    for (size_t m : reductions[k].absorbed) in_group[m] = true;
  }

  // Slots: arguments and written constants first, then every other abstract buffer in
  // the order the plan first touches it.
  std::unordered_map<const Buffer*, int> slot_of;
  auto new_slot = [&](const Buffer* b) {
    slot_of[b] = static_cast<int>(slots_.size());
    slots_.push_back({b, b->nbytes(), b->device()});
    return static_cast<int>(slots_.size()) - 1;
  };
  for (const Array& a : g.inputs) input_slot_.push_back(new_slot(a.buffer().get()));
  for (const Array& c : g.written_constants) constant_slot_.push_back(new_slot(c.buffer().get()));
  const int preset = static_cast<int>(slots_.size());
  auto slot = [&](const Array& a) {
    if (!a.valid()) return -1;
    const Buffer* b = a.buffer().get();
    auto it = slot_of.find(b);
    if (it != slot_of.end()) return it->second;
    if (!b->is_abstract() || b->is_trace_constant()) return -1;  // captured or constant: as is
    return new_slot(b);
  };
  for (size_t i = 0; i < g.ops.size(); ++i) {
    if (!live[i] || (in_group[i] && group_at[i] < 0 && reduce_at[i] < 0)) continue;
    Step st;
    st.device = g.ops[i].device;
    if (reduce_at[i] >= 0) {
      st.kind = Step::Kind::fused_reduce;
      st.device = g.ops[reductions[reduce_at[i]].reduce].device;
      st.reduce = std::move(reductions[reduce_at[i]].call);
      st.profile_name = profile_name(st.reduce);
      for (const Array& a : st.reduce.in) st.slots.push_back(slot(a));
      for (const Array& a : st.reduce.post_in) st.slots.push_back(slot(a));
      st.slots.push_back(slot(st.reduce.out));
    } else if (group_at[i] >= 0) {
      st.kind = Step::Kind::fused;
      st.fused = std::move(groups[group_at[i]].call);
      st.profile_name = profile_name(st.fused);
      for (const Array& a : st.fused.in) st.slots.push_back(slot(a));
      for (const Array& a : st.fused.out) st.slots.push_back(slot(a));
    } else if (is_elementwise_record(g.ops[i])) {
      st.kind = Step::Kind::elementwise;
      st.op = &g.ops[i];
      st.ew = std::get<0>(g.ops[i].args_as<const ElementwiseCall&>());
      for (int k = 0; k < st.ew.nin; ++k) st.slots.push_back(st.ew.is_scalar[k] ? -1 : slot(st.ew.in[k]));
      st.slots.push_back(slot(st.ew.out));
    } else {
      st.kind = Step::Kind::generic;
      st.op = &g.ops[i];
      for (const Array& a : g.ops[i].inputs) st.slots.push_back(slot(a));
      for (const Array& a : g.ops[i].outputs) st.slots.push_back(slot(a));
      has_generic_ = true;
    }
    steps_.push_back(std::move(st));
  }
  for (const Array& o : g.outputs) output_slot_.push_back(slot(o));
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    const int k = output_slot_[i];
    // Results sharing a slot (a scan's carry that is also a y) may be whole too: run() binds
    // the slot to the first of them given, and the others are views of it.
    output_whole_.push_back(k >= preset && g.outputs[i].is_contiguous() && g.outputs[i].nbytes() == slots_[k].nbytes);
  }
  stats_.steps = steps_.size();
  stats_.slots = slots_.size();

  // Lifetimes: allocated before the first step that touches a slot, released after the
  // last one, unless a result views it (then it lives until the call returns).
  const int n = static_cast<int>(slots_.size());
  std::vector<int> first(n, -1), last(n, -1);
  for (int s = 0; s < static_cast<int>(steps_.size()); ++s)
    for (int k : steps_[s].slots)
      if (k >= 0) {
        if (first[k] < 0) first[k] = s;
        last[k] = s;
      }
  std::vector<bool> result(n, false);
  for (int k : output_slot_)
    if (k >= 0) result[k] = true;
  for (int k = 0; k < n; ++k) {
    if (k >= preset && first[k] >= 0) steps_[first[k]].alloc_before.push_back(k);
    if (k >= preset && first[k] < 0) output_alloc_.push_back(k);  // a result nothing writes (empty())
    if (!result[k] && last[k] >= 0) steps_[last[k]].free_after.push_back(k);
  }
}

std::vector<std::shared_ptr<const FusedGraph>> CompiledPlan::fused_graphs() const {
  std::vector<std::shared_ptr<const FusedGraph>> out;
  for (const Step& s : steps_)
    if (s.kind == Step::Kind::fused) out.push_back(s.fused.graph);
  return out;
}

namespace {

// Recorded array k of a step, bound to its slot's buffer (or as recorded: no slot).
Array bound(const CompiledPlan::Step& st, const std::vector<BufferBinding>& slots, const Array& a, size_t k) {
  return st.slots[k] >= 0 ? rebind(a, slots[st.slots[k]]) : a;
}

// The recorded call with its arrays bound: built field by field (no copy of the recorded
// arrays first), since this is the per-call path of every unfused elementwise op.
void run_elementwise(const CompiledPlan::Step& st, const std::vector<BufferBinding>& slots) {
  const ElementwiseCall& t = st.ew;
  ElementwiseCall c;
  c.op = t.op;
  c.loop = t.loop;
  c.nin = t.nin;
  const Array* ins[3];
  int n = 0;
  for (int k = 0; k < t.nin; ++k) {
    c.is_scalar[k] = t.is_scalar[k];
    if (t.is_scalar[k]) {
      c.scalar[k] = t.scalar[k];
      continue;
    }
    c.in[k] = bound(st, slots, t.in[k], k);
    ins[n++] = &c.in[k];
  }
  c.out = bound(st, slots, t.out, t.nin);
  const auto& p = *static_cast<const Primitive<ElementwiseFn>*>(st.op->record);
  switch (n) {
    case 0: dispatch_on(p, st.device, {}, {c.out}, c); break;
    case 1: dispatch_on(p, st.device, {*ins[0]}, {c.out}, c); break;
    case 2: dispatch_on(p, st.device, {*ins[0], *ins[1]}, {c.out}, c); break;
    default: dispatch_on(p, st.device, {*ins[0], *ins[1], *ins[2]}, {c.out}, c); break;
  }
}

void run_fused(const CompiledPlan::Step& st, const std::vector<BufferBinding>& slots) {
  const FusedCall& t = st.fused;
  FusedCall c;
  c.graph = t.graph;
  c.hash = t.hash;
  c.scalar = t.scalar;
  const size_t nin = t.in.size(), nout = t.out.size();
  c.in.reserve(nin);
  c.out.reserve(nout);
  std::vector<ArrayRefs::Ref> ins, outs;
  ins.reserve(nin);
  outs.reserve(nout);
  for (size_t k = 0; k < nin; ++k) c.in.push_back(bound(st, slots, t.in[k], k));
  for (size_t k = 0; k < nout; ++k) c.out.push_back(bound(st, slots, t.out[k], nin + k));
  for (const Array& a : c.in)
    if (a.valid()) ins.emplace_back(a);  // weak scalars are not operands
  for (const Array& a : c.out) outs.emplace_back(a);
  const profiler::OpLabel label(st.profile_name, nullptr, false, nullptr);  // detail: the family
  dispatch_on(primitives::fused, st.device, ins, outs, c);
}

void run_fused_reduce(const CompiledPlan::Step& st, const std::vector<BufferBinding>& slots) {
  const FusedReduceCall& t = st.reduce;
  FusedReduceCall c;
  c.pre = t.pre;
  c.post = t.post;
  c.pre_hash = t.pre_hash;
  c.post_hash = t.post_hash;
  c.scalar = t.scalar;
  c.elem = t.elem;
  c.geom = t.geom;
  c.kind = t.kind;
  c.params = t.params;
  c.post_value = t.post_value;
  c.post_scalar = t.post_scalar;
  const size_t nin = t.in.size(), npost = t.post_in.size();
  c.in.reserve(nin);
  c.post_in.reserve(npost);
  for (size_t k = 0; k < nin; ++k) c.in.push_back(bound(st, slots, t.in[k], k));
  for (size_t k = 0; k < npost; ++k) c.post_in.push_back(bound(st, slots, t.post_in[k], nin + k));
  c.out = bound(st, slots, t.out, nin + npost);
  std::vector<ArrayRefs::Ref> ins;
  ins.reserve(nin + npost);
  for (const auto* list : {&c.in, &c.post_in})
    for (const Array& a : *list)
      if (a.valid()) ins.emplace_back(a);  // weak scalars and the reduction's result are not operands
  const profiler::OpLabel label(st.profile_name, nullptr, false, nullptr);  // detail: the family
  dispatch_on(primitives::fused_reduce, st.device, ins, {c.out}, c);
}

}  // namespace

std::vector<Array> CompiledPlan::run(const std::vector<Array>& args, const std::vector<Array>* into) const {
  const TracedGraph& g = *g_;
  std::vector<BufferBinding> slots(slots_.size());
  BufferMap map;  // only for generic steps, which rebind through TracedOp::run
  auto bind = [&](int k, BufferBinding b) {
    slots[k] = std::move(b);
    if (has_generic_) map[slots_[k].abstract] = slots[k];
  };
  for (size_t i = 0; i < args.size(); ++i) bind(input_slot_[i], bind_argument(args[i]));
  for (size_t i = 0; i < constant_slot_.size(); ++i) bind(constant_slot_[i], {g.written_constants[i].copy().buffer(), 0});
  // Results written in place: their slots bound to the destinations, never allocated.
  std::vector<bool> given;
  if (into != nullptr)
    for (size_t i = 0; i < into->size() && i < g.outputs.size(); ++i) {
      const Array& d = (*into)[i];
      const Array& o = g.outputs[i];
      const int k = output_slot_[i];
      if (!d.valid() || !output_whole_[i] || d.shape() != o.shape() || d.dtype() != o.dtype() || !d.is_contiguous() ||
          d.device() != slots_[k].device || (!given.empty() && given[k]))
        continue;
      if (given.empty()) given.assign(slots_.size(), false);
      given[k] = true;
      bind(k, {d.buffer(), d.offset() - o.offset()});
    }
  for (const Step& st : steps_) {
    for (int k : st.alloc_before)
      if (given.empty() || !given[k]) bind(k, {allocate(slots_[k].nbytes, slots_[k].device), 0});
    switch (st.kind) {
      case Step::Kind::elementwise: run_elementwise(st, slots); break;
      case Step::Kind::fused: run_fused(st, slots); break;
      case Step::Kind::fused_reduce: run_fused_reduce(st, slots); break;
      case Step::Kind::generic: st.op->run(*st.op, map); break;
    }
    for (int k : st.free_after) {
      slots[k].buffer.reset();
      if (has_generic_) map.erase(slots_[k].abstract);
    }
  }
  for (int k : output_alloc_)
    if (given.empty() || !given[k]) slots[k] = {allocate(slots_[k].nbytes, slots_[k].device), 0};
  std::vector<Array> outs;
  outs.reserve(g.outputs.size());
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    const Array& o = g.outputs[i];
    const int k = output_slot_[i];
    if (k >= 0) outs.push_back(rebind(o, slots[k]));
    // A constant result is copied: the caller may write to it, and the next run reads it.
    else if (o.valid() && o.buffer()->is_trace_constant()) outs.push_back(o.copy());
    else outs.push_back(o);
  }
  return outs;
}

}  // namespace loom
