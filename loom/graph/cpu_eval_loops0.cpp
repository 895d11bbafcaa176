// Block loops of the op table's ops [0, 34) for the CPU graph evaluator.
#include "loom/graph/cpu_eval_loops.h"

namespace loom::graph_cpu {

void register_nodes_part0(NodeTable& t) { detail::register_range<0, 34>(t); }

}  // namespace loom::graph_cpu
