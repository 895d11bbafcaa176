// numpy.linalg's SVD (backend/linalg_decomp.h's svd, svdvals; QR is in linalg_qr.cpp) and the
// functions NumPy builds on the SVD: pinv, matrix_rank, lstsq (as LAPACK's gelsd does).
#include <cmath>
#include <limits>
#include <string>

#include "loom/ops/linalg_decomp_primitives.h"
#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/indexing.h"
#include "loom/ops/linalg.h"
#include "loom/ops/linalg_decomp_common.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/triangles.h"

namespace loom {
namespace {

using linalg_detail::matrix_stack;
using linalg_detail::with;

double eps(DType t) {
  return real_dtype(t) == DType::float32 ? std::numeric_limits<float>::epsilon()
                                         : std::numeric_limits<double>::epsilon();
}

Array mH(const Array& a) { return linalg_detail::conj_transpose(a); }

}  // namespace

SvdResult svd(const Array& a, bool full_matrices) {
  Shape batch;
  const Array x = matrix_stack("svd", a, &batch, false);
  const int64_t B = x.shape()[0], m = x.shape()[1], n = x.shape()[2], k = std::min(m, n);
  const int64_t uc = full_matrices ? m : k, vr = full_matrices ? n : k;
  Array u = empty({B, m, uc}, x.dtype(), x.device()), s = empty({B, k}, real_dtype(x.dtype()), x.device()),
        vh = empty({B, vr, n}, x.dtype(), x.device());
  if (k > 0 && B > 0) {
    dispatch(primitives::svd, {x}, {u, s, vh}, x, u, s, vh);
  } else if (B > 0) {  // no singular values: the full factors are identities
    u = broadcast_to(eye(m, uc, 0, x.dtype(), x.device()), {B, m, uc}).copy();
    vh = broadcast_to(eye(vr, n, 0, x.dtype(), x.device()), {B, vr, n}).copy();
  }
  return {reshape(u, with(batch, {m, uc})), reshape(s, with(batch, {k})), reshape(vh, with(batch, {vr, n}))};
}

Array svdvals(const Array& a) {
  Shape batch;
  const Array x = matrix_stack("svdvals", a, &batch, false);
  const int64_t k = std::min(x.shape()[1], x.shape()[2]);
  const Array s = empty({x.shape()[0], k}, real_dtype(x.dtype()), x.device());
  if (s.size() > 0) dispatch(primitives::svdvals, {x}, {s}, x, s);
  return reshape(s, with(batch, {k}));
}

namespace {

// pinv with the relative tolerance `rcond` (a number, or an array over the batch).
Array pinv_impl(const Array& a, const std::optional<double>& rcond, const std::optional<Array>& rcond_array) {
  Shape batch;
  const Array x = matrix_stack("pinv", a, &batch, false);
  const int64_t m = x.shape()[1], n = x.shape()[2];
  if (std::min(m, n) == 0) return zeros(with(batch, {n, m}), x.dtype(), x.device());
  const auto [u, s, vh] = svd(reshape(x, a.shape()), false);
  const Array smax = max(s, std::vector<int64_t>{-1}, true);
  // NumPy: cutoff = rcond[..., newaxis] * amax(s, axis=-1, keepdims=True).
  const Array cutoff = rcond_array ? multiply(smax, expand_dims(*rcond_array, {-1}))
                                   : multiply(smax, rcond.value_or(static_cast<double>(std::max(m, n)) * eps(x.dtype())));
  const Array keep = greater(s, cutoff);
  const Array s_inv = where(keep, true_divide(1.0, where(keep, s, 1.0)), 0.0);
  return matmul(mH(vh), multiply(expand_dims(s_inv, {-1}), mH(u)));
}

}  // namespace

Array pinv(const Array& a, std::optional<double> rcond) { return pinv_impl(a, rcond, std::nullopt); }

Array pinv(const Array& a, const Array& rcond) {
  check_same_device("pinv", a.device(), rcond.device());
  return pinv_impl(a, std::nullopt, rcond);
}

Array matrix_rank(const Array& a, const Array& rtol) {
  check_same_device("matrix_rank", a.device(), rtol.device());
  if (a.ndim() < 2) return matrix_rank(a);
  Shape batch;
  const Array x = matrix_stack("matrix_rank", a, &batch, false);
  const Array s = svdvals(reshape(x, a.shape()));
  if (std::min(x.shape()[1], x.shape()[2]) == 0) return zeros(batch, int64, x.device());
  const Array t = multiply(max(s, std::vector<int64_t>{-1}, true), expand_dims(rtol, {-1}));
  return sum(greater(s, t), std::vector<int64_t>{-1}).astype(int64);
}

Array matrix_rank(const Array& a, std::optional<double> tol, std::optional<double> rtol) {
  if (a.ndim() < 2) return any(not_equal(a, 0)).astype(int64);
  Shape batch;
  const Array x = matrix_stack("matrix_rank", a, &batch, false);
  const int64_t m = x.shape()[1], n = x.shape()[2];
  const Array s = svdvals(reshape(x, a.shape()));
  if (std::min(m, n) == 0) return zeros(batch, int64, x.device());
  const double rel = rtol.value_or(static_cast<double>(std::max(m, n)) * eps(s.dtype()));
  const Array t = tol ? full({}, *tol, s.dtype(), s.device()) : multiply(max(s, std::vector<int64_t>{-1}, true), rel);
  return sum(greater(s, t), std::vector<int64_t>{-1}).astype(int64);
}

namespace {

// inv as NumPy's cond calls it, errors ignored: a singular matrix's inverse is all NaN. The
// batch is inverted whole first; only when one of it is singular, matrix by matrix.
Array inverse_or_nan(const Array& x, const Shape& batch) {
  try {
    return inv(x);
  } catch (const LinAlgError&) {
    const int64_t n = x.shape().back();
    const Array stackd = reshape(x, {shape_size(batch), n, n});
    std::vector<Array> parts;
    for (int64_t b = 0; b < stackd.shape()[0]; ++b) {
      const Array m = getitem(stackd, {Index(b)});
      try {
        parts.push_back(inv(m));
      } catch (const LinAlgError&) {
        parts.push_back(full({n, n}, std::numeric_limits<double>::quiet_NaN(), m.dtype(), m.device()));
      }
    }
    return reshape(stack(parts, 0), x.shape());
  }
}

}  // namespace

Array cond(const Array& x, const linalg::NormOrd& p) {
  using Kind = linalg::NormOrd::Kind;
  const bool by_svd = p.kind == Kind::none || (p.kind == Kind::number && std::abs(p.p) == 2);
  const std::vector<int64_t> axes{-2, -1};
  if (x.ndim() >= 2 && (x.shape()[x.ndim() - 1] == 0 || x.shape()[x.ndim() - 2] == 0))
    throw LinAlgError("[linalg.cond] cond is not defined on empty arrays");  // NumPy's check, before any other
  Array r;
  if (by_svd) {
    const Array s = svdvals(x);
    const Array first = getitem(s, {Index(ellipsis), Index(int64_t{0})});
    const Array last = getitem(s, {Index(ellipsis), Index(int64_t{-1})});
    r = p.kind == Kind::number && p.p < 0 ? true_divide(last, first) : true_divide(first, last);
  } else {
    Shape batch;
    matrix_stack("cond", x, &batch, true);  // the checks: inv needs square matrices
    r = multiply(linalg::norm(x, p, axes), linalg::norm(inverse_or_nan(x, batch), p, axes));
  }
  // NumPy: a NaN (a singular matrix: 0 / 0, or its NaN inverse) is inf unless x holds a NaN.
  const Array singular = logical_and(isnan(r), logical_not(any(isnan(x), axes)));
  return where(singular, full({}, std::numeric_limits<double>::infinity(), r.dtype(), r.device()), r);
}

LstsqResult lstsq(const Array& a, const Array& b, std::optional<double> rcond) {
  const char* op = "lstsq";
  if (a.ndim() != 2) throw_value_error(op, std::to_string(a.ndim()) + "-dimensional array given; a must be 2-dimensional");
  if (b.ndim() != 1 && b.ndim() != 2) throw_value_error(op, "b must be 1- or 2-dimensional");
  const int64_t m = a.shape()[0], n = a.shape()[1];
  if (b.shape()[0] != m) throw_value_error(op, "Incompatible dimensions: a has " + std::to_string(m) + " rows, b " +
                                                   std::to_string(b.shape()[0]));
  const DType t = promote_types(linalg_detail::compute_dtype(op, a.dtype()), linalg_detail::compute_dtype(op, b.dtype()));
  const Array A = a.astype(t), b2 = b.ndim() == 1 ? expand_dims(b.astype(t), {1}) : b.astype(t);
  const int64_t k = std::min(m, n), nrhs = b2.shape()[1];
  const auto [u, s, vh] = svd(A, false);
  const double cut = rcond.value_or(static_cast<double>(std::max(m, n)) * eps(t));
  Array rank = zeros({}, int64, A.device()), x = zeros({n, nrhs}, t, A.device());
  if (k > 0) {
    const Array keep = greater(s, multiply(max(s), cut));
    rank = sum(keep).astype(int64);
    const Array s_inv = where(keep, true_divide(1.0, where(keep, s, 1.0)), 0.0);
    x = matmul(mH(vh), multiply(expand_dims(s_inv, {-1}), matmul(mH(u), b2)));
  }
  // NumPy: the residuals only when a has full column rank and more rows than columns.
  Array residuals = empty({0}, real_dtype(t), A.device());
  int64_t full_rank = 0;
  if (k > 0) rank.copy_to_host(&full_rank);  // the residuals' shape depends on it, as in NumPy
  if (m > n && full_rank == n) {
    const Array diff = subtract(matmul(A, x), b2);
    const Array sq = is_complex(t) ? square(absolute(diff)) : multiply(diff, diff);
    residuals = sum(sq, std::vector<int64_t>{0});
  }
  if (b.ndim() == 1) x = reshape(x, {n});
  return {x, residuals, rank, s};
}

}  // namespace loom
