#include "loom/transforms/compile_fuse.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace loom {
namespace {

// Operands per fused op: the CPU evaluator takes at most 64 inputs and outputs together.
constexpr size_t kMaxGroupOperands = 48;

const ElementwiseCall& ew_call(const TracedOp& op) { return std::get<0>(op.args_as<const ElementwiseCall&>()); }

bool same_view(const Array& a, const Array& b) {
  return a.dtype() == b.dtype() && a.offset() == b.offset() && a.shape() == b.shape() && a.strides() == b.strides();
}

// The grouping pass over the live ops.
class Grouper {
 public:
  Grouper(const TracedGraph& g, const std::vector<bool>& live) : g_(g), live_(live), group_of_(g.ops.size(), -1) {}

  std::vector<std::vector<size_t>> run() {
    std::unordered_map<const Buffer*, size_t> last_writer;
    for (size_t i = 0; i < g_.ops.size(); ++i) {
      if (!live_[i]) continue;
      const TracedOp& op = g_.ops[i];
      if (is_elementwise_record(op)) join(i, last_writer);
      for (const Array& o : op.outputs)
        if (o.valid()) last_writer[o.buffer().get()] = i;
    }
    std::vector<std::vector<size_t>> out;
    for (auto& m : groups_)
      if (m.size() >= 2) out.push_back(std::move(m));
    return out;
  }

 private:
  void join(size_t i, const std::unordered_map<const Buffer*, size_t>& last_writer) {
    const ElementwiseCall& c = ew_call(g_.ops[i]);
    std::vector<int> cands;
    for (int k = 0; k < c.nin; ++k) {
      if (c.is_scalar[k] || !c.in[k].valid()) continue;
      auto it = last_writer.find(c.in[k].buffer().get());
      if (it == last_writer.end() || group_of_[it->second] < 0) continue;
      if (!same_view(ew_call(g_.ops[it->second]).out, c.in[k])) continue;
      const int gid = group_of_[it->second];
      if (std::find(cands.begin(), cands.end(), gid) == cands.end()) cands.push_back(gid);
    }
    auto with = [&](const std::vector<int>& gids) {
      std::vector<size_t> m{i};
      for (int gid : gids) m.insert(m.end(), groups_[gid].begin(), groups_[gid].end());
      std::sort(m.begin(), m.end());
      return m;
    };
    if (!cands.empty()) {
      std::vector<size_t> all = with(cands);
      if (mergeable(all)) return adopt(std::move(all), cands);
      for (int gid : cands) {
        std::vector<size_t> one = with({gid});
        if (mergeable(one)) return adopt(std::move(one), {gid});
      }
    }
    group_of_[i] = static_cast<int>(groups_.size());
    groups_.push_back({i});
  }

  void adopt(std::vector<size_t> members, const std::vector<int>& old) {
    for (int gid : old) groups_[gid].clear();
    const int id = old.front();
    for (size_t m : members) group_of_[m] = id;
    groups_[id] = std::move(members);
  }

  // One view per buffer among the members, one shape and device, and no op in between that
  // the move of the earlier members down to the last one would reorder against.
  bool mergeable(const std::vector<size_t>& m) const {
    const ElementwiseCall& first = ew_call(g_.ops[m.front()]);
    std::unordered_map<const Buffer*, const Array*> views;
    auto see = [&views](const Array& a) {
      if (!a.valid()) return true;
      auto [it, fresh] = views.emplace(a.buffer().get(), &a);
      return fresh || same_view(*it->second, a);
    };
    for (size_t k : m) {
      const TracedOp& op = g_.ops[k];
      const ElementwiseCall& c = ew_call(op);
      if (c.out.shape() != first.out.shape() || !(op.device == g_.ops[m.front()].device)) return false;
      for (const Array& a : op.inputs)
        if (!see(a)) return false;
      if (!see(c.out)) return false;
    }
    std::unordered_set<size_t> members(m.begin(), m.end());
    std::unordered_set<const Buffer*> written, read;
    for (size_t k = m.front(); k <= m.back(); ++k) {
      const TracedOp& op = g_.ops[k];
      if (members.count(k)) {
        for (const Array& a : op.inputs)
          if (a.valid()) read.insert(a.buffer().get());
        for (const Array& a : op.outputs)
          if (a.valid()) written.insert(a.buffer().get());
        continue;
      }
      if (!live_[k]) continue;
      for (const Array& a : op.inputs)
        if (a.valid() && written.count(a.buffer().get())) return false;
      for (const Array& a : op.outputs)
        if (a.valid() && (written.count(a.buffer().get()) || read.count(a.buffer().get()))) return false;
    }
    return true;
  }

  const TracedGraph& g_;
  const std::vector<bool>& live_;
  std::vector<int> group_of_;
  std::vector<std::vector<size_t>> groups_;
};

// How a member's argument reaches its node.
struct Source {
  enum { param, external, internal } kind;
  int index;  // param/external: graph input; internal: unused (the buffer's current value)
};

}  // namespace

bool build_fused_group(const TracedGraph& g, const std::vector<size_t>& members,
                       const std::unordered_set<const Buffer*>& visible_outside, FusedGroup& out) {
  auto fg = std::make_shared<FusedGraph>();
  FusedCall& call = out.call;
  std::unordered_map<const Buffer*, int> ext;  // buffer -> graph input
  std::unordered_set<const Buffer*> written;
  std::vector<std::vector<Source>> src(members.size());
  for (size_t j = 0; j < members.size(); ++j) {
    const ElementwiseCall& c = ew_call(g.ops[members[j]]);
    for (int k = 0; k < c.nin; ++k) {
      if (c.is_scalar[k]) {
        src[j].push_back({Source::param, fg->add_input(input_loop_dtype(c.op, k, c.loop), FusedGraph::InputKind::param)});
        call.in.emplace_back();
        call.scalar.push_back(c.scalar[k]);
        continue;
      }
      const Buffer* b = c.in[k].buffer().get();
      if (written.count(b)) {
        src[j].push_back({Source::internal, -1});
        continue;
      }
      auto it = ext.find(b);
      if (it == ext.end()) {
        it = ext.emplace(b, fg->add_input(c.in[k].dtype())).first;
        call.in.push_back(c.in[k]);
        call.scalar.emplace_back();
      }
      src[j].push_back({Source::external, it->second});
    }
    written.insert(c.out.buffer().get());
  }
  std::unordered_map<const Buffer*, int> cur;  // buffer -> the value it holds now
  std::vector<const Array*> order;             // written views, in order of first write
  for (size_t j = 0; j < members.size(); ++j) {
    const ElementwiseCall& c = ew_call(g.ops[members[j]]);
    int a[3] = {0, 0, 0};
    for (int k = 0; k < c.nin; ++k)
      a[k] = src[j][k].kind == Source::internal ? cur.at(c.in[k].buffer().get()) : src[j][k].index;
    int v = 0;
    switch (c.nin) {
      case 1: v = fg->add_node(c.op, c.loop, {a[0]}); break;
      case 2: v = fg->add_node(c.op, c.loop, {a[0], a[1]}); break;
      default: v = fg->add_node(c.op, c.loop, {a[0], a[1], a[2]}); break;
    }
    // The value as the buffer holds it: rounded to out's dtype, as eager stores it.
    if (fg->value_dtype(v) != c.out.dtype()) v = fg->add_node(OpId::copy, c.out.dtype(), {v});
    const Buffer* b = c.out.buffer().get();
    if (!cur.count(b)) order.push_back(&c.out);
    cur[b] = v;
  }
  for (const Array* o : order) {
    if (!visible_outside.count(o->buffer().get())) continue;
    fg->add_output(cur.at(o->buffer().get()), o->dtype());
    call.out.push_back(*o);
  }
  if (call.out.empty()) return false;  // nothing anyone reads (dead code elimination keeps none such)
  if (call.in.size() + call.out.size() > kMaxGroupOperands) return false;
  call.hash = graph_hash(*fg);
  call.graph = std::move(fg);
  out.members = members;
  return true;
}

bool is_elementwise_record(const TracedOp& op) { return op.op->fusion == Fusion::elementwise; }

std::vector<FusedGroup> find_fused_groups(const TracedGraph& g, const std::vector<bool>& live) {
  std::vector<std::vector<size_t>> groups = Grouper(g, live).run();
  if (groups.empty()) return {};
  std::vector<int> group_of(g.ops.size(), -1);
  for (size_t k = 0; k < groups.size(); ++k)
    for (size_t m : groups[k]) group_of[m] = static_cast<int>(k);
  // Per group, the buffers that something outside it sees.
  std::unordered_set<const Buffer*> inputs, results;
  for (const Array& a : g.inputs) inputs.insert(a.buffer().get());
  for (const Array& a : g.outputs)
    if (a.valid()) results.insert(a.buffer().get());
  std::vector<FusedGroup> out;
  for (size_t k = 0; k < groups.size(); ++k) {
    std::unordered_set<const Buffer*> visible;
    for (size_t m : groups[k]) {
      const Array& o = ew_call(g.ops[m]).out;
      const Buffer* b = o.buffer().get();
      if (!b->is_abstract() || b->is_trace_constant() || inputs.count(b) || results.count(b)) visible.insert(b);
    }
    for (size_t i = 0; i < g.ops.size(); ++i) {
      if (!live[i] || group_of[i] == static_cast<int>(k)) continue;
      for (const auto* list : {&g.ops[i].inputs, &g.ops[i].outputs})
        for (const Array& a : *list)
          if (a.valid()) visible.insert(a.buffer().get());
    }
    FusedGroup fgroup;
    if (build_fused_group(g, groups[k], visible, fgroup)) out.push_back(std::move(fgroup));
  }
  return out;
}

}  // namespace loom
