// Bindings of numpy's isin, intersect1d, union1d, setdiff1d, setxor1d, digitize, bincount,
// histogram, cov and corrcoef (ops/sets_counts.h).
#include <stdexcept>

#include "histogram_args.h"
#include "loom/ops/sets_counts.h"

namespace loom::py {
namespace {

std::pair<Array, Array> pair_on_one_device(nb::handle a, nb::handle b) {
  const Array x = to_array(a);
  return {x, to_array(b, x.device())};
}

}  // namespace

LOOM_BINDING_FAMILY(sets_counts, 36) {
  const nb::handle none = nb::none();
  m.def(
      "isin",
      [](nb::handle element, nb::handle test, bool, bool invert) {
        auto [e, t] = pair_on_one_device(element, test);
        return isin(e, t, invert);
      },
      nb::arg("element"), nb::arg("test_elements"), nb::arg("assume_unique") = false, nb::arg("invert") = false,
      "numpy.isin: whether each element is in test_elements.");
  m.def(
      "intersect1d",
      [](nb::handle a, nb::handle b, bool assume_unique, bool return_indices) -> nb::object {
        auto [x, y] = pair_on_one_device(a, b);
        if (!return_indices) return nb::cast(intersect1d(x, y));
        Intersection r = intersect1d_indices(x, y, assume_unique);
        return nb::make_tuple(r.values, r.index_a, r.index_b);
      },
      nb::arg("ar1"), nb::arg("ar2"), nb::arg("assume_unique") = false, nb::arg("return_indices") = false,
      "numpy.intersect1d: the sorted unique values in both arrays; with return_indices, also the index of "
      "each in the flattened ar1 and ar2 (their first occurrences).");
  m.def("union1d", [](nb::handle a, nb::handle b) { auto [x, y] = pair_on_one_device(a, b); return union1d(x, y); },
        nb::arg("ar1"), nb::arg("ar2"), "numpy.union1d: the sorted unique values in either array.");
  m.def(
      "setdiff1d",
      [](nb::handle a, nb::handle b, bool assume_unique) {
        auto [x, y] = pair_on_one_device(a, b);
        return setdiff1d(x, y, assume_unique);
      },
      nb::arg("ar1"), nb::arg("ar2"), nb::arg("assume_unique") = false,
      "numpy.setdiff1d: the sorted unique values of ar1 that are not in ar2.");
  m.def("setxor1d", [](nb::handle a, nb::handle b) { auto [x, y] = pair_on_one_device(a, b); return setxor1d(x, y); },
        nb::arg("ar1"), nb::arg("ar2"), "numpy.setxor1d: the sorted unique values in exactly one of the arrays.");
  m.def(
      "digitize",
      [](nb::handle x, nb::handle bins, bool right) {
        auto [a, b] = pair_on_one_device(x, bins);
        return digitize(a, b, right);
      },
      nb::arg("x"), nb::arg("bins"), nb::arg("right") = false, "numpy.digitize: the bin index of each value.");
  m.def(
      "bincount",
      [](nb::handle x, nb::handle weights, int64_t minlength) {
        const Array a = to_array(x);
        return bincount(a, to_optional_array(weights, a.device()), minlength);
      },
      nb::arg("x"), nb::arg("weights").none() = none, nb::arg("minlength") = 0,
      "numpy.bincount: occurrences (or summed weights) of each non-negative integer.");
  m.def(
      "histogram",
      [](nb::handle a, nb::handle bins, nb::handle range, bool density, nb::handle weights) {
        const Array x = to_array(a);
        const std::optional<std::pair<double, double>> r = to_histogram_range(range, "histogram");
        if (!PyLong_Check(bins.ptr())) {  // edges or an estimator's name (ops/histograms.h)
          const HistogramBins b = to_histogram_bins(bins, x.device(), "histogram");
          if (!b.edges && !weights.is_none())
            throw nb::type_error("[histogram] Automated estimation of the number of bins is not supported for weighted data");
          const Array e = histogram_bin_edges(x, b, r);
          if (!b.edges) {  // NumPy counts an estimator's equal bins as it does a number of bins
            auto [hist, edges] = histogram(x, e.size() - 1, r, std::nullopt, density);
            return nb::make_tuple(hist, edges);
          }
          auto [hist, edges] = histogram_with_edges(x, e, to_optional_array(weights, x.device()), density);
          return nb::make_tuple(hist, edges);
        }
        auto [hist, edges] = histogram(x, nb::cast<int64_t>(bins), r, to_optional_array(weights, x.device()), density);
        return nb::make_tuple(hist, edges);
      },
      nb::arg("a"), nb::arg("bins") = 10, nb::arg("range").none() = none, nb::arg("density") = false,
      nb::arg("weights").none() = none,
      "numpy.histogram: (counts, edges) over equal bins, given edges, or an estimator's bins.");
  m.def(
      "cov",
      [](nb::handle m_, nb::handle y, bool rowvar, bool bias, nb::handle ddof) {
        const Array x = to_array(m_);
        return cov(x, to_optional_array(y, x.device()), rowvar, bias, to_optional_int_arg(ddof, "cov", "ddof"));
      },
      nb::arg("m"), nb::arg("y").none() = none, nb::arg("rowvar") = true, nb::arg("bias") = false,
      nb::arg("ddof").none() = none, "numpy.cov: the covariance matrix of the variables (rows when rowvar).");
  m.def(
      "corrcoef",
      [](nb::handle x, nb::handle y, bool rowvar) {
        const Array a = to_array(x);
        return corrcoef(a, to_optional_array(y, a.device()), rowvar);
      },
      nb::arg("x"), nb::arg("y").none() = none, nb::arg("rowvar") = true,
      "numpy.corrcoef: the correlation coefficients (cov normalised, clipped to [-1, 1]).");
}

}  // namespace loom::py
