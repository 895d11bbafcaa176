// Where a CPU reduction's elements come from: a dense array (eager reductions), or, for
// loom.jit's fused reductions (backend/reduce.h, FusedReduceCall), the prologue graph
// evaluated by graph/cpu_eval on the segments the engine asks for, into the task's
// scratch. The engine (reduce_engine.h) segments the input the same way for both, so a
// fused reduction combines the same values in the same order as the unfused one, and the
// intermediate array never exists: each task holds at most 2 * kChunk elements of it.
#pragma once
#include <algorithm>
#include <vector>

#include "loom/backend/cpu/reduce_engine.h"
#include "loom/backend/reduce.h"
#include "loom/graph/cpu_eval.h"

namespace loom::cpu_backend::reduce_detail {

/// A reduction's input as the family entry points receive it.
struct ReduceInput {
  const Array* dense = nullptr;          // the dense [outer][len][inner] input, or
  const FusedReduceCall* fused = nullptr;  // the prologue that computes it
  DType dtype() const { return fused ? fused->elem : dense->dtype(); }
};

template <class In>
class GraphSource {
 public:
  static constexpr bool direct = false;
  explicit GraphSource(const FusedReduceCall& c) : c_(c), uniform_(c.in.size()) {
    for (size_t i = 0; i < c.in.size(); ++i)
      uniform_[i] = c.in[i].valid() && std::all_of(c.in[i].strides().begin(), c.in[i].strides().end(),
                                                    [](int64_t s) { return s == 0; });
  }
  struct Scratch {
    Array buf;
    int64_t lo = 0, hi = 0;  // the memory range whole rows() last filled in
  };
  Scratch scratch() const { return {Array::allocate({2 * kChunk}, c_.elem, cpu())}; }

  const In* rows(int64_t k, int64_t n, Scratch& s) const {
    // Pieces of at most kChunk elements: the evaluator runs them on this thread.
    for (int64_t off = 0; off < n; off += kChunk) fill(k + off, {std::min(kChunk, n - off)}, {1}, off, s);
    s.lo = k, s.hi = k + n;
    return static_cast<const In*>(s.buf.data());
  }
  const In* block(int64_t k, int64_t n, int64_t stride, int64_t w, Scratch& s, int64_t& out_stride) const {
    // Whole rows when they fit: one evaluation serves every column tile of these rows.
    const int64_t first = k - k % stride, last = first + n * stride;
    if (n * stride <= 2 * kChunk) {
      if (first < s.lo || last > s.hi) rows(first, n * stride, s);
      out_stride = stride;
      return static_cast<const In*>(s.buf.data()) + (k - s.lo);
    }
    out_stride = w;  // the engine bounds n * w by kChunk
    fill(k, {n, w}, {stride, 1}, 0, s);
    s.lo = s.hi = 0;
    return static_cast<const In*>(s.buf.data());
  }

 private:
  // The prologue at memory indices k + sum(idx * steps) for idx over `shape`, stored
  // contiguously at scratch element `at`.
  void fill(int64_t k, const Shape& shape, const Strides& steps, int64_t at, Scratch& s) const {
    std::vector<GraphArg> args;
    args.reserve(c_.in.size());
    for (size_t i = 0; i < c_.in.size(); ++i) {
      const Array& a = c_.in[i];
      if (!a.valid()) {
        args.emplace_back(c_.scalar[i]);
        continue;
      }
      const int64_t isz = static_cast<int64_t>(a.itemsize());
      Strides st(shape.size(), 0);
      if (!uniform_[i])
        for (size_t d = 0; d < shape.size(); ++d) st[d] = steps[d] * isz;
      args.emplace_back(a.view(shape, std::move(st), a.offset() + (uniform_[i] ? 0 : k * isz)));
    }
    const Array out = s.buf.view(shape, contiguous_strides(shape, sizeof(In)), at * static_cast<int64_t>(sizeof(In)));
    eval_graph_cpu(*c_.pre, args, {out});
  }

  const FusedReduceCall& c_;
  std::vector<bool> uniform_;
};

/// Calls f(source) with the source of `in`'s elements as In.
template <class In, class F>
void with_source(const ReduceInput& in, F&& f) {
  if (in.fused) f(GraphSource<In>(*in.fused));
  else f(DenseSource<In>{static_cast<const In*>(in.dense->data())});
}

}  // namespace loom::cpu_backend::reduce_detail

namespace loom::cpu_backend {
// Per-family entry points (reduce_sum.cpp, reduce_extrema.cpp, reduce_stats.cpp); `out`
// is contiguous, of reduce_out_dtype(kind, in.dtype()).
void reduce_sum_prod(const reduce_detail::ReduceInput& in, const ReduceGeometry& g, ReduceKind kind, const Array& out);
void reduce_extrema(const reduce_detail::ReduceInput& in, const ReduceGeometry& g, ReduceKind kind, const Array& out);
void reduce_stats(const reduce_detail::ReduceInput& in, const ReduceGeometry& g, ReduceKind kind,
                  const ReduceParams& params, const Array& out);
/// Any kind, by family.
void reduce_any_input(const reduce_detail::ReduceInput& in, const ReduceGeometry& g, ReduceKind kind,
                      const ReduceParams& params, const Array& out);
}  // namespace loom::cpu_backend
