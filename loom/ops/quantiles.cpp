// numpy's quantile and median as compositions (ops/quantiles.h).
#include "loom/ops/quantiles.h"

#include <cmath>
#include <stdexcept>

#include "loom/core/error.h"
#include "loom/core/shape.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/indexing.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/sorting.h"
#include "loom/ops/take.h"

namespace loom {
namespace {

// a sorted along its reduced axes, moved last and flattened into one: (kept..., n), plus
// the result shape with keepdims.
struct Sorted {
  Array s;
  Shape kept, keep_shape;
  int64_t n = 0;
};

Sorted sorted_last(const char* op, const Array& a, const AxisArg& axis) {
  std::vector<bool> mask(static_cast<size_t>(a.ndim()), !axis);
  if (axis)
    for (int64_t ax : *axis) mask[normalize_axis(ax, a.ndim(), op)] = true;
  std::vector<int64_t> perm;
  Sorted r;
  r.n = 1;
  for (int d = 0; d < a.ndim(); ++d) {
    r.keep_shape.push_back(mask[d] ? 1 : a.shape()[d]);
    if (!mask[d]) {
      perm.push_back(d);
      r.kept.push_back(a.shape()[d]);
    }
  }
  for (int d = 0; d < a.ndim(); ++d)
    if (mask[d]) {
      perm.push_back(d);
      r.n *= a.shape()[d];
    }
  if (r.n == 0) return r;  // the callers answer for empty reductions
  Shape flat = r.kept;
  flat.push_back(r.n);
  r.s = sort(reshape(transpose(a, perm).contiguous(), flat), -1);
  return r;
}

Array order_stat(const Sorted& s, int64_t i) {
  return getitem(s.s, {Index(ellipsis), Index(i)});
}

// The result for one q in the kept shape, from the sorted values.
Array one_quantile(const Sorted& s, double q, const std::string& method, DType out) {
  const double v = q * static_cast<double>(s.n - 1);
  const int64_t lo = static_cast<int64_t>(std::floor(v)), hi = std::min<int64_t>(lo + 1, s.n - 1);
  const double t = v - static_cast<double>(lo);
  if (method == "lower") return order_stat(s, lo);
  if (method == "higher") return order_stat(s, t > 0 ? hi : lo);
  if (method == "nearest") {  // numpy: round half to even on the virtual index
    const double r = std::nearbyint(v);
    return order_stat(s, static_cast<int64_t>(r));
  }
  const Array a = order_stat(s, lo).astype(out), b = order_stat(s, hi).astype(out);
  if (method == "midpoint") return t > 0 ? multiply(add(a, b), 0.5) : a;
  // numpy's _lerp: a + (b - a) t, or b - (b - a)(1 - t) from t = 0.5 on (exact at t = 1).
  const Array d = subtract(b, a);
  return t >= 0.5 ? subtract(b, multiply(d, 1.0 - t)) : add(a, multiply(d, t));
}

void check_method(const char* op, const std::string& method) {
  if (method != "linear" && method != "lower" && method != "higher" && method != "nearest" && method != "midpoint")
    throw_value_error(op, "'" + method + "' is not a valid method. Use one of: linear, lower, higher, nearest, midpoint");
}

// One q among each slice's `count` numbers (NaNs sort last), with per-slice virtual
// indices: the same rules as one_quantile, gathered with take_along_axis.
Array one_nanquantile(const Sorted& s, const Array& count, double q, const std::string& method, DType out) {
  const Array last = maximum(subtract(count, 1), 0);  // an all-NaN slice reads index 0
  const Array v = multiply(last.astype(DType::float64), q);
  const Array lo_f = floor(v), t = subtract(v, lo_f);
  const Array lo = lo_f.astype(DType::int64), hi = minimum(add(lo, 1), last);
  auto at = [&](const Array& i) {
    return getitem(take_along_axis(s.s, expand_dims(i, {-1}), -1), {Index(ellipsis), Index(int64_t{0})});
  };
  if (method == "lower") return at(lo);
  if (method == "higher") return at(where(greater(t, 0), hi, lo));
  if (method == "nearest") return at(rint(v).astype(DType::int64));
  const Array a = at(lo).astype(out), b = at(hi).astype(out);
  const Array tt = t.astype(out);
  if (method == "midpoint") return where(greater(t, 0), multiply(add(a, b), 0.5), a);
  const Array d = subtract(b, a);
  return where(greater_equal(t, 0.5), subtract(b, multiply(d, subtract(1.0, tt))), add(a, multiply(d, tt)));
}

}  // namespace

Array nanquantile(const Array& a, const std::vector<double>& q, const Shape& q_shape, const AxisArg& axis,
                  const std::string& method, bool keepdims) {
  const char* op = "nanquantile";
  check_method(op, method);
  if (!is_floating(a.dtype())) {
    if (is_complex(a.dtype())) throw_dtype_error(op, "a must be an array of real numbers");
    return quantile(a, q, q_shape, axis, method, keepdims);
  }
  for (double v : q)
    if (!(v >= 0.0 && v <= 1.0)) throw_value_error(op, "Quantiles must be in the range [0, 1]");
  const Sorted s = sorted_last(op, a, axis);
  Shape tail = keepdims ? s.keep_shape : s.kept;
  std::vector<Array> parts;
  if (s.n == 0) {  // NumPy: all-NaN (empty) slices give NaN, with a warning
    for (size_t i = 0; i < q.size(); ++i) parts.push_back(full(tail, NAN, a.dtype(), a.device()));
  } else {
    const Array count = sum(logical_not(isnan(s.s)), std::vector<int64_t>{-1});
    const Array empty = equal(count, 0);
    for (double v : q) parts.push_back(reshape(where(empty, NAN, one_nanquantile(s, count, v, method, a.dtype())).astype(a.dtype()), tail));
  }
  if (q_shape.empty()) return parts[0];
  Shape shape = q_shape;
  shape.insert(shape.end(), tail.begin(), tail.end());
  return reshape(stack(parts, 0), shape);
}

Array nanmedian(const Array& a, const AxisArg& axis, bool keepdims) {
  if (!is_floating(a.dtype())) {
    if (is_complex(a.dtype())) throw_dtype_error("nanmedian", "a must be an array of real numbers");
    return median(a, axis, keepdims);
  }
  // The mean of the two middle numbers, (lo + hi) / 2 as median computes it: "midpoint".
  return nanquantile(a, {0.5}, {}, axis, "midpoint", keepdims);
}

Array quantile(const Array& a, const std::vector<double>& q, const Shape& q_shape, const AxisArg& axis,
               const std::string& method, bool keepdims) {
  const char* op = "quantile";
  check_method(op, method);
  for (double v : q)
    if (!(v >= 0.0 && v <= 1.0)) throw_value_error(op, "Quantiles must be in the range [0, 1]");
  if (is_complex(a.dtype())) throw_dtype_error(op, "a must be an array of real numbers");
  const Sorted s = sorted_last(op, a, axis);
  if (s.n == 0) throw std::out_of_range("[quantile] cannot take quantiles of an empty reduction");
  const bool keeps_dtype = method == "lower" || method == "higher" || method == "nearest";
  const DType out = keeps_dtype || is_floating(a.dtype()) ? a.dtype() : DType::float64;
  std::vector<Array> parts;
  for (double v : q) parts.push_back(one_quantile(s, v, method, out));
  if (is_floating(a.dtype())) {  // numpy: a slice holding a NaN (sorted last) gives NaN
    const Array nan_slice = isnan(order_stat(s, s.n - 1));
    for (Array& p : parts) p = where(nan_slice, NAN, p);
  }
  Shape tail = keepdims ? s.keep_shape : s.kept;
  for (Array& p : parts) p = reshape(p.astype(out), tail);
  if (q_shape.empty()) return parts[0];
  Shape shape = q_shape;
  shape.insert(shape.end(), tail.begin(), tail.end());
  return reshape(stack(parts, 0), shape);
}

Array median(const Array& a, const AxisArg& axis, bool keepdims) {
  const char* op = "median";
  if (is_complex(a.dtype())) throw_dtype_error(op, "a must be an array of real numbers");
  const Sorted s = sorted_last(op, a, axis);
  const DType out = is_floating(a.dtype()) ? a.dtype() : DType::float64;
  if (s.n == 0) return full(keepdims ? s.keep_shape : s.kept, NAN, out, a.device());  // numpy (and a warning)
  const Array lo = order_stat(s, (s.n - 1) / 2).astype(out), hi = order_stat(s, s.n / 2).astype(out);
  // numpy: the mean of the two middle values ((lo + hi) / 2), NaN where the slice has one.
  Array m = s.n % 2 ? lo : multiply(add(lo, hi), 0.5);
  if (is_floating(a.dtype())) m = where(isnan(order_stat(s, s.n - 1)), NAN, m);
  return reshape(m.astype(out), keepdims ? s.keep_shape : s.kept);
}

}  // namespace loom
