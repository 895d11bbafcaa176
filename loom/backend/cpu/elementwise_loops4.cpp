// Loops of the op table's special rows [erfc, kNumOps) (scipy.special's functions).
#include "loom/backend/cpu/elementwise_loops.h"

namespace loom::cpu_backend {

void register_loops_part4(LoopTable& t) { ew::register_range<static_cast<int>(OpId::erfc), kNumOps>(t); }

}  // namespace loom::cpu_backend
