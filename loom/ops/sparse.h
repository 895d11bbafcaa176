// Sparse matrices' products (loom::sparse::): a matrix in compressed sparse row form (SciPy's
// csr_matrix: `data`, `indices`, `indptr`) times a dense vector or matrix, on every device
// (cuSPARSE on a GPU). loom.scipy.sparse builds its csr/csc/coo matrices on these; grad
// differentiates in the dense operand and in the stored values.
#pragma once
#include <cstdint>

#include "loom/array/array.h"

namespace loom::sparse {

/// A @ x for the CSR matrix A of shape (rows, cols) given by `data` (its stored values),
/// `indices` (their columns) and `indptr` (row r's values are data[indptr[r]:indptr[r+1]]),
/// or A^T @ x with `transpose` (not conjugated). x: (cols,) or (cols, k), (rows,) or (rows, k)
/// with `transpose`; the result has x's number of dimensions and the promoted dtype of data
/// and x, computed in float32, float64, complex64 or complex128 (integers and bool as
/// float64, float16 as float32). indices and indptr: 1-d, both int32 or both int64, on
/// data's device; indptr has rows + 1 nondecreasing values from 0 to data.size(); columns
/// must lie in [0, cols): cpu() checks these values (std::out_of_range, invalid_argument);
/// a GPU does not read them back and cuSPARSE does not check them (pass arrays
/// loom.scipy.sparse made, or check_format(full_check=True) them first). Errors:
/// std::invalid_argument naming csr_matmul and the argument, DTypeError, DeviceMismatchError.
Array csr_matmul(const Array& data, const Array& indices, const Array& indptr, int64_t rows, int64_t cols,
                 const Array& x, bool transpose = false);

}  // namespace loom::sparse
