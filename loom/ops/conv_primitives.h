// The convolution family's primitives, one record each, defined with their rules in
// ops/conv_primitives.cpp (dispatch/primitive.h, ops/primitive_list.h).
#pragma once
#include "loom/backend/conv.h"
#include "loom/ops/primitive_list.h"

namespace loom {

#define LOOM_CONV_PRIMITIVES(X)               \
  X(Conv2dFn, conv2d, )                       \
  X(Conv2dInputGradFn, conv2d_input_grad, )   \
  X(Conv2dWeightGradFn, conv2d_weight_grad, )

namespace primitives {
LOOM_CONV_PRIMITIVES(LOOM_DECLARE_PRIMITIVE)
}  // namespace primitives

}  // namespace loom
