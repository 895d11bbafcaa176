// Batching the creation family. Fills, aranges and eyes read no operand, so they are
// batched only when another op later writes their buffer per example: every example starts
// with the same values. A conversion (astype, copy, copyto) is one call on the batched
// views when the batched destination is contiguous, as its eval needs, else one strided
// copy on the elementwise engine (as copyto does for a strided destination).
#include "loom/backend/creation.h"
#include "loom/ops/batch_common.h"
#include "loom/ops/elementwise.h"

namespace loom::batch {
namespace {

void full_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [out, value] = op.args_as<Array, Scalar>();
  const Array all = m.batched(out);
  if (!all.is_contiguous()) return once_then_broadcast(op, m);
  redispatch<void, const Array&, const Scalar&>(op, {}, {all}, all, value);
}

void convert_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [src, dst] = op.args_as<Array, Array>();
  const Array d = m.batched(dst), s = m.batched(src);
  if (d.is_contiguous()) return redispatch<void, const Array&, const Array&>(op, {s}, {d}, s, d);
  copyto(d, s);  // a strided batched destination: one strided copy (ops/elementwise_copyto.cpp)
}

}  // namespace

void register_creation() {
  set_batch_rule(primitives::full.info, full_rule);
  for (const auto* p : {&primitives::arange.info, &primitives::linspace.info, &primitives::eye.info,
                        &primitives::from_host.info})
    set_batch_rule(*p, once_then_broadcast);
  for (const auto* p : {&primitives::astype.info, &primitives::copy.info, &primitives::copyto.info})
    set_batch_rule(*p, convert_rule);
}

}  // namespace loom::batch
