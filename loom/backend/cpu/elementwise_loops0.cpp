// Loops of the op table's ops [0, 17) (one file per range keeps builds parallel).
#include "loom/backend/cpu/elementwise_loops.h"

namespace loom::cpu_backend {

void register_loops_part0(LoopTable& t) { ew::register_range<0, 17>(t); }

}  // namespace loom::cpu_backend
