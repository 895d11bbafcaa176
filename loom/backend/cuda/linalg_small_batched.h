// Stacks of small matrices on GPUs: cuSOLVER's batched Cholesky (potrfBatched), Jacobi
// eigensolver (syevjBatched / heevjBatched) and Jacobi SVD (gesvdjBatched) factor all of them
// in one call, where a call per matrix would cost a launch sequence each (linalg_decomp.cpp
// and linalg_svd_qr.cpp pick them).
#pragma once
#include <cusolverDn.h>

#include <cstdint>

#include "loom/backend/cuda/linalg_solver.h"

namespace loom::cuda {

/// Whether a stack goes through the batched routines: more than one matrix, each at most
/// 32 x 32 (syevjBatched's limit; cuBLAS's batched LU uses the same cut).
inline bool small_batched(int64_t batches, int64_t n) { return batches > 1 && n <= 32; }

/// Cholesky of each column-major n x n matrix of the contiguous stack m, lower triangle;
/// info (device, one int per matrix) as potrf's.
void potrf_batched(const SolverCall& c, DType dt, void* m, int64_t batches, int n, int* info);

/// Eigenvalues (ascending, into w: batches x n of the real dtype) and, for jobz VECTOR, the
/// eigenvectors in place of each column-major matrix of m, reading its `fill` triangle.
void syevj_batched(const SolverCall& c, DType dt, cusolverEigMode_t jobz, cublasFillMode_t fill, void* m, void* w,
                   int64_t batches, int n, int* info);

/// SVD M = U S V^H of each column-major rows x cols matrix of the contiguous stack m (both
/// at most 32; m is overwritten): s (batches x min(rows, cols), descending), and for jobz
/// VECTOR the full U (rows x rows) and V (cols x cols, V itself, not V^H), column-major and
/// packed. info per matrix as gesvdj's: > 0 when the sweeps did not converge.
void gesvdj_batched(const SolverCall& c, DType dt, cusolverEigMode_t jobz, void* m, void* s, void* u, void* v,
                    int64_t batches, int rows, int cols, int* info);

}  // namespace loom::cuda
