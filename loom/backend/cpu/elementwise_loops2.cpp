// Loops of the op table's ops [34, 51) (one file per range keeps builds parallel).
#include "loom/backend/cpu/elementwise_loops.h"

namespace loom::cpu_backend {

void register_loops_part2(LoopTable& t) { ew::register_range<34, 51>(t); }

}  // namespace loom::cpu_backend
