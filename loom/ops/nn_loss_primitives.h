// The fused loss (nn_loss) family's primitives, one record each, defined with their rules in
// ops/nn_loss_primitives.cpp (dispatch/primitive.h, ops/primitive_list.h).
#pragma once
#include "loom/backend/nn_loss.h"
#include "loom/ops/primitive_list.h"

namespace loom {

#define LOOM_NN_LOSS_PRIMITIVES(X)            \
  X(CrossEntropyFn, cross_entropy, )          \
  X(CrossEntropyGradFn, cross_entropy_grad, )

namespace primitives {
LOOM_NN_LOSS_PRIMITIVES(LOOM_DECLARE_PRIMITIVE)
}  // namespace primitives

}  // namespace loom
