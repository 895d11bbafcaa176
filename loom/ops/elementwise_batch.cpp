// Batching the elementwise family: one call on the batched views. Each operand of an
// ElementwiseCall is a strided view broadcast to out's shape, so the batch is one more
// leading axis (stride 0 for an operand shared by all examples): one kernel, no loop.
#include "loom/backend/elementwise.h"
#include "loom/ops/batch_common.h"

namespace loom::batch {
namespace {

void elementwise_rule(const TracedOp& op, const BatchMap& m) {
  ElementwiseCall c = std::get<0>(op.args_as<ElementwiseCall>());
  for (int i = 0; i < c.nin; ++i)
    if (!c.is_scalar[i] && c.in[i].valid()) c.in[i] = m.batched(c.in[i]);
  c.out = m.batched(c.out);
  redispatch<void, const ElementwiseCall&>(op, batched_all(op.inputs, m), batched_all(op.outputs, m), c);
}

}  // namespace

void register_elementwise() {
  for (const auto& p : primitives::elementwise) set_batch_rule(p.info, elementwise_rule);
  set_batch_rule(primitives::copyto_strided.info, elementwise_rule);
}

}  // namespace loom::batch
