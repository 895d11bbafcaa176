// numpy's quantile and median as compositions (ops/quantiles.h). A reduction that leaves
// one slice (axis=None, or every kept axis of length 1) reads its order statistics with
// select_ranks (ops/sorting.h: radix selection on the GPU, nth_element on the CPU) when
// they are at most kMaxSelectRanks; other reductions sort each slice (transpose, contiguous,
// sort) and gather. Both give the same elements, and the formulas below run on them alike,
// so the two paths agree bit for bit. While a tracer is installed (jit, vmap, grad) the
// sort path runs: select_ranks has no batching or derivative rule.
#include "loom/ops/quantiles.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "loom/core/error.h"
#include "loom/core/shape.h"
#include "loom/dispatch/trace.h"
#include "loom/backend/sorting.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/index_helpers_internal.h"
#include "loom/ops/indexing.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/sorting.h"
#include "loom/ops/take.h"

namespace loom {
namespace {

// The reduction's geometry: the kept axes first, then the reduced ones (perm), the kept
// shape, the result shape with keepdims, and each slice's length.
struct Reduction {
  std::vector<int64_t> perm;
  Shape kept, keep_shape;
  int64_t n = 1;
  // One slice, read where it lies: the kept axes (all of length 1) change no element's
  // place in C order, so a's flattened order is the slice's order, as the sort path's.
  bool single_slice() const { return shape_size(kept) == 1 && !is_tracing(); }
};

Reduction reduction(const char* op, const Array& a, const AxisArg& axis) {
  std::vector<bool> mask(static_cast<size_t>(a.ndim()), !axis);
  if (axis)
    for (int64_t ax : *axis) mask[normalize_axis(ax, a.ndim(), op)] = true;
  Reduction r;
  for (int d = 0; d < a.ndim(); ++d) {
    r.keep_shape.push_back(mask[d] ? 1 : a.shape()[d]);
    if (!mask[d]) {
      r.perm.push_back(d);
      r.kept.push_back(a.shape()[d]);
    }
  }
  for (int d = 0; d < a.ndim(); ++d)
    if (mask[d]) {
      r.perm.push_back(d);
      r.n *= a.shape()[d];
    }
  return r;
}

// a sorted along its reduced axes, moved last and flattened into one: (kept..., n).
Array sorted_last(const Array& a, const Reduction& r) {
  Shape flat = r.kept;
  flat.push_back(r.n);
  return sort(reshape(transpose(a, r.perm).contiguous(), flat), -1);
}

// Order statistic i (0-based) of every slice, in the kept shape (or 0-d).
using OrderStat = std::function<Array(int64_t)>;

OrderStat sorted_stats(const Array& a, const Reduction& r) {
  const Array s = sorted_last(a, r);
  return [s](int64_t i) { return getitem(s, {Index(ellipsis), Index(i)}); };
}

// The single slice's order statistics `ranks` (any order, repeats allowed) by selection, or
// nothing when they are too many for one select_ranks call.
OrderStat selected_stats(const Array& a, std::vector<int64_t> ranks) {
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  if (ranks.size() > static_cast<size_t>(kMaxSelectRanks)) return nullptr;
  const Array sel = select_ranks(a, index_detail::int64_array(ranks, a.device()));
  return [sel, ranks](int64_t i) {
    const int64_t at = std::lower_bound(ranks.begin(), ranks.end(), i) - ranks.begin();
    return getitem(sel, {Index(at)});
  };
}

// NumPy's virtual index of q among n sorted values, v = q (n - 1): its floor lo, the next
// index hi (capped at n - 1) and the fraction t = v - lo.
struct QIndex {
  double v, t;
  int64_t lo, hi;
};

QIndex q_index(double q, int64_t n) {
  QIndex z;
  z.v = q * static_cast<double>(n - 1);
  z.lo = static_cast<int64_t>(std::floor(z.v));
  z.hi = std::min<int64_t>(z.lo + 1, n - 1);
  z.t = z.v - static_cast<double>(z.lo);
  return z;
}

// The order statistics one_quantile reads.
void quantile_ranks(double q, int64_t n, const std::string& method, std::vector<int64_t>& ranks) {
  const QIndex z = q_index(q, n);
  if (method == "lower") ranks.push_back(z.lo);
  else if (method == "higher") ranks.push_back(z.t > 0 ? z.hi : z.lo);
  else if (method == "nearest") ranks.push_back(static_cast<int64_t>(std::nearbyint(z.v)));
  else ranks.insert(ranks.end(), {z.lo, z.hi});
}

// The result for one q in the kept shape, from the order statistics.
Array one_quantile(const OrderStat& stat, int64_t n, double q, const std::string& method, DType out) {
  const QIndex z = q_index(q, n);
  const int64_t lo = z.lo, hi = z.hi;
  const double t = z.t;
  if (method == "lower") return stat(lo);
  if (method == "higher") return stat(t > 0 ? hi : lo);
  if (method == "nearest") {  // numpy: round half to even on the virtual index
    const double r = std::nearbyint(z.v);
    return stat(static_cast<int64_t>(r));
  }
  const Array a = stat(lo).astype(out), b = stat(hi).astype(out);
  if (method == "midpoint") return t > 0 ? multiply(add(a, b), 0.5) : a;
  // numpy's _lerp: a + (b - a) t, or b - (b - a)(1 - t) from t = 0.5 on (exact at t = 1).
  const Array d = subtract(b, a);
  return t >= 0.5 ? subtract(b, multiply(d, 1.0 - t)) : add(a, multiply(d, t));
}

void check_method(const char* op, const std::string& method) {
  if (method != "linear" && method != "lower" && method != "higher" && method != "nearest" && method != "midpoint")
    throw_value_error(op, "'" + method + "' is not a valid method. Use one of: linear, lower, higher, nearest, midpoint");
}

// Per-slice virtual indices of one q among each slice's `count` numbers (NaNs sort last):
// the same rules as q_index, on arrays.
struct NanIndex {
  Array v, t, lo, hi;
};

NanIndex nan_index(const Array& count, double q) {
  const Array last = maximum(subtract(count, 1), 0);  // an all-NaN slice reads index 0
  const Array v = multiply(last.astype(DType::float64), q);
  const Array lo_f = floor(v), t = subtract(v, lo_f);
  const Array lo = lo_f.astype(DType::int64), hi = minimum(add(lo, 1), last);
  return {v, t, lo, hi};
}

// The positions (int64, count's shape) whose order statistics nan_combine reads.
std::vector<Array> nan_reads(const NanIndex& z, const std::string& method) {
  if (method == "lower") return {z.lo};
  if (method == "higher") return {where(greater(z.t, 0), z.hi, z.lo)};
  if (method == "nearest") return {rint(z.v).astype(DType::int64)};
  return {z.lo, z.hi};
}

// One q from the order statistics `r` at nan_reads' positions.
Array nan_combine(const NanIndex& z, const std::vector<Array>& r, const std::string& method, DType out) {
  if (method == "lower" || method == "higher" || method == "nearest") return r[0];
  const Array a = r[0].astype(out), b = r[1].astype(out);
  const Array tt = z.t.astype(out);
  if (method == "midpoint") return where(greater(z.t, 0), multiply(add(a, b), 0.5), a);
  const Array d = subtract(b, a);
  return where(greater_equal(z.t, 0.5), subtract(b, multiply(d, subtract(1.0, tt))), add(a, multiply(d, tt)));
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
  const Reduction red = reduction(op, a, axis);
  Shape tail = keepdims ? red.keep_shape : red.kept;
  std::vector<Array> parts;
  const size_t reads = method == "linear" || method == "midpoint" ? 2 : 1;
  if (red.n == 0) {  // NumPy: all-NaN (empty) slices give NaN, with a warning
    for (size_t i = 0; i < q.size(); ++i) parts.push_back(full(tail, NAN, a.dtype(), a.device()));
  } else if (red.single_slice() && reads * q.size() <= static_cast<size_t>(kMaxSelectRanks)) {
    // The positions depend on the number of NaNs, a device value: they go to select_ranks
    // as a device array, in nan_reads' order for each q.
    const Array count = subtract(Scalar(static_cast<long long>(red.n)), sum(isnan(a)));
    const Array empty = equal(count, 0);
    std::vector<NanIndex> zs;
    std::vector<Array> positions;
    for (double v : q) {
      zs.push_back(nan_index(count, v));
      for (const Array& p : nan_reads(zs.back(), method)) positions.push_back(p);
    }
    const Array sel = select_ranks(a, stack(positions, 0));
    int64_t at = 0;
    for (const NanIndex& z : zs) {
      std::vector<Array> r;
      for (size_t k = 0; k < reads; ++k) r.push_back(getitem(sel, {Index(at++)}));
      parts.push_back(reshape(where(empty, NAN, nan_combine(z, r, method, a.dtype())).astype(a.dtype()), tail));
    }
  } else {
    const Array s = sorted_last(a, red);
    const Array count = sum(logical_not(isnan(s)), std::vector<int64_t>{-1});
    const Array empty = equal(count, 0);
    auto at = [&](const Array& i) {
      return getitem(take_along_axis(s, expand_dims(i, {-1}), -1), {Index(ellipsis), Index(int64_t{0})});
    };
    for (double v : q) {
      const NanIndex z = nan_index(count, v);
      std::vector<Array> r;
      for (const Array& p : nan_reads(z, method)) r.push_back(at(p));
      parts.push_back(reshape(where(empty, NAN, nan_combine(z, r, method, a.dtype())).astype(a.dtype()), tail));
    }
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
  const Reduction red = reduction(op, a, axis);
  if (red.n == 0) throw std::out_of_range("[quantile] cannot take quantiles of an empty reduction");
  const int64_t n = red.n;
  OrderStat stat;
  if (red.single_slice()) {
    std::vector<int64_t> ranks;
    for (double v : q) quantile_ranks(v, n, method, ranks);
    if (is_floating(a.dtype())) ranks.push_back(n - 1);
    stat = selected_stats(a, ranks);
  }
  if (!stat) stat = sorted_stats(a, red);
  const bool keeps_dtype = method == "lower" || method == "higher" || method == "nearest";
  const DType out = keeps_dtype || is_floating(a.dtype()) ? a.dtype() : DType::float64;
  std::vector<Array> parts;
  for (double v : q) parts.push_back(one_quantile(stat, n, v, method, out));
  if (is_floating(a.dtype())) {  // numpy: a slice holding a NaN (sorted last) gives NaN
    const Array nan_slice = isnan(stat(n - 1));
    for (Array& p : parts) p = where(nan_slice, NAN, p);
  }
  Shape tail = keepdims ? red.keep_shape : red.kept;
  for (Array& p : parts) p = reshape(p.astype(out), tail);
  if (q_shape.empty()) return parts[0];
  Shape shape = q_shape;
  shape.insert(shape.end(), tail.begin(), tail.end());
  return reshape(stack(parts, 0), shape);
}

Array median(const Array& a, const AxisArg& axis, bool keepdims) {
  const char* op = "median";
  if (is_complex(a.dtype())) throw_dtype_error(op, "a must be an array of real numbers");
  const Reduction red = reduction(op, a, axis);
  const DType out = is_floating(a.dtype()) ? a.dtype() : DType::float64;
  const int64_t n = red.n;
  if (n == 0) return full(keepdims ? red.keep_shape : red.kept, NAN, out, a.device());  // numpy (and a warning)
  OrderStat stat;
  if (red.single_slice()) {
    std::vector<int64_t> ranks = {(n - 1) / 2, n / 2};
    if (is_floating(a.dtype())) ranks.push_back(n - 1);
    stat = selected_stats(a, ranks);
  }
  if (!stat) stat = sorted_stats(a, red);
  const Array lo = stat((n - 1) / 2).astype(out), hi = stat(n / 2).astype(out);
  // numpy: the mean of the two middle values ((lo + hi) / 2), NaN where the slice has one.
  Array m = n % 2 ? lo : multiply(add(lo, hi), 0.5);
  if (is_floating(a.dtype())) m = where(isnan(stat(n - 1)), NAN, m);
  return reshape(m.astype(out), keepdims ? red.keep_shape : red.kept);
}

}  // namespace loom
