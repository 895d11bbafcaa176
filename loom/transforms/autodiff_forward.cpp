#include "loom/transforms/autodiff_forward.h"

#include <algorithm>

namespace loom::autodiff {
namespace {

// The byte range [lo, hi) of a view in its buffer.
struct Range {
  int64_t lo, hi;
  bool overlaps(const Range& o) const { return lo < o.hi && o.lo < hi; }
};

Range range_of(const Array& a) {
  int64_t lo = a.offset(), hi = a.offset();
  if (a.size() == 0) return {lo, lo};
  for (int d = 0; d < a.ndim(); ++d) {
    const int64_t ext = (a.shape()[d] - 1) * a.strides()[d];
    (ext < 0 ? lo : hi) += ext;
  }
  return {lo, hi + static_cast<int64_t>(a.itemsize())};
}

// A copy of the abstract buffer `b` as bound by `old`, in one buffer of its own. Copied as
// `like`'s dtype (when it divides the size) so that an enclosing grad sees floats flow.
BufferBinding new_version(const Buffer* b, const BufferBinding& old, const Array& like) {
  const int64_t nbytes = static_cast<int64_t>(b->nbytes());
  const int64_t isz = static_cast<int64_t>(like.itemsize());
  const DType dt = nbytes % isz == 0 ? like.dtype() : uint8;
  const int64_t item = static_cast<int64_t>(itemsize(dt));
  const Array c = Array(old.buffer, dt, {nbytes / item}, {item}, old.offset_delta).copy();
  return {c.buffer(), c.offset()};
}

}  // namespace

ForwardPass::ForwardPass(std::shared_ptr<const TracedGraph> g, const std::vector<Array>& args) : g_(std::move(g)) {
  const TracedGraph& graph = *g_;
  check_args("grad", graph, args);
  BufferMap map = bind_inputs(graph, args);
  std::unordered_map<const Buffer*, std::vector<Range>> touched;
  for (const auto& [b, binding] : map) {
    versions_[b].push_back({-1, binding});
    touched[b].push_back({0, static_cast<int64_t>(b->nbytes())});  // the caller's values
  }
  overwrites_.resize(graph.ops.size());
  for (size_t k = 0; k < graph.ops.size(); ++k) {
    const TracedOp& op = graph.ops[k];
    for (const Array& in : op.inputs)
      if (in.valid() && versions_.count(in.buffer().get())) touched[in.buffer().get()].push_back(range_of(in));
    std::vector<const Buffer*> versioned;
    overwrites_[k].assign(op.outputs.size(), false);
    for (size_t i = 0; i < op.outputs.size(); ++i) {
      const Array& out = op.outputs[i];
      if (!out.valid()) continue;
      const Buffer* b = out.buffer().get();
      auto it = versions_.find(b);
      if (it == versions_.end()) {
        if (!b->is_abstract()) continue;  // a concrete array the function writes into
        bind_outputs(op, map);
        versions_[b].push_back({static_cast<int64_t>(k), map[b]});
        continue;
      }
      const Range r = range_of(out);
      const auto& t = touched[b];
      if (!std::any_of(t.begin(), t.end(), [&](const Range& o) { return o.overlaps(r); })) continue;
      overwrites_[k][i] = true;
      if (std::find(versioned.begin(), versioned.end(), b) != versioned.end()) continue;
      versioned.push_back(b);
      map[b] = new_version(b, map[b], out);
      it->second.push_back({static_cast<int64_t>(k), map[b]});
    }
    for (const Array& out : op.outputs)
      if (out.valid() && versions_.count(out.buffer().get())) touched[out.buffer().get()].push_back(range_of(out));
    op.run(op, map);
  }
  results_ = bind_results(graph, map);
}

Array ForwardPass::bind(const Array& a, int64_t k, bool output) const {
  if (!a.valid()) return a;
  auto it = versions_.find(a.buffer().get());
  if (it == versions_.end()) return a;
  const Version* v = &it->second.front();
  for (const Version& x : it->second)
    if (x.from < k || (output && x.from == k)) v = &x;
  const BufferBinding& b = v->binding;
  return Array(b.buffer, a.dtype(), a.shape(), a.strides(), a.offset() + b.offset_delta);
}

TracedOp ForwardPass::bound(size_t k) const {
  TracedOp op = g_->ops[k];
  for (Array& a : op.inputs) a = bind(a, static_cast<int64_t>(k), false);
  for (Array& a : op.outputs) a = bind(a, static_cast<int64_t>(k), true);
  return op;
}

}  // namespace loom::autodiff
