// The counting family's primitives, one record each, defined with their rules in
// ops/counting_primitives.cpp (dispatch/primitive.h, ops/primitive_list.h).
#pragma once
#include "loom/backend/counting.h"
#include "loom/ops/primitive_list.h"

namespace loom {

#define LOOM_COUNTING_PRIMITIVES(X)\
  X(MinMaxFn, minmax, )       \
  X(BincountFn, bincount, )   \
  X(HistogramFn, histogram, )

namespace primitives {
LOOM_COUNTING_PRIMITIVES(LOOM_DECLARE_PRIMITIVE)
}  // namespace primitives

}  // namespace loom
