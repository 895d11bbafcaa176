// The sparse family's primitive, one record, defined with its rules in
// ops/sparse_primitives.cpp (dispatch/primitive.h, ops/primitive_list.h).
#pragma once
#include "loom/backend/sparse.h"
#include "loom/ops/primitive_list.h"

namespace loom {

#define LOOM_SPARSE_PRIMITIVES(X) X(CsrMatmulFn, csr_matmul, )

namespace primitives {
LOOM_SPARSE_PRIMITIVES(LOOM_DECLARE_PRIMITIVE)
}  // namespace primitives

}  // namespace loom
