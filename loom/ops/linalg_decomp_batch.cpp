// Batching the decompositions: their evals already loop over a leading axis of independent
// matrices, so the examples' matrices are more matrices and one call does them all.
#include "loom/backend/linalg_decomp.h"
#include "loom/ops/batch_common.h"
#include "loom/ops/linalg_qr.h"

namespace loom::batch {

void register_linalg_decomp() {
  using A = const Array&;
  set_batch_rule(primitives::solve.info, rows_rule<A, A, A>);
  set_batch_rule(primitives::inv.info, rows_rule<A, A>);
  set_batch_rule(primitives::slogdet.info, rows_rule<A, A, A>);
  set_batch_rule(primitives::cholesky.info, rows_rule<A, A>);
  set_batch_rule(primitives::eigh.info, rows_rule<A, A, A>);
  set_batch_rule(primitives::eigvalsh.info, rows_rule<A, A>);
  set_batch_rule(primitives::eig.info, rows_rule<A, A, A>);
  set_batch_rule(primitives::eigvals.info, rows_rule<A, A>);
  set_batch_rule(primitives::svd.info, rows_rule<A, A, A, A>);
  set_batch_rule(primitives::svdvals.info, rows_rule<A, A>);
  set_batch_rule(primitives::geqrf.info, rows_rule<A, A, A>);
  set_batch_rule(primitives::orgqr.info, rows_rule<A, A, A>);
  set_batch_rule(primitives::qr_factors.info, rows_rule<A, A, A>);
}

}  // namespace loom::batch
