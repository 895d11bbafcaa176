// The creation family's primitives, one record each, defined with their rules in
// ops/creation_primitives.cpp (dispatch/primitive.h, ops/primitive_list.h).
#pragma once
#include "loom/backend/creation.h"
#include "loom/ops/primitive_list.h"

namespace loom {

#define LOOM_CREATION_PRIMITIVES(X)\
  X(FillFn, full, )              \
  X(ArangeFn, arange, )          \
  X(LinspaceFn, linspace, )      \
  X(EyeFn, eye, )                \
  X(CopyFromHostFn, from_host, ) \
  X(ConvertFn, astype, )         \
  X(ConvertFn, copy, )           \
  X(ConvertFn, copyto, )         \
  X(ConvertFn, stop_gradient, )  \
  X(ConvertFn, copy_to_host, )

namespace primitives {
LOOM_CREATION_PRIMITIVES(LOOM_DECLARE_PRIMITIVE)
}  // namespace primitives

}  // namespace loom
