// Batching sort and argsort: the eval sorts along the last axis of a view of any rank, so
// the batched views (one more leading axis) are one call. searchsorted (and its sorter
// check) has no rule: the engine runs it per example.
#include "loom/backend/sorting.h"
#include "loom/ops/batch_common.h"

namespace loom::batch {
namespace {

void sort_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [src, out, indices] = op.args_as<Array, Array, bool>();
  const Array o = m.batched(out);
  if (!o.is_contiguous()) return per_example(op, m);
  const Array s = m.batched(src);
  redispatch<void, const Array&, const Array&, bool>(op, {s}, {o}, s, o, indices);
}

}  // namespace

void register_sorting() {
  set_batch_rule(primitives::sort.info, sort_rule);
  set_batch_rule(primitives::argsort.info, sort_rule);
}

}  // namespace loom::batch
