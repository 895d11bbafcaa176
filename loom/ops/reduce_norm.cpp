// linalg::norm, following numpy.linalg.norm case by case (vector norms over one axis,
// matrix norms over two) on the reduction kinds of the backends, and the Array API's
// vector_norm (over any axes) and matrix_norm (over the last two).
#include <cmath>
#include <cstdio>

#include "loom/core/error.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/linalg.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/reduce_common.h"

namespace loom::linalg {
namespace {

using Kind = NormOrd::Kind;
using reduce_impl::reduce_masked;
using reduce_impl::reshaped;

bool is_num(const NormOrd& o, double v) { return o.kind == Kind::number && o.p == v; }

std::vector<bool> mask_of(int ndim, std::initializer_list<int> axes) {
  std::vector<bool> m(ndim, false);
  for (int d : axes) m[d] = true;
  return m;
}

std::string ord_str(const NormOrd& o) {
  if (o.kind == Kind::fro) return "fro";
  if (o.kind == Kind::nuc) return "nuc";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", o.p);
  return buf;
}

// The vector norm over the axes of mask `m` (one axis for numpy.linalg.norm, any for the
// Array API's vector_norm).
Array vector_norm_over(const Array& x, const std::vector<bool>& m, const NormOrd& ord, bool keepdims) {
  if (ord.kind == Kind::none || is_num(ord, 2)) return reduce_masked("norm", x, m, keepdims, ReduceKind::norm_l2);
  if (ord.kind != Kind::number) throw_value_error("norm", "Invalid norm order '" + ord_str(ord) + "' for vectors");
  if (ord.p == INFINITY) return reduce_masked("norm", x, m, keepdims, ReduceKind::norm_max_abs);
  if (ord.p == -INFINITY) return reduce_masked("norm", x, m, keepdims, ReduceKind::norm_min_abs);
  if (ord.p == 0) return reduce_masked("norm", x, m, keepdims, ReduceKind::norm_l0);
  if (ord.p == 1) return reduce_masked("norm", x, m, keepdims, ReduceKind::norm_l1);
  ReduceParams params;
  params.p = ord.p;
  return reduce_masked("norm", x, m, keepdims, ReduceKind::norm_p, params);
}

Array matrix_norm_over(const Array& x, int row, int col, const NormOrd& ord, bool keepdims) {
  const int nd = x.ndim();
  Array r;
  if (ord.kind == Kind::nuc || is_num(ord, 2) || is_num(ord, -2)) {
    // Through the singular values of each matrix (numpy.linalg.norm does the same).
    const Array sv = svdvals(moveaxis(x, {row, col}, {-2, -1}));
    const std::vector<int64_t> last{-1};
    r = ord.kind == Kind::nuc ? sum(sv, last) : is_num(ord, 2) ? max(sv, last) : min(sv, last);
  } else if (ord.kind == Kind::none || ord.kind == Kind::fro) {
    r = reduce_masked("norm", x, mask_of(nd, {row, col}), false, ReduceKind::norm_l2);
  } else if (is_num(ord, 1) || is_num(ord, -1) || is_num(ord, INFINITY) || is_num(ord, -INFINITY)) {
    // 1/-1: column sums of |x| (over rows), then their max/min; inf/-inf: row sums.
    const bool by_rows = std::abs(ord.p) == 1;
    const int first = by_rows ? row : col;
    int second = by_rows ? col : row;
    const Array s = reduce_masked("norm", x, mask_of(nd, {first}), false, ReduceKind::norm_l1);
    if (second > first) --second;
    // max with NumPy's initial=0 (sums are >= 0, so max |s| is max s); min has no identity.
    r = reduce_masked("norm", s, mask_of(nd - 1, {second}), false,
                      ord.p > 0 ? ReduceKind::norm_max_abs : ReduceKind::min);
  } else {
    throw_value_error("norm", "Invalid norm order for matrices.");
  }
  if (!keepdims) return r;
  Shape shape = x.shape();
  shape[row] = shape[col] = 1;
  return reshaped(r, shape);
}

// NumPy: `if not issubclass(x.dtype.type, inexact): x = x.astype(float)`; ml_dtypes'
// bfloat16 is not inexact to NumPy either. A complex array's norms are those of its moduli
// (NumPy takes abs first), but for the spectral and nuclear norms (norm() keeps the complex
// matrices for those: their singular values).
Array norm_input(const Array& a) {
  if (is_complex(a.dtype())) return absolute(a);
  return is_floating(a.dtype()) && a.dtype() != bfloat16 ? a : a.astype(float64);
}

}  // namespace

Array vector_norm(const Array& a, const AxisArg& axis, bool keepdims, const NormOrd& ord) {
  const Array x = norm_input(a);
  std::vector<bool> m(x.ndim(), !axis);
  if (axis) {
    for (int64_t ax : *axis) {
      const int d = normalize_axis(ax, x.ndim(), "vector_norm");
      if (m[d]) throw_value_error("vector_norm", "duplicate value in 'axis'");
      m[d] = true;
    }
  }
  return vector_norm_over(x, m, ord, keepdims);
}

Array matrix_norm(const Array& a, bool keepdims, const NormOrd& ord) {
  if (a.ndim() < 2) throw_value_error("matrix_norm", "x must have at least two dimensions (a stack of matrices)");
  return norm(a, ord, std::vector<int64_t>{-2, -1}, keepdims);
}

Array norm(const Array& a, const NormOrd& ord, const AxisArg& axis, bool keepdims) {
  const int nd = a.ndim();
  const bool matrix = axis ? axis->size() == 2 : nd == 2;
  const bool spectral = matrix && (ord.kind == Kind::nuc || (ord.kind == Kind::number && std::fabs(ord.p) == 2));
  const Array x = is_complex(a.dtype()) && spectral ? a : norm_input(a);
  if (!axis) {
    if (ord.kind == Kind::none || (ord.kind == Kind::fro && nd == 2) || (is_num(ord, 2) && nd == 1)) {
      Array r = reduce_masked("norm", x, std::vector<bool>(nd, true), false, ReduceKind::norm_l2);
      return keepdims ? reshaped(r, Shape(nd, 1)) : r;
    }
  }
  std::vector<int64_t> axes;
  if (axis) axes = *axis;
  else
    for (int d = 0; d < nd; ++d) axes.push_back(d);
  if (axes.size() == 1) return vector_norm_over(x, mask_of(nd, {normalize_axis(axes[0], nd, "norm")}), ord, keepdims);
  if (axes.size() == 2) {
    const int row = normalize_axis(axes[0], nd, "norm"), col = normalize_axis(axes[1], nd, "norm");
    if (row == col) throw_value_error("norm", "Duplicate axes given.");
    return matrix_norm_over(x, row, col, ord, keepdims);
  }
  throw_value_error("norm", "Improper number of dimensions to norm.");
}

}  // namespace loom::linalg
