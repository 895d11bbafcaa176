// Batching reductions and scans: the eval reads a dense [outer][len][inner] block from
// in.data(), so the examples, laid back to back, are `size` more outer rows: one call with
// outer * size. An input whose examples are not back to back (a strided view of a batched
// buffer, or one shared by all examples) is copied together first; an output that is not
// one block per example falls back to the loop.
#include "loom/backend/reduce.h"
#include "loom/ops/batch_common.h"

namespace loom::batch {
namespace {

void reduce_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [src, g, kind, params, out] = op.args_as<Array, ReduceGeometry, ReduceKind, ReduceParams, Array>();
  const Array o = dense_batch(out, g.outer * g.inner, m);
  if (!o.valid()) return per_example(op, m);
  const Array s = dense_batch_copy(src, g.outer * g.len * g.inner, m);
  const ReduceGeometry bg{g.outer * m.size, g.len, g.inner};
  redispatch<void, const Array&, const ReduceGeometry&, ReduceKind, const ReduceParams&, const Array&>(
      op, {s}, {o}, s, bg, kind, params, o);
}

void scan_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [src, g, kind, out] = op.args_as<Array, ReduceGeometry, ScanKind, Array>();
  const int64_t n = g.outer * g.len * g.inner;
  const Array o = dense_batch(out, n, m);
  if (!o.valid()) return per_example(op, m);
  const Array s = dense_batch_copy(src, n, m);
  const ReduceGeometry bg{g.outer * m.size, g.len, g.inner};
  redispatch<void, const Array&, const ReduceGeometry&, ScanKind, const Array&>(op, {s}, {o}, s, bg, kind, o);
}

}  // namespace

void register_reduce() {
  for (const auto& p : primitives::reduce) set_batch_rule(p.info, reduce_rule);
  set_batch_rule(primitives::reduce_std.info, reduce_rule);
  for (const auto& p : primitives::scan) set_batch_rule(p.info, scan_rule);
}

}  // namespace loom::batch
