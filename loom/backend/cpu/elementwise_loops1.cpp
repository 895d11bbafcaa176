// Loops of the op table's ops [17, 34) (one file per range keeps builds parallel).
#include "loom/backend/cpu/elementwise_loops.h"

namespace loom::cpu_backend {

void register_loops_part1(LoopTable& t) { ew::register_range<17, 34>(t); }

}  // namespace loom::cpu_backend
