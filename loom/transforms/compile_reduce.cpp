#include "loom/transforms/compile_reduce.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace loom {
namespace {

using ReduceArgs = std::tuple<Array, ReduceGeometry, ReduceKind, ReduceParams, Array>;

const ReduceArgs& reduce_args(const TracedOp& op) {
  return op.args_as<const Array&, const ReduceGeometry&, ReduceKind, const ReduceParams&, const Array&>();
}

bool all_zero_strides(const Array& a) {
  return std::all_of(a.strides().begin(), a.strides().end(), [](int64_t s) { return s == 0; });
}

// An operand the fused kernels can index by the flat position alone.
bool flat_operand(const Array& a, int64_t size) {
  return !a.valid() || all_zero_strides(a) || (a.is_contiguous() && a.size() == size);
}

class Finder {
 public:
  Finder(const TracedGraph& g, const std::vector<bool>& live, std::vector<FusedGroup>& groups)
      : g_(g), live_(live), groups_(groups), group_of_(g.ops.size(), -1), used_(g.ops.size(), false) {
    for (const Array& a : g.inputs) inputs_.insert(a.buffer().get());
    for (const Array& a : g.outputs)
      if (a.valid()) results_.insert(a.buffer().get());
    for (size_t k = 0; k < groups.size(); ++k)
      for (size_t m : groups[k].members) group_of_[m] = static_cast<int>(k);
    for (size_t i = 0; i < g.ops.size(); ++i) {
      if (!live[i]) continue;
      for (const Array& a : g.ops[i].inputs)
        if (a.valid()) add(readers_[a.buffer().get()], i);
      for (const Array& a : g.ops[i].outputs)
        if (a.valid()) add(writers_[a.buffer().get()], i);
    }
  }

  std::vector<ReduceFusion> run() {
    std::vector<ReduceFusion> out;
    std::vector<bool> group_used(groups_.size(), false);
    for (size_t r = 0; r < g_.ops.size(); ++r) {
      if (!live_[r] || used_[r] || !is_reduce_record(g_.ops[r])) continue;
      ReduceFusion f;
      Part pre, post;
      const bool has_pre = prologue(r, pre);
      if (!has_pre) pre = Part();
      const bool has_post = epilogue(r, pre, post);
      if (!has_post) post = Part();
      if (!has_pre && !has_post) continue;
      const auto& [src, geom, kind, params, red] = reduce_args(g_.ops[r]);
      FusedReduceCall& c = f.call;
      c.geom = geom;
      c.kind = kind;
      c.params = params;
      c.elem = src.dtype();
      if (has_pre) {
        c.pre = pre.call.graph;
        c.pre_hash = pre.call.hash;
        c.in = pre.call.in;
        c.scalar = pre.call.scalar;
      } else {
        c.in = {src};
        c.scalar.resize(1);
      }
      c.out = red;
      if (has_post) {
        c.post = post.call.graph;
        c.post_hash = post.call.hash;
        c.post_value = post.value;
        c.post_in = post.call.in;
        c.post_in[post.value] = Array();
        c.post_scalar = post.call.scalar;
        c.out = post.call.out[0];
      }
      f.reduce = r;
      f.absorbed = {r};
      for (const Part* p : {&pre, &post}) {
        f.absorbed.insert(f.absorbed.end(), p->members.begin(), p->members.end());
        if (p->group >= 0) group_used[p->group] = true;
      }
      std::sort(f.absorbed.begin(), f.absorbed.end());
      f.at = f.absorbed.back();
      for (size_t m : f.absorbed) used_[m] = true;
      out.push_back(std::move(f));
    }
    std::vector<FusedGroup> kept;
    for (size_t k = 0; k < groups_.size(); ++k)
      if (!group_used[k]) kept.push_back(std::move(groups_[k]));
    groups_ = std::move(kept);
    return out;
  }

 private:
  struct Part {
    std::vector<size_t> members;
    int group = -1;  // its index in groups_, or -1 for a single record
    FusedCall call;
    int value = -1;  // epilogue: the graph input that is the reduction's result
    std::unordered_set<const Buffer*> reads;  // buffers its members read
  };

  static void add(std::vector<size_t>& v, size_t i) {
    if (v.empty() || v.back() != i) v.push_back(i);
  }
  const std::vector<size_t>& readers(const Buffer* b) const { return ops_of(readers_, b); }
  const std::vector<size_t>& writers(const Buffer* b) const { return ops_of(writers_, b); }
  static const std::vector<size_t>& ops_of(const std::unordered_map<const Buffer*, std::vector<size_t>>& m,
                                               const Buffer* b) {
    static const std::vector<size_t> none;
    auto it = m.find(b);
    return it == m.end() ? none : it->second;
  }
  // Memory only the plan sees: not an argument, result, constant or captured array.
  bool private_buffer(const Buffer* b) const {
    return b->is_abstract() && !b->is_trace_constant() && !inputs_.count(b) && !results_.count(b);
  }

  // The group or single elementwise record `i` belongs to, as a Part with its call (one
  // output: `out_buffer`); false when it is used already or has other outputs.
  bool part_of(size_t i, const Buffer* out_buffer, Part& p) const {
    if (used_[i] || !out_buffer) return false;
    const int k = group_of_[i];
    if (k >= 0) {
      p.group = k;
      p.members = groups_[k].members;
      p.call = groups_[k].call;
    } else {
      if (!is_elementwise_record(g_.ops[i])) return false;
      p.members = {i};
      FusedGroup one;
      if (!build_fused_group(g_, p.members, {out_buffer}, one)) return false;
      p.call = std::move(one.call);
    }
    for (size_t m : p.members)
      if (used_[m]) return false;
    if (p.call.out.size() != 1 || p.call.out[0].buffer().get() != out_buffer) return false;
    for (size_t m : p.members)
      for (const Array& a : g_.ops[m].inputs)
        if (a.valid()) p.reads.insert(a.buffer().get());
    return true;
  }

  bool member(const Part& p, size_t i) const { return std::binary_search(p.members.begin(), p.members.end(), i); }

  // Live ops in (from, to] other than `skip`'s members: none writes a buffer in `read`,
  // none touches a buffer in `hidden`.
  bool movable(size_t from, size_t to, const std::unordered_set<const Buffer*>& read,
               const std::unordered_set<const Buffer*>& hidden, const Part& skip) const {
    for (size_t k = from + 1; k <= to; ++k) {
      if (!live_[k] || member(skip, k)) continue;
      for (const Array& a : g_.ops[k].outputs)
        if (a.valid() && (read.count(a.buffer().get()) || hidden.count(a.buffer().get()))) return false;
      for (const Array& a : g_.ops[k].inputs)
        if (a.valid() && hidden.count(a.buffer().get())) return false;
    }
    return true;
  }

  bool prologue(size_t r, Part& p) const {
    const Array& src = std::get<0>(reduce_args(g_.ops[r]));
    const Buffer* b = src.buffer().get();
    if (!private_buffer(b) || readers(b) != std::vector<size_t>{r}) return false;
    const std::vector<size_t>& w = writers(b);
    if (w.empty() || w.back() > r || !part_of(w.back(), b, p)) return false;
    for (size_t k : w)  // every writer of the buffer is a member
      if (!member(p, k)) return false;
    const Array& o = p.call.out[0];
    if (!o.is_contiguous() || o.offset() != src.offset() || o.size() != src.size() || o.dtype() != src.dtype())
      return false;
    for (const Array& a : p.call.in)
      if (!flat_operand(a, o.size())) return false;
    // Run at r: nothing between writes what the group reads or touches what it writes.
    std::unordered_set<const Buffer*> wrote;
    for (size_t m : p.members)
      for (const Array& a : g_.ops[m].outputs) wrote.insert(a.buffer().get());
    return movable(p.members.front(), r - 1, p.reads, wrote, p);
  }

  bool epilogue(size_t r, const Part& pre, Part& p) const {
    const Array& red = std::get<4>(reduce_args(g_.ops[r]));
    const Buffer* c = red.buffer().get();
    if (!private_buffer(c) || writers(c) != std::vector<size_t>{r}) return false;
    const std::vector<size_t>& rd = readers(c);
    if (rd.empty() || rd.front() < r) return false;
    if (!part_of(rd.front(), stored_output(rd.front()), p)) return false;
    for (size_t k : rd)
      if (!member(p, k)) return false;
    const Array& d = p.call.out[0];
    if (!d.is_contiguous() || d.size() != red.size()) return false;
    for (size_t i = 0; i < p.call.in.size(); ++i) {
      const Array& a = p.call.in[i];
      if (a.valid() && a.buffer().get() == c) {
        if (p.value >= 0 || !a.is_contiguous() || a.offset() != red.offset() || a.size() != red.size()) return false;
        p.value = static_cast<int>(i);
      } else if (!flat_operand(a, d.size())) {
        return false;
      }
    }
    if (p.value < 0 || p.members.back() < r) return false;
    // The reduction (and its prologue) runs at the epilogue's last member: nothing between
    // writes what they read, and nothing outside the epilogue touches the result buffer.
    std::unordered_set<const Buffer*> read = pre.reads;
    read.insert(std::get<0>(reduce_args(g_.ops[r])).buffer().get());
    for (const Array& a : pre.call.in)
      if (a.valid()) read.insert(a.buffer().get());
    for (size_t k = r + 1; k <= p.members.back(); ++k)
      if (live_[k] && member(p, k))
        for (const Array& a : g_.ops[k].outputs)
          if (read.count(a.buffer().get())) return false;
    return movable(r, p.members.back(), read, {c}, p);
  }

  // The one buffer that the group or elementwise record `i` belongs to stores, or null.
  const Buffer* stored_output(size_t i) const {
    const int k = group_of_[i];
    if (k >= 0) return groups_[k].call.out.size() == 1 ? groups_[k].call.out[0].buffer().get() : nullptr;
    return is_elementwise_record(g_.ops[i]) ? g_.ops[i].outputs[0].buffer().get() : nullptr;
  }

  const TracedGraph& g_;
  const std::vector<bool>& live_;
  std::vector<FusedGroup>& groups_;
  std::vector<int> group_of_;
  std::vector<bool> used_;
  std::unordered_set<const Buffer*> inputs_, results_;
  std::unordered_map<const Buffer*, std::vector<size_t>> readers_, writers_;
};

}  // namespace

bool is_reduce_record(const TracedOp& op) {
  // A complex reduction runs as its own op: the fused reduction kernels are real-only.
  for (const Array& a : op.inputs)
    if (is_complex(a.dtype())) return false;
  return op.op->fusion == Fusion::reduction;
}

std::vector<ReduceFusion> find_reduce_fusions(const TracedGraph& g, const std::vector<bool>& live,
                                              std::vector<FusedGroup>& groups) {
  return Finder(g, live, groups).run();
}

}  // namespace loom
