// Batching the convolutions: with the weight shared by all examples, the examples' images
// are more images, so the batch axis merges with N and one call does them all (the usual
// case: vmap over examples of a network). A batched weight, and the weight gradient (whose
// output is per example), run once per example.
#include "loom/backend/conv.h"
#include "loom/ops/batch_common.h"

namespace loom::batch {
namespace {

// v (S, N, ...) as (S*N, ...) when the examples lie back to back, else an invalid Array.
Array merged(const Array& v) {
  const Shape& s = v.shape();
  const int64_t per = v.size() / std::max<int64_t>(1, s[0]) * static_cast<int64_t>(v.itemsize());
  if (s[0] > 1 && v.strides()[0] != per) return Array();
  const Array rest = v.view(Shape(s.begin() + 1, s.end()), Strides(v.strides().begin() + 1, v.strides().end()),
                            v.offset());
  if (!rest.is_contiguous()) return Array();
  Shape ms(s.begin() + 1, s.end());
  ms[0] *= s[0];
  Strides st(rest.strides());
  return v.view(ms, st, v.offset());
}

// Rule for conv2d (x, w -> y) and conv2d_input_grad (dy, w -> dx): operand 0 batched, w shared.
void images_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [in, w, out, g] = op.args_as<Array, Array, Array, Conv2dGeometry>();
  if (m.is_batched(w)) return per_example(op, m);
  const Array o = merged(m.batched(out));
  if (!o.valid()) return per_example(op, m);
  Array i = merged(m.batched(in));
  if (!i.valid()) {
    const Array c = m.batched(in).contiguous();
    i = merged(c);
  }
  const Array wf = first_example(m.batched(w));
  redispatch<void, const Array&, const Array&, const Array&, const Conv2dGeometry&>(op, {i, wf}, {o}, i, wf, o, g);
}

}  // namespace

void register_conv() {
  set_batch_rule(primitives::conv2d.info, images_rule);
  set_batch_rule(primitives::conv2d_input_grad.info, images_rule);
}

}  // namespace loom::batch
