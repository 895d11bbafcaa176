// The sorting family's primitives, one record each, defined with their rules in
// ops/sorting_primitives.cpp (dispatch/primitive.h, ops/primitive_list.h).
#pragma once
#include "loom/backend/sorting.h"
#include "loom/ops/primitive_list.h"

namespace loom {

#define LOOM_SORTING_PRIMITIVES(X)        \
  X(SortLastAxisFn, sort, )               \
  X(SortLastAxisFn, argsort, )            \
  X(UniqueFn, unique, )                   \
  X(CheckSorterFn, searchsorted_sorter, ) \
  X(SearchsortedFn, searchsorted, )       \
  X(SelectRanksFn, select_ranks, )

namespace primitives {
LOOM_SORTING_PRIMITIVES(LOOM_DECLARE_PRIMITIVE)
}  // namespace primitives

}  // namespace loom
