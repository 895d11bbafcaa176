// register_batch_rules (ops/transform_rules.h): every family's batching rules. Primitives
// left without one (nonzero, unique: their result sizes depend on the data, so they do not
// trace) are run once per example by the vmap engine.
#include <mutex>

#include "loom/ops/batch_common.h"
#include "loom/ops/transform_rules.h"

namespace loom {

void register_batch_rules() {
  static std::once_flag once;
  std::call_once(once, [] {
    batch::register_elementwise();
    batch::register_creation();
    batch::register_linalg();
    batch::register_reduce();
    batch::register_shape_ops();
    batch::register_sorting();
    batch::register_indexing();
    batch::register_random();
    batch::register_conv();
    batch::register_pool();
    batch::register_nn_loss();
    batch::register_linalg_decomp();
    batch::register_fft();
  });
}

}  // namespace loom
