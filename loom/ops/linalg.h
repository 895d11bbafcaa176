// Linear algebra products with NumPy's semantics: matmul dot vdot inner outer tensordot
// einsum, and the float32 matmul precision switch (exact by default, TF32 on request).
// GPU through cuBLAS (NVRTC kernels for integers and bool), CPU through a CBLAS.
// Result dtype: NumPy's promotion of the inputs; integers wrap around; bool products are
// logical or-of-ands; float16/bfloat16 accumulate in float32.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "loom/array/array.h"
#include "loom/core/dtype.h"
#include "loom/ops/reduce.h"

namespace loom {

/// NumPy's matmul: 1-d operands are promoted to a matrix and the added axis removed
/// afterwards; leading (batch) dimensions broadcast. 0-d operands raise std::invalid_argument.
Array matmul(const Array& a, const Array& b);
/// NumPy's dot: 0-d operands multiply, 1-d x 1-d is the inner product, N-d x 1-d sums over
/// the last axis, N-d x M-d sums over a's last and b's second-to-last axis.
Array dot(const Array& a, const Array& b);
/// Dot product of the flattened arrays (same size required); a 0-d array.
Array vdot(const Array& a, const Array& b);
/// Sum over the last axes: shape a.shape[:-1] + b.shape[:-1]; 0-d operands multiply.
Array inner(const Array& a, const Array& b);
/// Outer product of the flattened arrays: shape (a.size, b.size).
Array outer(const Array& a, const Array& b);
/// Sums over a's last `axes` axes and b's first `axes` axes.
Array tensordot(const Array& a, const Array& b, int64_t axes = 2);
/// Sums over axes_a[i] of a paired with axes_b[i] of b.
Array tensordot(const Array& a, const Array& b, const std::vector<int64_t>& axes_a,
                const std::vector<int64_t>& axes_b);
/// NumPy's einsum (optimize=False): "ij,jk->ik", implicit output ("ij,jk"), "..." ellipsis
/// with broadcasting, repeated indices within an operand (diagonals), summed indices.
/// Operands are contracted left to right through batched matmuls.
Array einsum(const std::string& subscripts, const std::vector<Array>& operands);

/// NumPy 2's vecdot (the Array API's): sum(conj(a) * b) over `axis` of each operand (its
/// sizes must agree), the other axes broadcast; the result has the promoted dtype.
Array vecdot(const Array& a, const Array& b, int64_t axis = -1);
/// NumPy 2.2's matvec: the matrices a (..., m, n) times the vectors b (..., n), (..., m);
/// batch axes broadcast.
Array matvec(const Array& a, const Array& b);
/// NumPy 2.2's vecmat: the conjugated vectors a (..., n) times the matrices b (..., n, m),
/// (..., m); batch axes broadcast.
Array vecmat(const Array& a, const Array& b);

/// NumPy's trace: the sums along diagonal(a, offset, axis1, axis2), in sum's dtype rules
/// (or `dtype`).
Array trace(const Array& a, int64_t offset = 0, int64_t axis1 = 0, int64_t axis2 = 1,
            std::optional<DType> dtype = std::nullopt);
/// NumPy's cross: the cross products of the 3-vectors along axisa of a and axisb of b
/// (broadcast over the other axes), placed along axisc. 2-vectors raise, as current NumPy.
Array cross(const Array& a, const Array& b, int64_t axisa = -1, int64_t axisb = -1, int64_t axisc = -1);
/// numpy.linalg.matrix_power (repeated squaring with matmul; n = 0 gives the identity in a's
/// dtype; n < 0 the power of inv(a)) over the last two axes of square matrices.
Array matrix_power(const Array& a, int64_t n);

// numpy.linalg's decompositions (ops/linalg_decomp.cpp) over the last two axes, batched over
// the others. Integer and bool inputs compute in float64, float32 stays float32; 16-bit
// floats raise DTypeError, as in NumPy; complex64/complex128 stay (real-valued results, such
// as eigh's eigenvalues, svd's s and slogdet's log|det|, in the matching real dtype). A matrix that cannot be handled raises LinAlgError
// naming the op and its batch index.
/// x with a @ x == b; b is (..., n, k), or (n,) for one vector; batch axes broadcast.
Array solve(const Array& a, const Array& b);
Array inv(const Array& a);
Array det(const Array& a);
/// (sign, log|det|): sign 0 and -inf for a singular matrix.
std::pair<Array, Array> slogdet(const Array& a);
/// L lower triangular with a = L @ L.T (upper: U = L.T with a = U.T @ U), reading a's lower
/// (upper) triangle.
Array cholesky(const Array& a, bool upper = false);
/// Eigenvalues ascending and eigenvectors (columns) of symmetric matrices, reading the lower
/// ('L') or upper ('U') triangle.
std::pair<Array, Array> eigh(const Array& a, char uplo = 'L');
Array eigvalsh(const Array& a, char uplo = 'L');
/// Eigenvalues (LAPACK's order) and unit-norm right eigenvectors (columns) of general square
/// matrices; complex results for every input dtype (NumPy returns real arrays when all
/// eigenvalues of a real matrix are real).
std::pair<Array, Array> eig(const Array& a);
Array eigvals(const Array& a);
struct SvdResult {
  Array u, s, vh;
};
/// a = u @ diag(s) @ vh over the last two axes (m, n), s descending; full_matrices: u is
/// (m, m) and vh (n, n), else (m, k) and (k, n), k = min(m, n).
SvdResult svd(const Array& a, bool full_matrices = true);
Array svdvals(const Array& a);
/// numpy.linalg.qr: mode "reduced" (q (m, k), r (k, n)), "complete" (q (m, m), r (m, n)),
/// "r" (r only, in .second), "raw" (LAPACK's h (n, m) and tau (k,)).
std::pair<Array, Array> qr(const Array& a, const std::string& mode = "reduced");
/// The pseudo-inverse through the SVD, singular values <= rcond * max(s) dropped
/// (rcond unset: max(m, n) * eps, NumPy 2's rtol default).
Array pinv(const Array& a, std::optional<double> rcond = std::nullopt);
/// The same with NumPy's array rcond (the Array API's rtol): one tolerance per matrix,
/// broadcast against the batch shape.
Array pinv(const Array& a, const Array& rcond);
/// Singular values above tol, or else above rtol * max(s) (rtol unset: max(m, n) * eps); an
/// array of fewer than 2 dimensions: 1 unless all zero.
Array matrix_rank(const Array& a, std::optional<double> tol = std::nullopt, std::optional<double> rtol = std::nullopt);
/// The same with an array rtol (the Array API's): one relative tolerance per matrix,
/// broadcast against the batch shape.
Array matrix_rank(const Array& a, const Array& rtol);
/// numpy.linalg.cond: p None/2/-2 from the singular values, else norm(x, p) * norm(inv(x), p)
/// over the last two axes.
Array cond(const Array& x, const linalg::NormOrd& p = {});
struct LstsqResult {
  Array x, residuals, rank, s;
};
/// numpy.linalg.lstsq through the SVD (as LAPACK's gelsd): x minimising |a x - b|, the
/// squared residual norms (empty unless rank == n < m), the rank and the singular values.
LstsqResult lstsq(const Array& a, const Array& b, std::optional<double> rcond = std::nullopt);

/// "float32"/"highest" (default): float32 products are exact float32 on every device.
/// "tf32"/"high": float32 products on the GPU may use TF32 tensor cores (10-bit mantissa
/// inputs, float32 accumulation). Other values raise std::invalid_argument.
void set_matmul_precision(const std::string& precision);
/// "float32" or "tf32".
std::string get_matmul_precision();

/// The BLAS behind CPU float32/float64 products ("openblas", "blas", or "none" for loom's
/// own blocked loops).
std::string blas_library();

}  // namespace loom
