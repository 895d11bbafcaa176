// Batching the pooling ops: every array runs along the images, so the examples' images are
// more images and one call pools them all (batch_common.h's rows_rule).
#include "loom/backend/pool.h"
#include "loom/ops/batch_common.h"

namespace loom::batch {

void register_pool() {
  using A = const Array&;
  using G = const Pool2dGeometry&;
  set_batch_rule(primitives::max_pool2d.info, rows_rule<A, A, G>);
  set_batch_rule(primitives::max_pool2d_grad.info, rows_rule<A, A, A, A, G>);
  set_batch_rule(primitives::avg_pool2d.info, rows_rule<A, A, G>);
  set_batch_rule(primitives::avg_pool2d_grad.info, rows_rule<A, A, G>);
}

}  // namespace loom::batch
