// Block loops of the op table's ops [34, erfc) for the CPU graph evaluator.
#include "loom/graph/cpu_eval_loops.h"

namespace loom::graph_cpu {

void register_nodes_part1(NodeTable& t) { detail::register_range<34, static_cast<int>(OpId::erfc)>(t); }

}  // namespace loom::graph_cpu
