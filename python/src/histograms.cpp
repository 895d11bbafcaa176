// Bindings of numpy's histogram_bin_edges, histogramdd and histogram2d (ops/histograms.h),
// and the bins/range argument conversions histogram shares (sets_counts.cpp).
#include <nanobind/stl/string.h>

#include "histogram_args.h"
#include "loom/ops/shape_ops.h"

namespace loom::py {

HistogramBins to_histogram_bins(nb::handle bins, const Device& device, const char* op) {
  HistogramBins b;
  if (PyLong_Check(bins.ptr()) && !PyBool_Check(bins.ptr())) b.count = nb::cast<int64_t>(bins);
  else if (nb::isinstance<nb::str>(bins)) b.estimator = nb::cast<std::string>(bins);
  else if (nb::isinstance<Array>(bins) || nb::hasattr(bins, "__len__")) b.edges = to_array(bins, device);
  else throw nb::type_error((std::string("[") + op + "] bins must be an int, a sequence of edges or an estimator's name").c_str());
  return b;
}

std::optional<std::pair<double, double>> to_histogram_range(nb::handle range, const char* op) {
  if (range.is_none()) return std::nullopt;
  if (nb::len(range) != 2) throw std::invalid_argument(std::string("[") + op + "] range must be a pair (min, max)");
  return std::make_pair(nb::cast<double>(nb::float_(range[0])), nb::cast<double>(nb::float_(range[1])));
}

namespace {

// histogramdd's bins: one int for all dimensions, or one entry (int or edges) per dimension.
std::vector<HistogramBins> dd_bins(nb::handle bins, const Device& device) {
  if (PyLong_Check(bins.ptr()) || nb::isinstance<nb::str>(bins)) return {to_histogram_bins(bins, device, "histogramdd")};
  std::vector<HistogramBins> out;
  for (nb::handle b : bins) out.push_back(to_histogram_bins(b, device, "histogramdd"));
  return out;
}

std::vector<std::optional<std::pair<double, double>>> dd_range(nb::handle range) {
  std::vector<std::optional<std::pair<double, double>>> out;
  if (range.is_none()) return out;
  for (nb::handle r : range) out.push_back(to_histogram_range(r, "histogramdd"));
  return out;
}

nb::object dd_result(std::pair<Array, std::vector<Array>> r) {
  nb::list edges;
  for (Array& e : r.second) edges.append(nb::cast(std::move(e)));
  return nb::make_tuple(r.first, edges);
}

}  // namespace

LOOM_BINDING_FAMILY(histograms, 37) {
  const nb::handle none = nb::none();
  m.def(
      "histogram_bin_edges",
      [](nb::handle a, nb::handle bins, nb::handle range, nb::handle weights) {
        if (!weights.is_none()) throw std::invalid_argument("[histogram_bin_edges] weights are not used by any estimator");
        const Array x = to_array(a);
        return histogram_bin_edges(x, to_histogram_bins(bins, x.device(), "histogram_bin_edges"),
                                   to_histogram_range(range, "histogram_bin_edges"));
      },
      nb::arg("a"), nb::arg("bins") = 10, nb::arg("range").none() = none, nb::arg("weights").none() = none,
      "numpy.histogram_bin_edges: the edges histogram would use (a count, edges or an estimator's name).");
  m.def(
      "histogramdd",
      [](nb::handle sample, nb::handle bins, nb::handle range, bool density, nb::handle weights) {
        Array s;
        if (nb::isinstance<Array>(sample) || nb::hasattr(sample, "__array__") || nb::hasattr(sample, "__dlpack__")) {
          s = to_array(sample);
          if (s.ndim() == 1) s = reshape(s, {s.size(), 1});
        } else {  // a sequence of D coordinate arrays
          s = nb::cast<Array>(nb::module_::import_("loom").attr("stack")(nb::list(nb::borrow(sample)), -1));
        }
        return dd_result(histogramdd(s, dd_bins(bins, s.device()), dd_range(range), to_optional_array(weights, s.device()),
                                     density));
      },
      nb::arg("sample"), nb::arg("bins") = 10, nb::arg("range").none() = none, nb::arg("density") = false,
      nb::arg("weights").none() = none, "numpy.histogramdd: the histogram of D-dimensional samples: (hist, edges).");
  m.def(
      "histogram2d",
      [](nb::handle x, nb::handle y, nb::handle bins, nb::handle range, bool density, nb::handle weights) {
        const auto [a, b] = to_array_pair(x, y);
        if (a.ndim() != 1 || b.ndim() != 1 || a.size() != b.size())
          throw std::invalid_argument("[histogram2d] x and y must be 1-d and of the same length");
        const Array s = nb::cast<Array>(nb::module_::import_("loom").attr("stack")(nb::make_tuple(a, b), -1));
        // One int or edges array for both, or [bx, by].
        std::vector<HistogramBins> bb;
        if (PyLong_Check(bins.ptr()) || nb::isinstance<Array>(bins) || (nb::hasattr(bins, "__len__") && nb::len(bins) != 2))
          bb = {to_histogram_bins(bins, s.device(), "histogram2d")};
        else
          bb = dd_bins(bins, s.device());
        auto [hist, edges] = histogramdd(s, bb, dd_range(range), to_optional_array(weights, s.device()), density);
        return nb::make_tuple(hist, edges[0], edges[1]);
      },
      nb::arg("x"), nb::arg("y"), nb::arg("bins") = 10, nb::arg("range").none() = none, nb::arg("density") = false,
      nb::arg("weights").none() = none, "numpy.histogram2d: the 2-d histogram of x and y: (hist, xedges, yedges).");
}

}  // namespace loom::py
