// Block loops of the op table's special rows [erfc, kNumOps) for the CPU graph evaluator.
#include "loom/graph/cpu_eval_loops.h"

namespace loom::graph_cpu {

void register_nodes_part2(NodeTable& t) { detail::register_range<static_cast<int>(OpId::erfc), kNumOps>(t); }

}  // namespace loom::graph_cpu
