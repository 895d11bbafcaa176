// Histograms over edges and NumPy's bin estimators (ops/histograms.h).
#include "loom/ops/histograms.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "loom/common/loom_cast.cuh"
#include "loom/core/error.h"
#include "loom/core/shape.h"
#include "loom/ops/counting.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/indexing.h"
#include "loom/ops/quantiles.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/sorting.h"

namespace loom {
namespace {

double host_value(const Array& a) {
  double v = 0;
  a.astype(DType::float64).copy_to_host(&v);
  return v;
}

// max - min as NumPy's ptp computes it, in the data's dtype `dt`.
double ptp_in(DType dt, double hi, double lo) {
  if (dt == DType::float16) return loom_f16_to_float(loom_double_to_f16(hi - lo));
  if (dt == DType::float32) return static_cast<float>(hi - lo);
  return hi - lo;
}

// NumPy's estimators: the bin width for the values x (within the range; float64, from
// data of dtype dt), 0 for "none". The rest of NumPy's arithmetic is float64 here.
double estimator_width(const std::string& name, const Array& x, DType dt) {
  const double n = static_cast<double>(x.size());
  const double ptp = x.size() ? ptp_in(dt, host_value(max(x)), host_value(min(x))) : 0.0;
  auto sturges = [&] { return ptp / (std::log2(n) + 1.0); };
  auto fd = [&] {
    const Array q = quantile(x, {0.75, 0.25}, {2});
    const double iqr = host_value(getitem(q, {Index(int64_t{0})})) - host_value(getitem(q, {Index(int64_t{1})}));
    return 2.0 * iqr * std::pow(n, -1.0 / 3.0);
  };
  if (name == "sqrt") return ptp / std::sqrt(n);
  if (name == "sturges") return sturges();
  if (name == "rice") return ptp / (2.0 * std::cbrt(n));
  if (name == "scott") return std::cbrt(24.0 * std::sqrt(3.14159265358979323846) / n) * host_value(std(x));
  if (name == "fd") return fd();
  if (name == "auto") {
    const double f = fd(), s = sturges();
    return f ? std::min(f, s) : s;
  }
  if (name == "doane") {
    if (n <= 2) return 0.0;
    const double sg1 = std::sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3.0)));
    const double sigma = host_value(std(x));
    if (!(sigma > 0)) return 0.0;
    const double g1 = host_value(mean(power(divide(subtract(x, mean(x)), sigma), 3.0)));
    return ptp / (1.0 + std::log2(n) + std::log2(1.0 + std::fabs(g1) / sg1));
  }
  throw_value_error("histogram_bin_edges", "'" + name + "' is not a valid estimator for `bins` (one of auto, fd, "
                                           "doane, scott, rice, sturges, sqrt)");
}

// The edges of `bins` for the values `flat` (1-d): given edges as they are, else NumPy's
// equal bins (ops/counting.h) in the bin type (histogram, histogram_bin_edges) or, for
// histogramdd (`dd`: NumPy's linspace without a dtype), in linspace's own dtype.
Array edges_of(const Array& flat, const HistogramBins& bins, std::optional<std::pair<double, double>> range,
               const char* op, bool dd) {
  if (bins.edges) {
    const Array& e = *bins.edges;
    if (e.ndim() != 1) throw_value_error(op, "`bins` must be 1d, when an array");
    if (e.size() >= 2 && host_value(any(less(getitem(e, {Index(Slice{1, std::nullopt, std::nullopt})}),
                                             getitem(e, {Index(Slice{std::nullopt, -1, std::nullopt})})))))
      throw_value_error(op, "`bins` must increase monotonically, when an array");
    return e;  // NumPy: np.asarray(bins), its dtype kept
  }
  Array x = flat.contiguous();
  if (x.dtype() == DType::bool_) x = x.astype(DType::uint8);
  else if (x.dtype() == DType::bfloat16) x = x.astype(DType::float32);
  const UniformBins u = uniform_bins(x, range, op);
  int64_t count = 1;
  if (bins.count) {
    count = *bins.count;
    if (count < 1) throw_value_error(op, "`bins` must be positive, when an integer");
  } else if (x.size() > 0) {
    const Array xf = x.astype(DType::float64);
    const Array kept =
        range ? getitem(xf, {Index(logical_and(greater_equal(xf, u.first), less_equal(xf, u.last)))}) : xf;
    double width = kept.size() ? estimator_width(bins.estimator, kept, x.dtype()) : 0.0;
    if (width > 0 && width < 1 && !is_floating(flat.dtype())) width = 1;  // NumPy: integer data
    count = width > 0 ? std::max<int64_t>(1, static_cast<int64_t>(std::ceil(u.denom / width))) : 1;
  } else {
    estimator_width(bins.estimator, x, x.dtype());  // the name's check
  }
  return uniform_edges(u, dd ? u.compute : u.bin_type, count, flat.device(), op);
}

// The bin of each value among the edges (the last bin closed), and whether it is inside.
std::pair<Array, Array> bin_index(const Array& x, const Array& edges) {
  const int64_t nb = edges.size() - 1;
  Array bin = subtract(searchsorted(edges, x, "right"), int64_t{1});
  const Array last_edge = getitem(edges, {Index(int64_t{nb})});
  bin = where(equal(x, last_edge), nb - 1, bin);  // a value on the last edge counts in the last bin
  const Array inside = logical_and(greater_equal(x, getitem(edges, {Index(int64_t{0})})), less_equal(x, last_edge));
  return {clip(bin, Operand(int64_t{0}), Operand(std::max<int64_t>(nb - 1, 0))), inside};
}

}  // namespace

Array histogram_bin_edges(const Array& a, const HistogramBins& bins, std::optional<std::pair<double, double>> range) {
  return edges_of(ravel(a), bins, range, "histogram_bin_edges", false);
}

std::pair<Array, Array> histogram_with_edges(const Array& a, const Array& edges, const std::optional<Array>& weights,
                                             bool density) {
  auto [hist, all_edges] = histogramdd(reshape(ravel(a), {a.size(), 1}), {HistogramBins{std::nullopt, edges, ""}}, {},
                                       weights ? std::optional<Array>(ravel(*weights)) : std::nullopt, density);
  if (!weights && !density) hist = hist.astype(DType::int64);  // NumPy's histogram counts are integers
  return {hist, all_edges[0]};
}

std::pair<Array, std::vector<Array>> histogramdd(const Array& sample, const std::vector<HistogramBins>& bins,
                                                 const std::vector<std::optional<std::pair<double, double>>>& range,
                                                 const std::optional<Array>& weights, bool density) {
  const char* op = "histogramdd";
  if (sample.ndim() != 2) throw_value_error(op, "sample must be of shape (N, D), not " + shape_str(sample.shape()));
  if (is_complex(sample.dtype())) throw_dtype_error(op, "complex samples are not supported");
  const int64_t N = sample.shape()[0], D = sample.shape()[1];
  if (bins.size() != 1 && static_cast<int64_t>(bins.size()) != D)
    throw_value_error(op, "The dimension of bins must be equal to the dimension of the sample x.");
  if (!range.empty() && range.size() != 1 && static_cast<int64_t>(range.size()) != D)
    throw_value_error(op, "range argument must have one entry per dimension");
  if (weights && (weights->ndim() != 1 || weights->size() != N))
    throw_value_error(op, "weights must be 1-d with one value per sample");
  std::vector<Array> edges;
  Shape nbins;
  Array flat = zeros({N}, DType::int64, sample.device());
  Array inside = ones({N}, DType::bool_, sample.device());
  for (int64_t d = 0; d < D; ++d) {
    const Array col = getitem(sample, {Index(Slice{}), Index(d)});
    const auto r = range.empty() ? std::nullopt : range[range.size() == 1 ? 0 : static_cast<size_t>(d)];
    edges.push_back(edges_of(col, bins[bins.size() == 1 ? 0 : static_cast<size_t>(d)], r, op, true));
    const int64_t nb = edges.back().size() - 1;
    if (nb < 1) throw_value_error(op, "bins must have at least two edges");
    auto [bin, in] = bin_index(col.astype(DType::float64), edges.back().astype(DType::float64));
    flat = add(multiply(flat, nb), bin);  // row-major: the last dimension varies fastest
    inside = logical_and(inside, in);
    nbins.push_back(nb);
  }
  const int64_t total = shape_size(nbins);
  Array w = weights ? weights->astype(DType::float64) : ones({N}, DType::float64, sample.device());
  w = where(inside, w, 0.0);
  Array hist = reshape(at_update(zeros({total}, DType::float64, sample.device()), {Index(flat)}, w, AtOp::add), nbins);
  if (density) {  // NumPy: divided by each dimension's widths, then by the total
    const Array total = sum(hist);
    for (int64_t d = 0; d < D; ++d) {  // divide by each dimension's widths, broadcast along it
      const Array& e = edges[static_cast<size_t>(d)];
      Shape s(static_cast<size_t>(D), 1);
      s[static_cast<size_t>(d)] = nbins[static_cast<size_t>(d)];
      const Array widths = subtract(getitem(e, {Index(Slice{1, std::nullopt, std::nullopt})}),
                                    getitem(e, {Index(Slice{std::nullopt, -1, std::nullopt})}));
      hist = divide(hist, reshape(widths.astype(DType::float64), s));
    }
    hist = divide(hist, total);
  }
  return {hist, edges};  // float64 counts, as NumPy's histogramdd
}

}  // namespace loom
