// numpy's lexsort, partition, argpartition and interp as compositions (ops/ordering.h).
#include "loom/ops/ordering.h"

#include <cmath>
#include <string>

#include "loom/core/error.h"
#include "loom/core/shape.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/indexing.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/sorting.h"
#include "loom/ops/take.h"

namespace loom {
namespace {

void check_kth(const Array& a, const std::vector<int64_t>& kth, int64_t axis, const char* op) {
  if (a.ndim() == 0) throw_value_error(op, "a must be at least 1-d");
  const int64_t n = a.shape()[normalize_axis(axis, a.ndim(), op)];
  for (int64_t k : kth)
    if (k < -n || k >= n) throw_value_error(op, "kth(=" + std::to_string(k) + ") out of bounds (" + std::to_string(n) + ")");
}

}  // namespace

Array lexsort(const std::vector<Array>& keys, int64_t axis) {
  if (keys.empty()) throw std::invalid_argument("[lexsort] need sequence of keys with len > 0 in lexsort");
  for (const Array& k : keys) {
    check_same_device("lexsort", keys[0].device(), k.device());
    if (k.shape() != keys[0].shape()) throw_value_error("lexsort", "all keys need to be the same shape");
  }
  // Least significant key first; each pass is a stable argsort of the next key in the
  // current order (the radix sorts are stable).
  Array p = argsort(keys[0], axis);
  for (size_t i = 1; i < keys.size(); ++i) p = take_along_axis(p, argsort(take_along_axis(keys[i], p, axis), axis), axis);
  return p;
}

Array partition(const Array& a, const std::vector<int64_t>& kth, int64_t axis) {
  check_kth(a, kth, axis, "partition");
  return sort(a, axis);
}

Array argpartition(const Array& a, const std::vector<int64_t>& kth, int64_t axis) {
  check_kth(a, kth, axis, "argpartition");
  return argsort(a, axis);
}

Array interp(const Array& x, const Array& xp, const Array& fp, std::optional<double> left,
             std::optional<double> right, std::optional<double> period) {
  check_same_device("interp", x.device(), xp.device());
  check_same_device("interp", x.device(), fp.device());
  if (xp.ndim() != 1 || fp.ndim() != 1) throw_value_error("interp", "xp and fp must be 1-d sequences");
  if (xp.size() != fp.size()) throw_value_error("interp", "fp and xp are not of the same length.");
  if (period) {
    // NumPy's periodic case: x and xp reduced modulo the period, the samples sorted and
    // extended by one wrapped sample at each end, then the plain interpolation.
    if (*period == 0) throw_value_error("interp", "period must be a non-zero value");
    if (xp.size() == 0) throw_value_error("interp", "array of sample points is empty");
    const double p = std::fabs(*period);
    const Array xm = remainder(x.astype(DType::float64), p), xpm = remainder(xp.astype(DType::float64), p);
    const Array order = argsort(xpm);
    const Array xs = take(xpm, order), fs = take(fp, order);
    const Index last(Slice{-1, std::nullopt, std::nullopt}), first(Slice{0, 1, std::nullopt});
    return interp(xm, concatenate({subtract(getitem(xs, {last}), p), xs, add(getitem(xs, {first}), p)}),
                  concatenate({getitem(fs, {last}), fs, getitem(fs, {first})}));
  }
  if (xp.size() == 0) throw_value_error("interp", "array of sample points is empty");
  const int64_t n = xp.size();
  const DType t = is_complex(fp.dtype()) ? DType::complex128 : DType::float64;
  const Array xs = x.astype(DType::float64), xpf = xp.astype(DType::float64), fpf = fp.astype(t);
  const Array first = getitem(fpf, {Index(int64_t{0})}), last = getitem(fpf, {Index(n - 1)});
  Array y;
  if (n == 1) {
    y = broadcast_to(first, xs.shape()).copy();
  } else {
    // The segment [xp[i], xp[i + 1]] holding each x (the last one for x == xp[-1]).
    const Array i = clip(subtract(searchsorted(xpf, xs, "right"), int64_t{1}), Operand(int64_t{0}), Operand(n - 2));
    const Array i1 = add(i, int64_t{1});
    const Array x0 = getitem(xpf, {Index(i)}), x1 = getitem(xpf, {Index(i1)});
    const Array f0 = getitem(fpf, {Index(i)}), f1 = getitem(fpf, {Index(i1)});
    const Array slope = true_divide(subtract(f1, f0), subtract(x1, x0));
    y = add(multiply(slope, subtract(xs, x0)), f0);
    if (t == DType::float64) {
      // NumPy's retries for infinite samples: a NaN from one end is tried from the other,
      // then (equal ends) the sample itself.
      y = where(isnan(y), add(multiply(slope, subtract(xs, x1)), f1), y);
      y = where(logical_and(isnan(y), equal(f0, f1)), f0, y);
    }
    y = where(equal(xs, x0), f0, y);  // exact at the sample points (NumPy too)
    y = where(equal(xs, x1), f1, y);
  }
  const Array lo = left ? full({}, *left, t, x.device()) : first;
  const Array hi = right ? full({}, *right, t, x.device()) : last;
  y = where(less(xs, getitem(xpf, {Index(int64_t{0})})), lo, y);
  y = where(greater(xs, getitem(xpf, {Index(n - 1)})), hi, y);
  return where(isnan(xs), NAN, y);
}

}  // namespace loom
