// The reduction family's primitives, one record each, defined with their rules in
// ops/reduce_primitives.cpp (dispatch/primitive.h, ops/primitive_list.h).
#pragma once
#include "loom/backend/reduce.h"
#include "loom/ops/primitive_list.h"

namespace loom {

#define LOOM_REDUCE_PRIMITIVES(X)        \
  X(ReduceFn, reduce, [kNumReduceKinds]) \
  X(ReduceFn, reduce_std, )              \
  X(FusedReduceFn, fused_reduce, )       \
  X(ScanFn, scan, [2])

namespace primitives {
LOOM_REDUCE_PRIMITIVES(LOOM_DECLARE_PRIMITIVE)

/// The record of `kind` run with `params`.
inline const Primitive<ReduceFn>& reduce_of(ReduceKind kind, const ReduceParams& params) {
  return kind == ReduceKind::var && params.take_sqrt ? reduce_std : reduce[static_cast<int>(kind)];
}
}  // namespace primitives

}  // namespace loom
