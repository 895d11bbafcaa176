// matmul dot vdot inner outer tensordot: NumPy's shape rules, all computed by the one
// batched GEMM driver (linalg_gemm.cpp). 0-d "products" are 1x1 GEMMs, so every dtype
// rule (wraparound, bool or-of-ands, float16 through float32) holds there too.
#include "loom/ops/linalg.h"

#include <algorithm>
#include <string>

#include "loom/core/error.h"
#include "loom/core/shape.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/linalg_internal.h"

namespace loom {
namespace {

using linalg_detail::permute;
using linalg_detail::reshape;

void check_operands(const char* op, const Array& a, const Array& b) {
  if (!a.valid() || !b.valid()) throw_value_error(op, "operand is an empty (default-constructed) array");
  check_same_device(op, a.device(), b.device());
}

Shape concat(Shape a, const Shape& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

Shape slice(const Shape& s, size_t begin, size_t end) { return Shape(s.begin() + begin, s.begin() + end); }

Array ravel(const Array& x) { return reshape(x, {x.size()}); }

// The elementwise product of a 0-d operand with any array (dot/inner with a scalar).
Array scalar_product(const Array& a, const Array& b) {
  const Array& s = a.ndim() == 0 ? a : b;
  const Array& x = a.ndim() == 0 ? b : a;
  const Array col = reshape(x, {x.size(), 1});
  const Array one = s.view({1, 1}, {0, 0}, s.offset());
  return reshape(matmul(col, one), x.shape());
}

std::string dims_str(const Shape& s) {  // NumPy's "(2,3)" of dot's message
  std::string r = "(";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? "," : "") + std::to_string(s[i]);
  return r + (s.size() == 1 ? ",)" : ")");
}

[[noreturn]] void not_aligned(const char* op, const Array& a, const Array& b, int da, int db) {
  throw_value_error(op, "shapes " + dims_str(a.shape()) + " and " + dims_str(b.shape()) +
                            " not aligned: " + std::to_string(a.shape()[da]) + " (dim " +
                            std::to_string(da) + ") != " + std::to_string(b.shape()[db]) + " (dim " +
                            std::to_string(db) + ")");
}

}  // namespace

Array matmul(const Array& a, const Array& b) {
  check_operands("matmul", a, b);
  for (int i = 0; i < 2; ++i)
    if ((i ? b : a).ndim() == 0)
      throw_value_error("matmul", "operand " + std::to_string(i) + " is 0-d (shapes " + shape_str(a.shape()) +
                                      " and " + shape_str(b.shape()) +
                                      "); matmul needs at least 1 dimension: multiply (a * b) scales by a scalar");
  const DType dt = promote_types(a.dtype(), b.dtype());
  const Device dev = a.device();
  // 1-d operands become a row (left) or a column (right) matrix.
  Array x = a.ndim() == 1 ? a.view({1, a.shape()[0]}, {0, a.strides()[0]}, a.offset()) : a;
  Array y = b.ndim() == 1 ? b.view({b.shape()[0], 1}, {b.strides()[0], 0}, b.offset()) : b;
  const int xn = x.ndim(), yn = y.ndim();
  const int64_t m = x.shape()[xn - 2], k = x.shape()[xn - 1], n = y.shape()[yn - 1];
  // The shapes as the user wrote them (not the 1-d operands' matrix views), and the axes.
  if (y.shape()[yn - 2] != k)
    throw_value_error("matmul", "shapes " + shape_str(a.shape()) + " and " + shape_str(b.shape()) +
                                    " do not match: the first's last axis (axis " + std::to_string(a.ndim() - 1) +
                                    ", size " + std::to_string(k) + ") != the second's " +
                                    (b.ndim() == 1 ? "only axis (axis 0" : "second-to-last axis (axis " +
                                                                               std::to_string(b.ndim() - 2)) +
                                    ", size " + std::to_string(y.shape()[yn - 2]) + ")");
  const Shape xb = slice(x.shape(), 0, xn - 2), yb = slice(y.shape(), 0, yn - 2);
  for (size_t i = 1; i <= std::min(xb.size(), yb.size()); ++i) {
    const int64_t p = xb[xb.size() - i], q = yb[yb.size() - i];
    if (p != q && p != 1 && q != 1)
      throw_value_error("matmul", "shapes " + shape_str(a.shape()) + " and " + shape_str(b.shape()) +
                                      " do not match: their batch axes (all but the last two) do not broadcast: " +
                                      std::to_string(p) + " (axis " + std::to_string(xn - 2 - i) + " of the first) vs " +
                                      std::to_string(q) + " (axis " + std::to_string(yn - 2 - i) + " of the second)");
  }
  const Shape batch = broadcast_shapes(xb, yb, "matmul");
  Shape out_shape = batch;
  if (a.ndim() > 1) out_shape.push_back(m);
  if (b.ndim() > 1) out_shape.push_back(n);
  if (shape_size(out_shape, "matmul") == 0) return Array::allocate(out_shape, dt, dev);
  if (k == 0) return zeros(out_shape, dt, dev);
  if (x.dtype() != dt) x = x.astype(dt);
  if (y.dtype() != dt) y = y.astype(dt);
  const Shape full = concat(batch, {m, n});
  const Array out = Array::allocate(full, dt, dev);
  linalg_detail::gemm_into(linalg_detail::broadcast_view(x, concat(batch, {m, k}), "matmul"),
                           linalg_detail::broadcast_view(y, concat(batch, {k, n}), "matmul"), out);
  return out.view(out_shape, contiguous_strides(out_shape, out.itemsize()), out.offset());
}

Array dot(const Array& a, const Array& b) {
  check_operands("dot", a, b);
  if (a.ndim() == 0 || b.ndim() == 0) return scalar_product(a, b);
  const int an = a.ndim(), bn = b.ndim();
  const int db = bn == 1 ? 0 : bn - 2;
  if (a.shape()[an - 1] != b.shape()[db]) not_aligned("dot", a, b, an - 1, db);
  // matmul's rules agree with dot's unless both operands have batch dims to combine.
  if (bn == 1 || an == 1 || (an <= 2 && bn <= 2)) return matmul(a, b);
  // dot(a, b)[i..., j..., n] = sum_k a[i..., k] * b[j..., k, n]: one (M, K) x (K, N) GEMM.
  const int64_t K = a.shape()[an - 1];
  const Array a2 = reshape(a, {shape_size(slice(a.shape(), 0, an - 1)), K});
  std::vector<int> perm{bn - 2};
  for (int i = 0; i < bn; ++i)
    if (i != bn - 2) perm.push_back(i);
  const Array bp = permute(b, perm);
  const Array b2 = reshape(bp, {K, shape_size(slice(bp.shape(), 1, bn))});
  const Shape out_shape = concat(concat(slice(a.shape(), 0, an - 1), slice(b.shape(), 0, bn - 2)),
                                 {b.shape()[bn - 1]});
  return reshape(matmul(a2, b2), out_shape);
}

Array vdot(const Array& a, const Array& b) {
  check_operands("vdot", a, b);
  if (a.size() != b.size())
    throw_value_error("vdot", "vectors have different lengths (" + std::to_string(a.size()) +
                                  " and " + std::to_string(b.size()) + ")");
  // NumPy's vdot conjugates its first argument.
  return matmul(is_complex(a.dtype()) ? conjugate(ravel(a)) : ravel(a), ravel(b));
}

Array inner(const Array& a, const Array& b) {
  check_operands("inner", a, b);
  if (a.ndim() == 0 || b.ndim() == 0) return scalar_product(a, b);
  if (a.shape().back() != b.shape().back()) not_aligned("inner", a, b, a.ndim() - 1, b.ndim() - 1);
  return tensordot(a, b, {-1}, {-1});
}

Array outer(const Array& a, const Array& b) {
  check_operands("outer", a, b);
  // A broadcast multiply, as NumPy's outer: each element is one exact product, where a
  // GEMM's accumulation into zero would turn -0.0 into 0.0.
  return multiply(reshape(a, {a.size(), 1}), reshape(b, {1, b.size()}));
}

Array tensordot(const Array& a, const Array& b, int64_t axes) {
  check_operands("tensordot", a, b);
  // NumPy treats a negative count as 0 (an outer product).
  axes = std::max<int64_t>(axes, 0);
  if (axes > a.ndim() || axes > b.ndim())
    throw AxisError("[tensordot] axes=" + std::to_string(axes) + " exceeds the dimensions of an operand");
  std::vector<int64_t> axes_a, axes_b;
  for (int64_t i = 0; i < axes; ++i) {
    axes_a.push_back(a.ndim() - axes + i);
    axes_b.push_back(i);
  }
  return tensordot(a, b, axes_a, axes_b);
}

Array tensordot(const Array& a, const Array& b, const std::vector<int64_t>& axes_a,
                const std::vector<int64_t>& axes_b) {
  check_operands("tensordot", a, b);
  if (axes_a.size() != axes_b.size())
    throw_value_error("tensordot", "axes name " + std::to_string(axes_a.size()) + " axes of the first operand and " +
                                       std::to_string(axes_b.size()) + " of the second; they are summed in pairs");
  const std::vector<int> sa = normalize_axes(axes_a, a.ndim(), "tensordot");
  const std::vector<int> sb = normalize_axes(axes_b, b.ndim(), "tensordot");
  int64_t K = 1;
  for (size_t i = 0; i < sa.size(); ++i) {
    if (a.shape()[sa[i]] != b.shape()[sb[i]])
      throw_value_error("tensordot", "shapes " + shape_str(a.shape()) + " and " + shape_str(b.shape()) +
                                         " do not match: axis " + std::to_string(sa[i]) + " of the first (size " +
                                         std::to_string(a.shape()[sa[i]]) + ") is summed with axis " +
                                         std::to_string(sb[i]) + " of the second (size " +
                                         std::to_string(b.shape()[sb[i]]) + ")");
    K *= a.shape()[sa[i]];
  }
  // a -> (free_a, summed) as (M, K); b -> (summed, free_b) as (K, N).
  std::vector<int> pa, pb(sb.begin(), sb.end());
  Shape free_a, free_b;
  for (int i = 0; i < a.ndim(); ++i)
    if (std::find(sa.begin(), sa.end(), i) == sa.end()) {
      pa.push_back(i);
      free_a.push_back(a.shape()[i]);
    }
  pa.insert(pa.end(), sa.begin(), sa.end());
  for (int i = 0; i < b.ndim(); ++i)
    if (std::find(sb.begin(), sb.end(), i) == sb.end()) {
      pb.push_back(i);
      free_b.push_back(b.shape()[i]);
    }
  const Array a2 = reshape(permute(a, pa), {shape_size(free_a), K});
  const Array b2 = reshape(permute(b, pb), {K, shape_size(free_b)});
  return reshape(matmul(a2, b2), concat(free_a, free_b));
}

}  // namespace loom
