// Stacks of small matrices on GPUs: cuSOLVER's batched Cholesky (potrfBatched) and Jacobi
// eigensolver (syevjBatched / heevjBatched) factor all of them in one call, where a call per
// matrix would cost a launch sequence each (linalg_decomp.cpp picks them).
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

}  // namespace loom::cuda
