// numpy.pad as a composition (ops/pad.h).
#include "loom/ops/pad.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "loom/core/error.h"
#include "loom/core/shape.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/indexing.h"
#include "loom/ops/quantiles.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/take.h"

namespace loom {
namespace {

template <class T> T per_axis(const std::vector<T>& v, int d, int ndim, const char* what) {
  if (v.size() == 1) return v[0];
  if (static_cast<int>(v.size()) != ndim)
    throw_value_error("pad", std::string(what) + " must have one pair per axis (" + std::to_string(ndim) + ") or one pair");
  return v[static_cast<size_t>(d)];
}

// a[start:stop] along axis d (a view).
Array along(const Array& a, int d, int64_t start, int64_t stop, int64_t step = 1) {
  std::vector<Index> idx(static_cast<size_t>(d), Index(Slice{}));
  idx.push_back(Index(Slice{start, stop, step}));
  return getitem(a, idx);
}
// a[start:stop] along axis d, reversed.
Array reversed(const Array& a, int d, int64_t start, int64_t stop) {
  return flip(along(a, d, start, stop), std::vector<int64_t>{d});
}

Array with_shape_along(const Array& a, int d, int64_t n) {
  Shape s = a.shape();
  s[static_cast<size_t>(d)] = n;
  return broadcast_to(a, s);
}

// A statistic of the first / last `len` elements along d, kept as length 1.
Array stat_of(const Array& part, int d, const std::string& mode) {
  const AxisArg ax = std::vector<int64_t>{d};
  if (mode == "maximum") return max(part, ax, true);
  if (mode == "minimum") return min(part, ax, true);
  Array s = mode == "mean" ? mean(part, ax, true) : median(part, ax, true);
  // NumPy rounds the statistic back into an integer dtype.
  return is_floating(part.dtype()) || is_complex(part.dtype()) ? s.astype(part.dtype()) : rint(s).astype(part.dtype());
}

// One axis of reflect/symmetric padding, in chunks of at most the original period so that
// later chunks mirror the already padded ends, as NumPy does.
Array reflect_axis(Array y, int d, int64_t before, int64_t after, bool symmetric, bool odd) {
  const int64_t n = y.shape()[static_cast<size_t>(d)];
  const int64_t period = symmetric ? n : n - 1;
  if (period < 1) return concatenate({with_shape_along(along(y, d, 0, 1), d, before), y,
                                      with_shape_along(along(y, d, 0, 1), d, after)}, d);  // one element: edge
  while (before > 0 || after > 0) {
    const int64_t m = y.shape()[static_cast<size_t>(d)];
    const int64_t lb = std::min(before, period), la = std::min(after, period);
    std::vector<Array> parts;
    if (lb > 0) {
      Array left = symmetric ? reversed(y, d, 0, lb) : reversed(y, d, 1, lb + 1);
      if (odd) left = subtract(multiply(with_shape_along(along(y, d, 0, 1), d, lb), 2), left).astype(y.dtype());
      parts.push_back(left);
    }
    parts.push_back(y);
    if (la > 0) {
      Array right = symmetric ? reversed(y, d, m - la, m) : reversed(y, d, m - 1 - la, m - 1);
      if (odd) right = subtract(multiply(with_shape_along(along(y, d, m - 1, m), d, la), 2), right).astype(y.dtype());
      parts.push_back(right);
    }
    y = concatenate(parts, d);
    before -= lb;
    after -= la;
  }
  return y;
}

Array ramp(const Array& edge, double end, int64_t width, int d, bool left) {
  // NumPy: linspace(end, edge, width, endpoint=False) on the left, its mirror on the right.
  Shape s(static_cast<size_t>(edge.ndim()), 1);
  s[static_cast<size_t>(d)] = width;
  Array t = reshape(divide(arange(Scalar(int64_t{0}), Scalar(width), Scalar(int64_t{1}), DType::float64, edge.device()),
                           static_cast<double>(width)), s);
  if (!left) t = flip(t, std::vector<int64_t>{d});
  // In complex128 for a complex edge (float64 would drop its imaginary part); integer
  // dtypes floor the ramp, as NumPy's linspace(dtype=int) does.
  const bool cplx = is_complex(edge.dtype());
  const Array e = edge.astype(cplx ? DType::complex128 : DType::float64);
  Array r = add(multiply(subtract(e, end), t), end);
  return is_floating(edge.dtype()) || cplx ? r.astype(edge.dtype()) : floor(r).astype(edge.dtype());
}

// constant (and empty, filled with 0) mode in one pass over `a`: the result is allocated
// once, `a` copied into its interior and each axis' two border slabs filled, axis by axis
// over the whole extent of the others, so a corner takes the last axis' value, as NumPy's.
// (Concatenating axis by axis would copy the growing array once per padded axis.)
Array pad_constant(const Array& a, const PadPairs& pad_width, const PadOptions& o) {
  const int nd = a.ndim();
  Shape shape = a.shape();
  std::vector<std::pair<int64_t, int64_t>> widths;
  for (int d = 0; d < nd; ++d) {
    const auto w = per_axis(pad_width, d, nd, "pad_width");
    if (w.first < 0 || w.second < 0) throw_value_error("pad", "index can't contain negative values");
    shape[static_cast<size_t>(d)] += w.first + w.second;
    widths.push_back(w);
  }
  if (shape == a.shape()) return a.copy();
  const Array out = empty(shape, a.dtype(), a.device());
  std::vector<Index> interior;
  for (int d = 0; d < nd; ++d)
    interior.emplace_back(Slice{widths[static_cast<size_t>(d)].first, widths[static_cast<size_t>(d)].first + a.shape()[d],
                                std::nullopt});
  if (a.size() > 0) copyto(getitem(out, interior), a);
  for (int d = 0; d < nd; ++d) {
    const auto [before, after] = widths[static_cast<size_t>(d)];
    const auto [cb, ca] = per_axis(o.constant_values, d, nd, "constant_values");
    const int64_t n = shape[static_cast<size_t>(d)];
    if (before > 0) copyto(along(out, d, 0, before), full({}, cb, a.dtype(), a.device()));
    if (after > 0) copyto(along(out, d, n - after, n), full({}, ca, a.dtype(), a.device()));
  }
  return out;
}

}  // namespace

Array pad(const Array& a, const PadPairs& pad_width, const std::string& mode, const PadOptions& o) {
  const char* op = "pad";
  static const char* kModes[] = {"constant", "edge", "linear_ramp", "maximum", "minimum", "mean",
                                 "median", "reflect", "symmetric", "wrap", "empty"};
  if (std::find_if(std::begin(kModes), std::end(kModes), [&](const char* m) { return mode == m; }) == std::end(kModes))
    throw_value_error(op, "mode '" + mode + "' is not supported");
  if (o.reflect_type != "even" && o.reflect_type != "odd")
    throw_value_error(op, "reflect_type must be 'even' or 'odd', not '" + o.reflect_type + "'");
  const int nd = a.ndim();
  if (mode == "constant" || mode == "empty") return pad_constant(a, pad_width, mode == "empty" ? PadOptions{} : o);
  Array y = a;
  for (int d = 0; d < nd; ++d) {
    const auto [before, after] = per_axis(pad_width, d, nd, "pad_width");
    if (before < 0 || after < 0) throw_value_error(op, "index can't contain negative values");
    if (before == 0 && after == 0) continue;
    const int64_t n = y.shape()[static_cast<size_t>(d)];
    if (n == 0 && mode != "constant" && mode != "empty")
      throw_value_error(op, "can't extend empty axis " + std::to_string(d) + " using modes other than 'constant' or 'empty'");
    if (mode == "edge") {
      y = concatenate({with_shape_along(along(y, d, 0, 1), d, before), y, with_shape_along(along(y, d, n - 1, n), d, after)}, d);
    } else if (mode == "wrap") {
      // Index i of the padded axis reads (i - before) mod n.
      const Array idx = remainder(arange(Scalar(-before), Scalar(n + after), Scalar(int64_t{1}), DType::int64, y.device()), n);
      y = take(y, idx, d);
    } else if (mode == "reflect" || mode == "symmetric") {
      y = reflect_axis(y, d, before, after, mode == "symmetric", o.reflect_type == "odd");
    } else if (mode == "linear_ramp") {
      const auto [eb, ea] = per_axis(o.end_values, d, nd, "end_values");
      y = concatenate({ramp(along(y, d, 0, 1), eb, before, d, true), y, ramp(along(y, d, n - 1, n), ea, after, d, false)}, d);
    } else {  // maximum, minimum, mean, median of the ends
      int64_t lb = n, la = n;
      if (!o.stat_length.empty()) std::tie(lb, la) = per_axis(o.stat_length, d, nd, "stat_length");
      if (lb < 0 || la < 0) throw_value_error(op, "index can't contain negative values");
      if ((before > 0 && lb == 0) || (after > 0 && la == 0))
        throw_value_error(op, "stat_length of 0 yields no value for padding");
      lb = std::min(lb, n);
      la = std::min(la, n);
      const Array sb = stat_of(along(y, d, 0, lb), d, mode), sa = stat_of(along(y, d, n - la, n), d, mode);
      y = concatenate({with_shape_along(sb, d, before), y, with_shape_along(sa, d, after)}, d);
    }
  }
  return y.valid() && y.buffer() == a.buffer() ? a.copy() : y;
}

}  // namespace loom
