// Loops of the op table's ops [51, erfc) (one file per range keeps builds parallel).
#include "loom/backend/cpu/elementwise_loops.h"

namespace loom::cpu_backend {

void register_loops_part3(LoopTable& t) { ew::register_range<51, static_cast<int>(OpId::erfc)>(t); }

}  // namespace loom::cpu_backend
