// numpy's bincount and histogram with equal bins (ops/counting.h) over the counting
// family's primitives, and NumPy's outer edges and equal-bin edges.
//
// NumPy's dtypes (numpy/lib/_histograms_impl.py, NumPy 2's rules for scalars): the bin
// type is result_type(first_edge, last_edge, a), float64 for integers. With the range
// from the data, the edges are numpy scalars of a's dtype, so linspace and the division
// run in the bin type; from `range` (Python numbers, weak), linspace runs in float64 and
// casts to the bin type, and the division by norm_denom (a float64 scalar) is float64.
// Each value's bin is NumPy's arithmetic in those dtypes (common/loom_histogram.cuh).
#include "loom/ops/counting.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "loom/ops/counting_primitives.h"
#include "loom/common/loom_histogram.cuh"
#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/indexing.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"

namespace loom {
namespace {

// The data's min and max, read from the device once: as doubles, and for integers also
// exactly (span: max - min as an unsigned 64-bit number).
struct DataRange {
  double lo = 0, hi = 0;
  int64_t ilo = 0, ihi = 0;  // integers (uint64 above INT64_MAX wraps, as astype(int64))
  uint64_t span = 0;
};

DataRange data_range(const Array& flat) {
  const Array mm = Array::allocate({2}, flat.dtype(), flat.device());
  dispatch(primitives::minmax, {flat}, {mm}, flat, mm);
  unsigned char buf[16] = {};
  mm.copy_to_host(buf);
  DataRange r;
  auto ints = [&](auto lo, auto hi) {
    r.lo = static_cast<double>(lo);
    r.hi = static_cast<double>(hi);
    r.ilo = static_cast<int64_t>(lo);
    r.ihi = static_cast<int64_t>(hi);
    r.span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);  // exact: wraps back for negatives
  };
  auto read = [&](auto t) {
    using T = decltype(t);
    T v[2];
    std::memcpy(v, buf, sizeof(v));
    return std::make_pair(v[0], v[1]);
  };
  switch (flat.dtype()) {
    case DType::bool_:
    case DType::uint8: { auto [a, b] = read(uint8_t{}); ints(a, b); break; }
    case DType::int8: { auto [a, b] = read(int8_t{}); ints(a, b); break; }
    case DType::int16: { auto [a, b] = read(int16_t{}); ints(a, b); break; }
    case DType::int32: { auto [a, b] = read(int32_t{}); ints(a, b); break; }
    case DType::int64: { auto [a, b] = read(int64_t{}); ints(a, b); break; }
    case DType::uint16: { auto [a, b] = read(uint16_t{}); ints(a, b); break; }
    case DType::uint32: { auto [a, b] = read(uint32_t{}); ints(a, b); break; }
    case DType::uint64: { auto [a, b] = read(uint64_t{}); ints(a, b); break; }
    case DType::float16: {
      auto [a, b] = read(loom_f16{});
      r.lo = loom_f16_to_float(a);
      r.hi = loom_f16_to_float(b);
      break;
    }
    case DType::float32: { auto [a, b] = read(float{}); r.lo = a; r.hi = b; break; }
    case DType::float64: { auto [a, b] = read(double{}); r.lo = a; r.hi = b; break; }
    default: throw_dtype_error("histogram", std::string(dtype_name(flat.dtype())) + " values are not supported");
  }
  return r;
}

// x rounded to `dt` (float16, float32 or float64), as a double.
double round_to(DType dt, double x) {
  if (dt == DType::float16) return loom_hist_arith<loom_f16>::from_double(x);
  if (dt == DType::float32) return static_cast<float>(x);
  return x;
}

// Edges 0..count of u's linspace computed in D, stored as Out (the bin type's storage).
template <class D, class Out>
void linspace_into(const UniformBins& u, int64_t count, Out* out) {
  using A = loom_hist_arith<D>;
  using V = typename A::value;
  const V start = static_cast<V>(u.first), stop = static_cast<V>(u.last);
  const V delta = A::round(stop - start), div = A::from_index(count), step = A::round(delta / div);
  for (int64_t k = 0; k <= count; ++k) {
    const V y = loom_hist_linspace<D>(k, count, start, stop, delta, div, step);
    if constexpr (std::is_same_v<Out, loom_f16>) {
      if constexpr (std::is_same_v<D, loom_f16>) out[k] = A::store(y);
      else out[k] = loom_double_to_f16(static_cast<double>(y));
    } else {
      out[k] = static_cast<Out>(y);
    }
  }
}

// Whether the edges (bin type's storage) increase strictly, as NumPy checks them.
template <class Out>
bool increasing(const Out* e, int64_t count) {
  for (int64_t k = 0; k < count; ++k) {
    if constexpr (std::is_same_v<Out, loom_f16>) {
      if (!(loom_f16_to_float(e[k]) < loom_f16_to_float(e[k + 1]))) return false;
    } else if (!(e[k] < e[k + 1])) {
      return false;
    }
  }
  return true;
}

template <class Out>
Array edges_of(const UniformBins& u, DType bin_type, int64_t count, const Device& device, const char* op) {
  std::vector<Out> e(static_cast<size_t>(count + 1));
  if (u.compute == DType::float16) linspace_into<loom_f16>(u, count, e.data());
  else if (u.compute == DType::float32) linspace_into<float>(u, count, e.data());
  else linspace_into<double>(u, count, e.data());
  if (!increasing(e.data(), count))
    throw_value_error(op, "Too many bins for data range. Cannot create " + std::to_string(count) +
                              " finite-sized bins.");
  const int64_t item = static_cast<int64_t>(sizeof(Out));
  return from_host(HostView{e.data(), bin_type, {count + 1}, {item}}, device);
}

// bins in the division's dtype (NumPy's n_equal_bins, a weak Python int).
double bins_in(const UniformBins& u, int64_t bins) {
  if (u.wide || u.bin_type == DType::float64) return static_cast<double>(bins);
  if (u.bin_type == DType::float16) return loom_hist_arith<loom_f16>::from_index(bins);
  return static_cast<float>(bins);
}

Array widths(const Array& edges) {
  return subtract(getitem(edges, {Index(Slice{1, std::nullopt, std::nullopt})}),
                  getitem(edges, {Index(Slice{std::nullopt, -1, std::nullopt})}));
}

}  // namespace

UniformBins uniform_bins(const Array& flat, std::optional<std::pair<double, double>> range, const char* op) {
  const DType dt = flat.dtype();
  UniformBins u;
  u.bin_type = !is_floating(dt) ? DType::float64 : dt == DType::bfloat16 ? DType::float32 : dt;
  if (range || flat.size() == 0) {  // Python numbers: float64 arithmetic
    double lo = 0, hi = 1;
    if (range) {
      std::tie(lo, hi) = *range;
      if (lo > hi) throw_value_error(op, "max must be larger than min in range parameter.");
      if (!std::isfinite(lo) || !std::isfinite(hi))
        throw_value_error(op, "supplied range of [" + std::to_string(lo) + ", " + std::to_string(hi) + "] is not finite");
    }
    if (lo == hi) {
      lo -= 0.5;
      hi += 0.5;
    }
    u.compute = DType::float64;
    u.first = lo;
    u.last = hi;
    u.denom = hi - lo;
    u.wide = true;
    return u;
  }
  const DataRange r = data_range(flat);
  if (!std::isfinite(r.lo) || !std::isfinite(r.hi)) {
    const bool nan = std::isnan(r.lo) || std::isnan(r.hi);  // NumPy's min and max are both NaN then
    throw_value_error(op, "autodetected range of [" + std::to_string(nan ? NAN : r.lo) + ", " +
                              std::to_string(nan ? NAN : r.hi) + "] is not finite");
  }
  u.wide = false;
  if (!is_floating(dt)) {  // numpy integer scalars: float64 edges, an exact integer span
    u.compute = DType::float64;
    if (r.span == 0) {
      u.first = r.lo - 0.5;
      u.last = r.hi + 0.5;
      u.denom = u.last - u.first;
    } else {
      u.first = r.lo;
      u.last = r.hi;
      u.denom = static_cast<double>(r.span);
    }
    return u;
  }
  // numpy scalars of the bin type: every operation rounds to it
  const DType t = u.bin_type;
  u.compute = t;
  u.first = r.lo;
  u.last = r.hi;
  if (r.lo == r.hi) {
    u.first = round_to(t, r.lo - 0.5);
    u.last = round_to(t, r.hi + 0.5);
  }
  u.denom = round_to(t, u.last - u.first);
  return u;
}

Array uniform_edges(const UniformBins& u, DType bin_type, int64_t count, const Device& device, const char* op) {
  if (bin_type == DType::float16) return edges_of<loom_f16>(u, bin_type, count, device, op);
  if (bin_type == DType::float32) return edges_of<float>(u, bin_type, count, device, op);
  return edges_of<double>(u, bin_type, count, device, op);
}

Array bincount(const Array& x, const std::optional<Array>& weights, int64_t minlength) {
  if (x.ndim() != 1) throw_value_error("bincount", "object too deep for desired array");
  if (!is_integer(x.dtype()) && x.dtype() != DType::bool_)
    throw_dtype_error("bincount", "Cannot cast array data from " + std::string(dtype_name(x.dtype())) +
                                      " to int64 according to the rule 'safe'");
  if (minlength < 0) throw_value_error("bincount", "'minlength' must not be negative");
  if (weights) {
    check_same_device("bincount", x.device(), weights->device());
    if (weights->shape() != x.shape()) throw_value_error("bincount", "The weights and list don't have the same length.");
  }
  const Array xs = x.contiguous();
  int64_t n = minlength;
  if (x.size() > 0) {
    const DataRange r = data_range(xs);
    if (r.ilo < 0) throw_value_error("bincount", "'list' argument must have no negative elements");
    n = std::max(n, r.ihi + 1);
  }
  if (!weights) {
    const Array out = Array::allocate({n}, DType::int64, x.device());
    dispatch(primitives::bincount, {xs}, {out}, xs, Array(), out);
    return out;
  }
  const DType t = is_complex(weights->dtype()) ? DType::complex128 : DType::float64;  // numpy: double weights
  const Array w = weights->astype(t).contiguous();
  const Array out = Array::allocate({n}, t, x.device());
  dispatch(primitives::bincount, {xs, w}, {out}, xs, w, out);
  return out;
}

std::pair<Array, Array> histogram(const Array& a, int64_t bins, std::optional<std::pair<double, double>> range,
                                  const std::optional<Array>& weights, bool density) {
  const char* op = "histogram";
  if (bins < 1) throw_value_error(op, "`bins` must be positive, when an integer");
  if (is_complex(a.dtype())) throw_dtype_error(op, "complex values are not supported");
  if (weights) {
    check_same_device(op, a.device(), weights->device());
    if (weights->shape() != a.shape()) throw_value_error(op, "weights should have the same shape as a.");
  }
  Array x = ravel(a).contiguous();
  if (x.dtype() == DType::bool_) x = x.astype(DType::uint8);  // NumPy's cast (it warns)
  else if (x.dtype() == DType::bfloat16) x = x.astype(DType::float32);
  const UniformBins u = uniform_bins(x, range, op);
  const Array edges = uniform_edges(u, u.bin_type, bins, x.device(), op);
  HistogramParams p;
  p.bins = bins;
  p.denom = u.denom;
  p.count = bins_in(u, bins);
  p.wide = u.wide && u.bin_type != DType::float64;
  Array hist;
  if (!weights) {
    hist = Array::allocate({bins}, DType::int64, x.device());
    dispatch(primitives::histogram, {x, edges}, {hist}, x, edges, Array(), p, hist);
  } else {
    // NumPy sums the weights in double (complex: each part) and returns weights' dtype.
    const DType ntype = weights->dtype();
    const Array w = ravel(*weights).astype(is_complex(ntype) ? DType::complex128 : DType::float64).contiguous();
    hist = Array::allocate({bins}, w.dtype(), x.device());
    dispatch(primitives::histogram, {x, edges, w}, {hist}, x, edges, w, p, hist);
    if (ntype != hist.dtype()) hist = hist.astype(ntype);
  }
  if (density) {  // NumPy: n / db / n.sum(), db = diff(edges) as float64
    hist = true_divide(true_divide(hist, widths(edges).astype(DType::float64)), sum(hist));
  }
  return {hist, edges};
}

}  // namespace loom
