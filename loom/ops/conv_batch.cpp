// Batching the convolutions: with the weight shared by all examples, the examples' images
// are more images, so the batch axis merges with N and one call does them all (the usual
// case: vmap over examples of a network). A batched weight, and the weight gradient (whose
// output is per example), run once per example.
#include "loom/backend/conv.h"
#include "loom/ops/batch_common.h"

namespace loom::batch {
namespace {

// Rule for conv2d (x, w -> y) and conv2d_input_grad (dy, w -> dx): operand 0 batched, w shared.
void images_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [in, w, out, g] = op.args_as<Array, Array, Array, Conv2dGeometry>();
  if (m.is_batched(w)) return per_example(op, m);
  const Array o = merge_leading(m.batched(out));
  if (!o.valid()) return per_example(op, m);
  const Array i = merge_leading_copy(m.batched(in));
  const Array wf = first_example(m.batched(w));
  redispatch<void, const Array&, const Array&, const Array&, const Conv2dGeometry&>(op, {i, wf}, {o}, i, wf, o, g);
}

}  // namespace

void register_conv() {
  set_batch_rule(primitives::conv2d.info, images_rule);
  set_batch_rule(primitives::conv2d_input_grad.info, images_rule);
}

}  // namespace loom::batch
