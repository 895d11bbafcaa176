// The indexing family's primitives, one record each, defined with their rules in
// ops/indexing_primitives.cpp (dispatch/primitive.h, ops/primitive_list.h).
#pragma once
#include "loom/backend/indexing.h"
#include "loom/ops/primitive_list.h"

namespace loom {

#define LOOM_INDEXING_PRIMITIVES(X)     \
  X(IndexOffsetsFn, getitem_offsets, )  \
  X(IndexOffsetsFn, setitem_offsets, )  \
  X(IndexOffsetsFn, at_offsets, )       \
  X(GatherFn, getitem, )                \
  X(GatherIndexedFn, getitem_indexed, ) \
  X(ScatterFn, setitem, )               \
  X(ScatterFn, at, )                    \
  X(NonzeroStartsFn, nonzero_count, )   \
  X(NonzeroFn, nonzero, )               \
  X(NonzeroStartsFn, count_nonzero, )

namespace primitives {
LOOM_INDEXING_PRIMITIVES(LOOM_DECLARE_PRIMITIVE)
}  // namespace primitives

}  // namespace loom
