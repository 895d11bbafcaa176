// jit's fused reductions on the CPU (backend/reduce.h, FusedReduceCall): the reduction
// engine reads the prologue through a GraphSource (reduce_source.h), which evaluates it
// segment by segment into per-task scratch, in the same segments and order as the
// unfused reduction reads its stored input. The epilogue runs on the reduced result (of
// the output's size, small next to the input) with the graph evaluator.
#include "loom/backend/cpu/reduce_source.h"
#include "loom/backend/reduce.h"
#include "loom/graph/cpu_eval.h"

namespace loom::cpu_backend {
using namespace reduce_detail;

void fused_reduce(const FusedReduceCall& c) {
  const int64_t n_out = c.geom.outer * c.geom.inner;
  if (n_out == 0) return;
  Array red = c.post ? Array::allocate({n_out}, reduce_out_dtype(c.kind, c.elem), cpu()) : c.out;
  const ReduceInput in = c.pre ? ReduceInput{nullptr, &c} : ReduceInput{&c.in[0], nullptr};
  reduce_any_input(in, c.geom, c.kind, c.params, red);
  if (!c.post) return;
  const Shape& shape = c.out.shape();
  std::vector<GraphArg> args;
  args.reserve(c.post_in.size());
  for (size_t i = 0; i < c.post_in.size(); ++i) {
    if (static_cast<int>(i) == c.post_value) args.emplace_back(red.view(shape, contiguous_strides(shape, red.itemsize()), 0));
    else if (c.post_in[i].valid()) args.emplace_back(c.post_in[i]);
    else args.emplace_back(c.post_scalar[i]);
  }
  eval_graph_cpu(*c.post, args, {c.out});
}

}  // namespace loom::cpu_backend
