// The random family's primitives, one record each, defined with their rules in
// ops/random_primitives.cpp (dispatch/primitive.h, ops/primitive_list.h).
#pragma once
#include "loom/backend/random.h"
#include "loom/ops/primitive_list.h"

namespace loom {

#define LOOM_RANDOM_PRIMITIVES(X)\
  X(RandomFillFn, random, [4])

namespace primitives {
LOOM_RANDOM_PRIMITIVES(LOOM_DECLARE_PRIMITIVE)
}  // namespace primitives

}  // namespace loom
