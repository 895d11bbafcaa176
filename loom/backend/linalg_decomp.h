// The decompositions family's contract (DESIGN.md §2): numpy.linalg's solve, slogdet,
// cholesky and eigh over stacks of square matrices. ops/linalg_decomp.cpp owns the rules and
// hands the evals contiguous float32/float64 stacks; every eval loops over the leading
// (batch) index and throws LinAlgError naming that index where a matrix cannot be handled.
// CPU: LAPACK (backend/cpu/linalg_decomp.cpp); GPU: cuSOLVER is the next step
// (backend/cuda/linalg_decomp.cpp raises UnsupportedError until then).
#pragma once
#include "loom/array/array.h"
#include "loom/backend/primitive.h"

namespace loom {

/// a (B, n, n), bt (B, k, n): the right-hand sides transposed (each row one system's b);
/// xt (B, k, n) receives the solutions the same way: a[i] @ xt[i].T == bt[i].T.
using SolveFn = void(const Array& a, const Array& bt, const Array& xt);
/// a (B, n, n) -> sign (B,) and log|det| (B,); a singular matrix gives sign 0, -inf.
using SlogdetFn = void(const Array& a, const Array& sign, const Array& logabs);
/// a (B, n, n), its lower triangle read -> l (B, n, n) lower triangular, a = l @ l.T.
using CholeskyFn = void(const Array& a, const Array& l);
/// a (B, n, n), its lower triangle read -> w (B, n) ascending and, for eigh, v (B, n, n)
/// whose columns are the eigenvectors.
using EighFn = void(const Array& a, const Array& w, const Array& v);
using EigvalshFn = void(const Array& a, const Array& w);

namespace cpu_backend {
SolveFn solve;
SlogdetFn slogdet;
CholeskyFn cholesky;
EighFn eigh;
EigvalshFn eigvalsh;
}  // namespace cpu_backend

namespace gpu_backend {
SolveFn solve;
SlogdetFn slogdet;
CholeskyFn cholesky;
EighFn eigh;
EigvalshFn eigvalsh;
}  // namespace gpu_backend

namespace primitives {

inline const Primitive<SolveFn> solve{{"solve", "linalg_decomp"}, cpu_backend::solve, gpu_backend::solve};
inline const Primitive<SlogdetFn> slogdet{{"slogdet", "linalg_decomp"}, cpu_backend::slogdet, gpu_backend::slogdet};
inline const Primitive<CholeskyFn> cholesky{{"cholesky", "linalg_decomp"}, cpu_backend::cholesky,
                                            gpu_backend::cholesky};
inline const Primitive<EighFn> eigh{{"eigh", "linalg_decomp"}, cpu_backend::eigh, gpu_backend::eigh};
inline const Primitive<EigvalshFn> eigvalsh{{"eigvalsh", "linalg_decomp"}, cpu_backend::eigvalsh,
                                            gpu_backend::eigvalsh};

}  // namespace primitives
}  // namespace loom
