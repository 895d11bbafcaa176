// The decompositions (linalg_decomp) family's primitives, one record each, defined with their rules in
// ops/linalg_decomp_primitives.cpp (dispatch/primitive.h, ops/primitive_list.h).
#pragma once
#include "loom/backend/linalg_decomp.h"
#include "loom/ops/linalg_qr.h"
#include "loom/ops/primitive_list.h"

namespace loom {

#define LOOM_LINALG_DECOMP_PRIMITIVES(X)\
  X(SolveFn, solve, )       \
  X(InvFn, inv, )           \
  X(SlogdetFn, slogdet, )   \
  X(CholeskyFn, cholesky, ) \
  X(EighFn, eigh, )         \
  X(EigvalshFn, eigvalsh, ) \
  X(EigFn, eig, )           \
  X(EigvalsFn, eigvals, )   \
  X(SvdFn, svd, )           \
  X(SvdvalsFn, svdvals, )   \
  X(GeqrfFn, geqrf, )       \
  X(OrgqrFn, orgqr, )       \
  X(QrFn, qr_factors, )

namespace primitives {
LOOM_LINALG_DECOMP_PRIMITIVES(LOOM_DECLARE_PRIMITIVE)
}  // namespace primitives

}  // namespace loom
