// Batching the FFT primitives: their evals transform every row of (outer, n, inner), so the
// examples' rows are more rows of `outer` and one call does the whole batch.
#include "loom/backend/fft.h"
#include "loom/ops/batch_common.h"

namespace loom::batch {

void register_fft() {
  using A = const Array&;
  set_batch_rule(primitives::fft_c2c.info, rows_rule<A, A, bool>);
  set_batch_rule(primitives::fft_r2c.info, rows_rule<A, A>);
  set_batch_rule(primitives::fft_c2r.info, rows_rule<A, A>);
}

}  // namespace loom::batch
