// Batching sort and argsort: the eval sorts along the last axis of a view of any rank, so
// the batched views (one more leading axis) are one call.
//
// searchsorted searches one 1-d sorted array. With that array shared by all examples, the
// batched values are one dense block: one call. With a batched sorted array, no single
// call of the eval describes the batch, so the insertion points are counted instead, as
// JAX's method='compare_all': left = #{a < v}, right = #{a <= v} in the order the evals
// use (NaN above everything, -0.0 == 0.0), one comparison over [size, len(v), len(a)] and
// one sum; past kCompareAllMax comparisons (memory) the engine's loop is kept. A sorter
// reads its values back to be checked, so it never reaches a trace: the loop too.
#include "loom/backend/sorting.h"
#include "loom/ops/batch_common.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/reduce.h"

namespace loom::batch {
namespace {

void sort_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [src, out, indices] = op.args_as<Array, Array, bool>();
  const Array o = m.batched(out);
  if (!o.is_contiguous()) return per_example(op, m);
  const Array s = m.batched(src);
  redispatch<void, const Array&, const Array&, bool>(op, {s}, {o}, s, o, indices);
}

constexpr int64_t kCompareAllMax = int64_t{1} << 26;

void searchsorted_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [a, v, sorter, right, out] = op.args_as<Array, Array, Array, bool, Array>();
  const int64_t k = v.size(), n = a.size(), size = m.size;
  const Array o = dense_batch(out, k, m);
  if (sorter.valid() || !o.valid()) return per_example(op, m);
  if (size == 0) return;
  if (!m.is_batched(a)) {  // one sorted array: the batch is more values
    const Array as = first_example(m.batched(a)), vs = dense_batch_copy(v, k, m);
    return redispatch<void, const Array&, const Array&, const Array&, bool, const Array&>(
        op, {as, vs}, {o}, as, vs, sorter, right, o);
  }
  if (size * k * n > kCompareAllMax) return per_example(op, m);
  const int64_t item = static_cast<int64_t>(a.itemsize());
  const Array ab = m.batched(a), vb = m.batched(v);  // a, v contiguous per example
  const Array A = ab.view({size, 1, n}, {ab.strides()[0], 0, item}, ab.offset());
  const Array V = vb.view({size, k, 1}, {vb.strides()[0], item, 0}, vb.offset());
  Array below = right ? less_equal(A, V) : less(A, V);
  if (is_floating(a.dtype())) {  // a NaN v is above every number (and, searching right, every NaN)
    const Array nan_v = isnan(V);
    below = logical_or(below, right ? nan_v : logical_and(nan_v, logical_not(isnan(A))));
  }
  sum(below, std::vector<int64_t>{2}, false, int64, o.view({size, k}, {k * 8, 8}, o.offset()));
}

}  // namespace

void register_sorting() {
  set_batch_rule(primitives::searchsorted.info, searchsorted_rule);
  set_batch_rule(primitives::sort.info, sort_rule);
  set_batch_rule(primitives::argsort.info, sort_rule);
}

}  // namespace loom::batch
