// The elementwise family's primitives, one record each, defined with their rules in
// ops/elementwise_primitives.cpp (dispatch/primitive.h, ops/primitive_list.h).
#pragma once
#include "loom/backend/elementwise.h"
#include "loom/ops/primitive_list.h"

namespace loom {

#define LOOM_ELEMENTWISE_PRIMITIVES(X)     \
  X(ElementwiseFn, elementwise, [kNumOps]) \
  X(ElementwiseFn, copyto_strided, )       \
  X(FusedFn, fused, )

namespace primitives {
LOOM_ELEMENTWISE_PRIMITIVES(LOOM_DECLARE_PRIMITIVE)
}  // namespace primitives

}  // namespace loom
