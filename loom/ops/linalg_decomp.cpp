// Rules of numpy.linalg's decompositions (backend/linalg_decomp.h): square-matrix checks,
// NumPy's dtypes (integers and bool in float64, float32 and complex kept, 16-bit floats
// refused), batch broadcasting for solve, and the contiguous stacks (B, n, n) the evals
// take. det is a composition: sign * exp(log|det|).
#include <string>

#include "loom/ops/linalg_decomp_primitives.h"
#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/linalg_decomp_common.h"
#include "loom/ops/linalg.h"
#include "loom/ops/shape_ops.h"

namespace loom {
namespace linalg_detail {

DType compute_dtype(const char* op, DType t) {
  if (t == DType::float32 || t == DType::float64 || is_complex(t)) return t;
  if (t == DType::float16 || t == DType::bfloat16)
    throw_dtype_error(op, std::string("array type ") + dtype_name(t) + " is unsupported in linalg");
  return DType::float64;  // bool and integers, as NumPy
}

Array conj_transpose(const Array& a) {
  const Array t = swapaxes(a, -1, -2);
  return is_complex(a.dtype()) ? conjugate(t) : t;
}

Array matrix_stack(const char* op, const Array& a, Shape* batch, bool square) {
  if (a.ndim() < 2)
    throw_value_error(op, std::to_string(a.ndim()) + "-dimensional array given; the array must be at least "
                                                     "two-dimensional");
  const int64_t m = a.shape()[a.ndim() - 2], n = a.shape()[a.ndim() - 1];
  if (square && m != n) throw_value_error(op, "last 2 dimensions of the array must be square");
  *batch = Shape(a.shape().begin(), a.shape().end() - 2);
  int64_t count = 1;
  for (int64_t d : *batch) count *= d;
  const DType t = compute_dtype(op, a.dtype());
  return reshape((a.dtype() == t ? a : a.astype(t)).contiguous(), {count, m, n});
}

Shape with(const Shape& batch, std::initializer_list<int64_t> tail) {
  Shape s = batch;
  s.insert(s.end(), tail);
  return s;
}

}  // namespace linalg_detail

namespace {

using linalg_detail::compute_dtype;
using linalg_detail::with;

Array square_stack(const char* op, const Array& a, Shape* batch) {
  return linalg_detail::matrix_stack(op, a, batch, true);
}

}  // namespace

Array solve(const Array& a, const Array& b) {
  const char* op = "solve";
  Shape abatch;
  square_stack(op, a, &abatch);  // the checks; the stack is rebuilt below after broadcasting
  const int64_t n = a.shape()[a.ndim() - 1];
  const bool vector = b.ndim() == 1;
  if (b.ndim() == 0) throw_value_error(op, "b must be at least one-dimensional");
  if (b.shape()[vector ? 0 : b.ndim() - 2] != n)
    throw_value_error(op, "b's " + std::string(vector ? "length" : "rows") + " (" +
                              std::to_string(b.shape()[vector ? 0 : b.ndim() - 2]) + ") must match a's size " +
                              std::to_string(n));
  const Array bm = vector ? reshape(b, {n, 1}) : b;
  const Shape bbatch(bm.shape().begin(), bm.shape().end() - 2);
  const Shape batch = broadcast_shapes(abatch, bbatch, op);
  const int64_t k = bm.shape()[bm.ndim() - 1];
  const DType t = promote_types(compute_dtype(op, a.dtype()), compute_dtype(op, b.dtype()));
  int64_t count = 1;
  for (int64_t d : batch) count *= d;
  const Array as = reshape(broadcast_to(a.astype(t), with(batch, {n, n})).contiguous(), {count, n, n});
  const Array bt = reshape(swapaxes(broadcast_to(bm.astype(t), with(batch, {n, k})), -1, -2).contiguous(),
                           {count, k, n});
  const Array xt = empty({count, k, n}, t, as.device());
  if (count * n * k > 0) dispatch(primitives::solve, {as, bt}, {xt}, as, bt, xt);
  const Array x = swapaxes(reshape(xt, with(batch, {k, n})), -1, -2);
  return vector ? reshape(x.contiguous(), batch.empty() ? Shape{n} : with(batch, {n})) : x.contiguous();
}

Array inv(const Array& a) {
  Shape batch;
  const Array s = square_stack("inv", a, &batch);
  const Array out = empty(s.shape(), s.dtype(), s.device());
  if (s.size() > 0) dispatch(primitives::inv, {s}, {out}, s, out);
  return reshape(out, a.shape());
}

std::pair<Array, Array> slogdet(const Array& a) {
  Shape batch;
  const Array s = square_stack("slogdet", a, &batch);
  const Array sign = empty({s.shape()[0]}, s.dtype(), s.device());
  const Array logabs = empty({s.shape()[0]}, real_dtype(s.dtype()), s.device());  // real for complex a
  if (s.shape()[0] > 0) dispatch(primitives::slogdet, {s}, {sign, logabs}, s, sign, logabs);
  return {reshape(sign, batch), reshape(logabs, batch)};
}

Array det(const Array& a) {
  auto [sign, logabs] = slogdet(a);
  return multiply(sign, exp(logabs));
}

Array cholesky(const Array& a, bool upper) {
  Shape batch;
  // The upper triangle of a is the lower one of a.T: factor that, and transpose back.
  const Array s = square_stack("cholesky", upper ? swapaxes(a, -1, -2) : a, &batch);
  const Array l = empty(s.shape(), s.dtype(), s.device());
  if (s.size() > 0) dispatch(primitives::cholesky, {s}, {l}, s, l);
  const Array out = reshape(l, a.shape());
  return upper ? swapaxes(out, -1, -2).contiguous() : out;
}

namespace {
Array eigen_input(const char* op, const Array& a, char uplo, Shape* batch) {
  if (uplo != 'L' && uplo != 'U') throw_value_error(op, "UPLO argument must be 'L' or 'U'");
  // Reading the upper triangle of a is reading the lower one of a^H (a.T for real a).
  return square_stack(op, uplo == 'U' ? linalg_detail::conj_transpose(a) : a, batch);
}
}  // namespace

std::pair<Array, Array> eigh(const Array& a, char uplo) {
  Shape batch;
  const Array s = eigen_input("eigh", a, uplo, &batch);
  const int64_t n = s.shape()[1];
  const Array w = empty({s.shape()[0], n}, real_dtype(s.dtype()), s.device());
  const Array v = empty(s.shape(), s.dtype(), s.device());
  if (s.size() > 0) dispatch(primitives::eigh, {s}, {w, v}, s, w, v);
  return {reshape(w, with(batch, {n})), reshape(v, a.shape())};
}

Array eigvalsh(const Array& a, char uplo) {
  Shape batch;
  const Array s = eigen_input("eigvalsh", a, uplo, &batch);
  const int64_t n = s.shape()[1];
  const Array w = empty({s.shape()[0], n}, real_dtype(s.dtype()), s.device());
  if (s.size() > 0) dispatch(primitives::eigvalsh, {s}, {w}, s, w);
  return reshape(w, with(batch, {n}));
}

namespace {
// eig's results are complex for every input (as in PyTorch, JAX and CuPy; NumPy returns real
// arrays when every eigenvalue of a real matrix happens to be real, which would make the
// dtype depend on the values and a GPU wait for them).
DType eig_dtype(DType t) { return promote_types(t, DType::complex64); }
}  // namespace

std::pair<Array, Array> eig(const Array& a) {
  Shape batch;
  const Array s = square_stack("eig", a, &batch);
  const int64_t n = s.shape()[1];
  const Array w = empty({s.shape()[0], n}, eig_dtype(s.dtype()), s.device());
  const Array v = empty(s.shape(), eig_dtype(s.dtype()), s.device());
  if (s.size() > 0) dispatch(primitives::eig, {s}, {w, v}, s, w, v);
  return {reshape(w, with(batch, {n})), reshape(v, a.shape())};
}

Array eigvals(const Array& a) {
  Shape batch;
  const Array s = square_stack("eigvals", a, &batch);
  const int64_t n = s.shape()[1];
  const Array w = empty({s.shape()[0], n}, eig_dtype(s.dtype()), s.device());
  if (s.size() > 0) dispatch(primitives::eigvals, {s}, {w}, s, w);
  return reshape(w, with(batch, {n}));
}

}  // namespace loom
