// Batching the fused cross-entropy: its rows are independent, so the examples' rows are
// more rows and one call does them all (batch_common.h's rows_rule).
#include "loom/backend/nn_loss.h"
#include "loom/ops/batch_common.h"

namespace loom::batch {

void register_nn_loss() {
  using A = const Array&;
  set_batch_rule(primitives::cross_entropy.info, rows_rule<A, A, A, A>);
  set_batch_rule(primitives::cross_entropy_grad.info, rows_rule<A, A, A, A, A>);
}

}  // namespace loom::batch
