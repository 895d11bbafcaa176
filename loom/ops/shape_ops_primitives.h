// The shape (shape_ops) family's primitives, one record each, defined with their rules in
// ops/shape_ops_primitives.cpp (dispatch/primitive.h, ops/primitive_list.h).
#pragma once
#include "loom/backend/shape_ops.h"
#include "loom/ops/primitive_list.h"

namespace loom {

#define LOOM_SHAPE_OPS_PRIMITIVES(X)\
  X(TakeRowsFn, repeat, )

namespace primitives {
LOOM_SHAPE_OPS_PRIMITIVES(LOOM_DECLARE_PRIMITIVE)
}  // namespace primitives

}  // namespace loom
