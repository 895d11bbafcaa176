// The sparse family's contract: a matrix in compressed sparse row form (CSR: `data`,
// `indices`, `indptr`, as SciPy's) times a dense matrix. The eval's signature is written once
// here with the list that ops/sparse.cpp dispatches (DESIGN.md §2). CPU eval:
// backend/cpu/sparse.cpp (rows over the thread pool); GPU eval: backend/cuda/sparse.cpp
// (cuSPARSE's SpMV and SpMM), on the current stream of the arrays' device; stubs:
// backend/no_cuda/evals.cpp.
#pragma once
#include "loom/array/array.h"
#include "loom/backend/eval_list.h"

namespace loom {

/// out = A @ x, or A^T @ x with `transpose`, for the CSR matrix A with out.shape()[0] rows
/// (A @ x) or x.shape()[0] rows (A^T @ x) given by contiguous 1-d `data` (float32, float64,
/// complex64 or complex128), `indices` (column of each stored value) and `indptr` (row
/// starts, rows + 1 values), both int32 or both int64, columns sorted or not, no value
/// outside [0, cols). x: contiguous 2-d, data's dtype; out: contiguous 2-d, data's dtype,
/// overwritten (rows or cols, x.shape()[1]). A^T is not conjugated.
using CsrMatmulFn = void(const Array& data, const Array& indices, const Array& indptr, const Array& x, bool transpose,
                         const Array& out);

#define LOOM_SPARSE_EVALS(X) X(CsrMatmulFn, csr_matmul, 6)
LOOM_DECLARE_EVALS(LOOM_SPARSE_EVALS)

}  // namespace loom
