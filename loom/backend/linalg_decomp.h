// The decompositions family's contract (DESIGN.md §2): numpy.linalg's solve, inv, slogdet,
// cholesky, eigh, eig, svd and qr over stacks of matrices. ops/linalg_decomp.cpp owns the
// rules and hands the evals contiguous float32/float64/complex64/complex128 stacks (the
// real-valued results, eigh's w, svd's s and slogdet's log|det|, in the real dtype); every eval loops over the leading
// (batch) index and throws LinAlgError naming that index where a matrix cannot be handled.
// CPU: LAPACK (backend/cpu/linalg_decomp.cpp, linalg_svd_qr.cpp); GPU: cuSOLVER and
// cuBLAS's batched LU (backend/cuda/linalg_decomp.cpp, linalg_svd_qr.cpp).
#pragma once
#include <cstdint>
#include <string>

#include "loom/array/array.h"
#include "loom/backend/eval_list.h"
#include "loom/core/error.h"

namespace loom {

/// The LinAlgError of every device: "[linalg.<op>] <what> (batch index <b>)", the index
/// only for a stack of more than one matrix.
[[noreturn]] inline void raise_linalg_error(const char* op, const std::string& what, int64_t batch, int64_t batches) {
  throw LinAlgError("[linalg." + std::string(op) + "] " + what +
                    (batches > 1 ? " (batch index " + std::to_string(batch) + ")" : ""));
}

/// a (B, n, n), bt (B, k, n): the right-hand sides transposed (each row one system's b);
/// xt (B, k, n) receives the solutions the same way: a[i] @ xt[i].T == bt[i].T.
using SolveFn = void(const Array& a, const Array& bt, const Array& xt);
/// a (B, n, n) -> out (B, n, n): the inverses (one LU each, no right-hand sides to build).
using InvFn = void(const Array& a, const Array& out);
/// a (B, n, n) -> sign (B,) and log|det| (B,); a singular matrix gives sign 0, -inf.
using SlogdetFn = void(const Array& a, const Array& sign, const Array& logabs);
/// a (B, n, n), its lower triangle read -> l (B, n, n) lower triangular, a = l @ l.T.
using CholeskyFn = void(const Array& a, const Array& l);
/// a (B, n, n), its lower triangle read -> w (B, n) ascending and, for eigh, v (B, n, n)
/// whose columns are the eigenvectors.
using EighFn = void(const Array& a, const Array& w, const Array& v);
using EigvalshFn = void(const Array& a, const Array& w);
/// a (B, n, n) of any of the four dtypes -> w (B, n) complex (LAPACK's order) and, for eig,
/// v (B, n, n) complex whose columns are the unit-norm right eigenvectors.
using EigFn = void(const Array& a, const Array& w, const Array& v);
using EigvalsFn = void(const Array& a, const Array& w);
/// a (B, m, n) -> s (B, k) descending, k = min(m, n), u (B, m, k or m) and vh (B, k or n, n):
/// the reduced or full factors, as u's last axis says; a = u @ diag(s) @ vh.
using SvdFn = void(const Array& a, const Array& u, const Array& s, const Array& vh);
using SvdvalsFn = void(const Array& a, const Array& s);
/// Householder QR in LAPACK's layout: at (B, n, m) is a.T (a column-major); h (B, n, m)
/// receives geqrf's reflectors and R the same way, tau (B, k) their scales.
using GeqrfFn = void(const Array& at, const Array& h, const Array& tau);
/// q (B, c, m): Q's first c columns, column-major, from the reflectors h (B, c, m) (the
/// first k columns are the reflectors; c may exceed n when the caller padded h) and tau.
using OrgqrFn = void(const Array& h, const Array& tau, const Array& q);

// Its evals, declared in cpu_backend and gpu_backend (backend/eval_list.h); without CUDA
// backend/no_cuda/evals.cpp defines the GPU ones as stubs from this list.
#define LOOM_LINALG_DECOMP_EVALS(X) \
  X(SolveFn, solve, 3)              \
  X(InvFn, inv, 2)                  \
  X(SlogdetFn, slogdet, 3)          \
  X(CholeskyFn, cholesky, 2)        \
  X(EighFn, eigh, 3)                \
  X(EigvalshFn, eigvalsh, 2)        \
  X(EigFn, eig, 3)                  \
  X(EigvalsFn, eigvals, 2)          \
  X(SvdFn, svd, 4)                  \
  X(SvdvalsFn, svdvals, 2)          \
  X(GeqrfFn, geqrf, 3)              \
  X(OrgqrFn, orgqr, 3)
LOOM_DECLARE_EVALS(LOOM_LINALG_DECOMP_EVALS)

}  // namespace loom
