// The fused softmax cross-entropy (nn.losses.cross_entropy runs on it).
#include "bindings.h"
#include "loom/ops/nn_loss.h"

namespace loom::py {

LOOM_BINDING_FAMILY(nn_loss, 37) {
  m.def(
      "softmax_cross_entropy",
      [](const Array& logits, const Array& labels) {
        nb::gil_scoped_release release;
        return softmax_cross_entropy(logits, labels);
      },
      nb::arg("logits"), nb::arg("labels"),
      "Per row of logits (N, C) (float32/float64): logsumexp(logits[r]) - logits[r, labels[r]], one "
      "fused op with a fused gradient; NaN where a label is outside [0, C).");
}

}  // namespace loom::py
