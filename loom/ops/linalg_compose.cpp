// The linear-algebra functions that are compositions of loom's ops (trace, cross,
// matrix_power, vecdot, matvec, vecmat): no primitive of their own, so every device, dtype and transform that the
// ops reach reaches them too (their gradients are those of views, products and sums).
#include <string>

#include "loom/core/error.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/linalg.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"

namespace loom {
namespace {

// Component k of the vectors along the last axis (a view).
Array component(const Array& v, int64_t k) {
  Shape sh(v.shape().begin(), v.shape().end() - 1);
  Strides st(v.strides().begin(), v.strides().end() - 1);
  return v.view(sh, st, v.offset() + k * v.strides().back());
}

std::string dim_str(const Array& a, int64_t axis) {
  return std::to_string(a.shape()[normalize_axis(axis, a.ndim(), "")]);
}

}  // namespace

Array vecdot(const Array& a, const Array& b, int64_t axis) {
  if (a.ndim() == 0 || b.ndim() == 0) throw_value_error("vecdot", "x1 and x2 must have at least one dimension");
  const Array u = moveaxis(a, {axis}, {-1}), v = moveaxis(b, {axis}, {-1});
  if (u.shape().back() != v.shape().back())
    throw_value_error("vecdot", "x1 and x2 must have the same size along axis " + std::to_string(axis) + " (got " +
                                    std::to_string(u.shape().back()) + " and " + std::to_string(v.shape().back()) + ")");
  const DType dt = promote_types(a.dtype(), b.dtype());
  const std::vector<int64_t> last{-1};
  // bool: an or of ands (NumPy's bool dot), which a sum in bool would not give.
  if (dt == bool_) return any(logical_and(u, v), last);
  const Array uc = is_complex(u.dtype()) ? conjugate(u) : u;
  return sum(multiply(uc, v), last, false, dt);
}

Array matvec(const Array& a, const Array& b) {
  if (a.ndim() < 2 || b.ndim() < 1)
    throw_value_error("matvec", "x1 must have at least two dimensions and x2 at least one");
  if (a.shape().back() != b.shape().back())
    throw_value_error("matvec", "x1's last axis (" + dim_str(a, -1) + ") and x2's (" + dim_str(b, -1) +
                                    ") must have the same size");
  return squeeze(matmul(a, expand_dims(b, {-1})), std::vector<int64_t>{-1});
}

Array vecmat(const Array& a, const Array& b) {
  if (a.ndim() < 1 || b.ndim() < 2)
    throw_value_error("vecmat", "x1 must have at least one dimension and x2 at least two");
  if (a.shape().back() != b.shape()[b.ndim() - 2])
    throw_value_error("vecmat", "x1's last axis (" + dim_str(a, -1) + ") and x2's second-to-last (" + dim_str(b, -2) +
                                    ") must have the same size");
  const Array ac = is_complex(a.dtype()) ? conjugate(a) : a;
  return squeeze(matmul(expand_dims(ac, {-2}), b), std::vector<int64_t>{-2});
}

Array trace(const Array& a, int64_t offset, int64_t axis1, int64_t axis2, std::optional<DType> dtype) {
  return sum(diagonal(a, offset, axis1, axis2), std::vector<int64_t>{-1}, false, dtype);
}

Array cross(const Array& a, const Array& b, int64_t axisa, int64_t axisb, int64_t axisc) {
  if (a.ndim() == 0 || b.ndim() == 0) throw_value_error("cross", "the operands must have at least one dimension");
  const Array u = moveaxis(a, {axisa}, {-1}), v = moveaxis(b, {axisb}, {-1});
  const int64_t nu = u.shape().back(), nv = v.shape().back();
  if ((nu != 2 && nu != 3) || (nv != 2 && nv != 3))
    throw_value_error("cross", "incompatible dimensions for cross product (dimension must be 2 or 3), got " +
                                   std::to_string(nu) + " and " + std::to_string(nv));
  const Array u0 = component(u, 0), u1 = component(u, 1);
  const Array v0 = component(v, 0), v1 = component(v, 1);
  // 2-vectors, as NumPy still takes them (deprecated since NumPy 2.0; its binding warns): a
  // missing third component is 0, and two 2-vectors give only the product's z component.
  const Array z = subtract(multiply(u0, v1), multiply(u1, v0));
  if (nu == 2 && nv == 2) return z;
  const Array u2 = nu == 3 ? component(u, 2) : zeros_like(u0);
  const Array v2 = nv == 3 ? component(v, 2) : zeros_like(v0);
  const Array c = stack({subtract(multiply(u1, v2), multiply(u2, v1)), subtract(multiply(u2, v0), multiply(u0, v2)), z},
                        -1);
  if (c.ndim() == 1) {
    normalize_axis(axisc, 1, "cross");  // raises AxisError for an axis a vector does not have
    return c;
  }
  return moveaxis(c, {-1}, {axisc});
}

Array matrix_power(const Array& a, int64_t n) {
  if (a.ndim() < 2 || a.shape()[a.ndim() - 1] != a.shape()[a.ndim() - 2])
    throw_value_error("matrix_power", "expected a stack of square matrices (last two axes equal)");
  if (n < 0) return matrix_power(inv(a), -n);  // NumPy's way: the inverse's power
  const int64_t m = a.shape().back();
  if (n == 0) return broadcast_to(eye(m, std::nullopt, 0, a.dtype(), a.device()), a.shape()).copy();
  if (n == 1) return a.copy();  // a new array, as NumPy returns
  // Binary exponentiation: ~2 log2(n) products, each a new array.
  Array result, base = a;
  for (int64_t e = n;; e >>= 1) {
    if (e & 1) result = result.valid() ? matmul(result, base) : base;
    if (e <= 1) break;
    base = matmul(base, base);
  }
  return result;
}

}  // namespace loom
