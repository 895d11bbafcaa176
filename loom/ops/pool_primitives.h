// The pooling family's primitives, one record each, defined with their rules in
// ops/pool_primitives.cpp (dispatch/primitive.h, ops/primitive_list.h).
#pragma once
#include "loom/backend/pool.h"
#include "loom/ops/primitive_list.h"

namespace loom {

#define LOOM_POOL_PRIMITIVES(X)         \
  X(MaxPool2dFn, max_pool2d, )          \
  X(MaxPool2dGradFn, max_pool2d_grad, ) \
  X(AvgPool2dFn, avg_pool2d, )          \
  X(AvgPool2dGradFn, avg_pool2d_grad, )

namespace primitives {
LOOM_POOL_PRIMITIVES(LOOM_DECLARE_PRIMITIVE)
}  // namespace primitives

}  // namespace loom
