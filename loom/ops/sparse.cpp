// loom::sparse::csr_matmul (ops/sparse.h): the argument checks and dtype rules, then one
// record of the csr_matmul primitive over contiguous 2-d operands.
#include "loom/ops/sparse.h"

#include <string>

#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/sparse_primitives.h"
#include "loom/runtime/device.h"

namespace loom::sparse {
namespace {

constexpr const char* kOp = "csr_matmul";

// The computation dtype: the promoted dtype, as float32/float64/complex64/complex128.
DType compute_dtype(DType a, DType b) {
  const DType p = promote_types(a, b);
  if (is_complex(p)) return p;
  if (p == DType::float32 || p == DType::float16 || p == DType::bfloat16) return DType::float32;
  return DType::float64;
}

void check_structure(const Array& data, const Array& indices, const Array& indptr, int64_t rows, int64_t cols) {
  if (rows < 0 || cols < 0) throw_value_error(kOp, "the matrix shape (" + std::to_string(rows) + ", " +
                                                       std::to_string(cols) + ") has a negative extent");
  if (data.ndim() != 1 || indices.ndim() != 1 || indptr.ndim() != 1)
    throw_value_error(kOp, "data, indices and indptr must be 1-d");
  if (indices.dtype() != indptr.dtype() || (indices.dtype() != DType::int32 && indices.dtype() != DType::int64))
    throw_dtype_error(kOp, std::string("indices and indptr must both be int32 or both int64, not ") +
                               dtype_name(indices.dtype()) + " and " + dtype_name(indptr.dtype()));
  if (indices.size() != data.size())
    throw_value_error(kOp, "indices has " + std::to_string(indices.size()) + " values for " +
                               std::to_string(data.size()) + " stored values");
  if (indptr.size() != rows + 1)
    throw_value_error(kOp, "indptr has " + std::to_string(indptr.size()) + " values for " + std::to_string(rows) +
                               " rows (it needs rows + 1)");
  check_same_device(kOp, data.device(), indices.device());
  check_same_device(kOp, data.device(), indptr.device());
}

}  // namespace

Array csr_matmul(const Array& data, const Array& indices, const Array& indptr, int64_t rows, int64_t cols,
                 const Array& x, bool transpose) {
  check_structure(data, indices, indptr, rows, cols);
  check_same_device(kOp, data.device(), x.device());
  if (x.ndim() != 1 && x.ndim() != 2) throw_value_error(kOp, "x must be 1-d or 2-d, not " + std::to_string(x.ndim()) + "-d");
  const int64_t inner = transpose ? rows : cols, outer = transpose ? cols : rows;
  if (x.shape()[0] != inner)
    throw_value_error(kOp, "x has " + std::to_string(x.shape()[0]) + " rows; the matrix" +
                               (transpose ? " transposed" : "") + " has " + std::to_string(inner) + " columns");
  const DType t = compute_dtype(data.dtype(), x.dtype());
  const int64_t k = x.ndim() == 2 ? x.shape()[1] : 1;
  // A copy only where the dtype or the layout needs one.
  const auto as = [t](const Array& a) { return a.dtype() == t ? a.contiguous() : a.astype(t); };
  const Array d = as(data);
  const Array xs = reshape(as(x), {inner, k});
  const Array ind = indices.contiguous(), ptr = indptr.contiguous();
  const Array out = Array::allocate({outer, k}, t, data.device());
  dispatch(primitives::csr_matmul, {d, ind, ptr, xs}, {out}, d, ind, ptr, xs, transpose, out);
  return x.ndim() == 1 ? reshape(out, {outer}) : out;
}

}  // namespace loom::sparse
