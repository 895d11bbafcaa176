// CPU eval of a fused group of elementwise ops (loom.jit): the graph evaluator's fused
// block loops (graph/cpu_eval.h), so intermediates live in per-task block buffers only.
#include "loom/backend/elementwise.h"
#include "loom/graph/cpu_eval.h"

namespace loom::cpu_backend {

void fused(const FusedCall& call) {
  const FusedGraph& g = *call.graph;
  std::vector<GraphArg> args;
  args.reserve(call.in.size());
  for (size_t i = 0; i < call.in.size(); ++i) {
    if (g.inputs[i].kind == FusedGraph::InputKind::param) args.emplace_back(call.scalar[i]);
    else args.emplace_back(call.in[i]);
  }
  eval_graph_cpu(g, args, call.out);
}

}  // namespace loom::cpu_backend
