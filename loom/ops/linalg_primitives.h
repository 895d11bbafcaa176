// The linear algebra (products) family's primitives, one record each, defined with their rules in
// ops/linalg_primitives.cpp (dispatch/primitive.h, ops/primitive_list.h).
#pragma once
#include "loom/backend/linalg.h"
#include "loom/ops/primitive_list.h"

namespace loom {

#define LOOM_LINALG_PRIMITIVES(X)        \
  X(GemmFn, matmul, )                    \
  X(HermitianGemmFn, matmul_hermitian, )

namespace primitives {
LOOM_LINALG_PRIMITIVES(LOOM_DECLARE_PRIMITIVE)
}  // namespace primitives

}  // namespace loom
