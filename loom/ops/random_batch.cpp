// Batching random draws. The key is a host value of the record (loom_random_params), never
// a traced array, so a draw inside vmap is unbatched: every example gets the same numbers,
// as in JAX with an unbatched key. It is batched only when its buffer is later written per
// example, and then each example starts from those same numbers.
#include "loom/backend/random.h"
#include "loom/ops/batch_common.h"

namespace loom::batch {

void register_random() {
  for (const auto& p : primitives::random) set_batch_rule(p.info, once_then_broadcast);
}

}  // namespace loom::batch
