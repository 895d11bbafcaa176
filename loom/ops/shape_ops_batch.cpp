// Batching the row gather behind repeat (take_rows): with the row indices shared by all
// examples, the examples are `size` more outer blocks of src and dst, one call. Indices that
// differ per example would need a gather per example: those run the loop.
#include "loom/backend/shape_ops.h"
#include "loom/ops/batch_common.h"

namespace loom::batch {
namespace {

void take_rows_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [src, idx, dst, outer, n, inner] = op.args_as<Array, Array, Array, int64_t, int64_t, int64_t>();
  if (m.is_batched(idx)) return per_example(op, m);
  const Array d = dense_batch(dst, outer * idx.size() * inner, m);
  if (!d.valid()) return per_example(op, m);
  const Array s = dense_batch_copy(src, outer * n * inner, m);
  const Array i = first_example(m.batched(idx));
  redispatch<void, const Array&, const Array&, const Array&, int64_t, int64_t, int64_t>(
      op, {s, i}, {d}, s, i, d, outer * m.size, n, inner);
}

}  // namespace

void register_shape_ops() { set_batch_rule(primitives::repeat.info, take_rows_rule); }

}  // namespace loom::batch
