// Bindings of numpy's quantile, percentile and median (ops/quantiles.h).
#include <nanobind/stl/string.h>

#include <stdexcept>

#include "bindings.h"
#include "loom/ops/quantiles.h"

namespace loom::py {
namespace {

// q as host values and its shape (q may be a Python number, a sequence or an array; a loom
// array is read back), scaled by 1 / scale (100 for percentiles).
std::pair<std::vector<double>, Shape> host_q(nb::handle q, double scale) {
  nb::object np = nb::borrow(numpy_module());
  nb::object src = nb::isinstance<Array>(q) ? nb::cast(nb::cast<const Array&>(q).copy_to(loom::cpu())) : nb::borrow(q);
  nb::object arr = np.attr("asarray")(src, "float64");
  Shape shape;
  for (nb::handle d : arr.attr("shape")) shape.push_back(nb::cast<int64_t>(d));
  std::vector<double> v;
  for (nb::handle x : arr.attr("ravel")().attr("tolist")()) v.push_back(nb::cast<double>(x) / scale);
  return {v, shape};
}

nb::object quantile_py(const char* op, nb::handle a, nb::handle q, nb::handle axis, nb::handle out,
                       const std::string& method, bool keepdims, double scale, bool ignore_nan = false) {
  if (!out.is_none()) throw std::invalid_argument(std::string("[") + op + "] out= is not supported");
  auto [qs, shape] = host_q(q, scale);
  for (double v : qs)
    if (!(v >= 0.0 && v <= 1.0))
      throw std::invalid_argument(std::string("[") + op + "] " +
                                  (scale == 1 ? "Quantiles must be in the range [0, 1]" : "Percentiles must be in the range [0, 100]"));
  auto fn = ignore_nan ? &nanquantile : &quantile;
  Array r = fn(to_array(a), qs, shape, to_axes(axis, op), method, keepdims);
  // NumPy: interpolated results promote with an array q's dtype (a Python float q is weak),
  // so float32 data with q=[0.1, 0.9] gives float64.
  const bool interpolated = method == "linear" || method == "midpoint";
  const bool weak_q = PyFloat_Check(q.ptr()) || PyLong_Check(q.ptr());
  if (interpolated && !weak_q && is_floating(r.dtype())) {
    nb::object q_arr = nb::isinstance<Array>(q) ? nb::borrow(q) : nb::borrow(numpy_module()).attr("asarray")(q);
    const DType qt = to_dtype(q_arr.attr("dtype"));
    const DType t = promote_types(r.dtype(), is_floating(qt) ? qt : DType::float64);
    if (t != r.dtype()) r = r.astype(t);
  }
  return nb::cast(r);
}

}  // namespace

LOOM_BINDING_FAMILY(quantiles, 35) {
  const nb::handle none = nb::none();
  // quantile, percentile and their nan* forms: one binding each from this table.
  struct Q { const char* name; double scale; bool ignore_nan; const char* doc; };
  for (const Q& q : {Q{"quantile", 1.0, false, "numpy.quantile: the q-th quantiles along axis (methods linear, lower, higher, nearest, midpoint)."},
                     Q{"percentile", 100.0, false, "numpy.percentile: the q-th percentiles along axis (q in [0, 100])."},
                     Q{"nanquantile", 1.0, true, "numpy.nanquantile: quantile ignoring NaNs (an all-NaN slice gives NaN)."},
                     Q{"nanpercentile", 100.0, true, "numpy.nanpercentile: percentile ignoring NaNs (an all-NaN slice gives NaN)."}}) {
    m.def(
        q.name,
        [q](nb::handle a, nb::handle qs, nb::handle axis, nb::handle out, bool, const std::string& method, bool keepdims) {
          return quantile_py(q.name, a, qs, axis, out, method, keepdims, q.scale, q.ignore_nan);
        },
        nb::arg("a"), nb::arg("q"), nb::arg("axis").none() = none, nb::arg("out").none() = none,
        nb::arg("overwrite_input") = false, nb::arg("method") = "linear", nb::arg("keepdims") = false, q.doc);
  }
  using Median = Array (*)(const Array&, const AxisArg&, bool);
  struct M { const char* name; Median fn; const char* doc; };
  for (const M& md : {M{"median", &median, "numpy.median: the middle value along axis (the mean of the middle two)."},
                      M{"nanmedian", &nanmedian, "numpy.nanmedian: the median ignoring NaNs (an all-NaN slice gives NaN)."}}) {
    m.def(
        md.name,
        [md](nb::handle a, nb::handle axis, nb::handle out, bool, bool keepdims) {
          if (!out.is_none()) throw std::invalid_argument(std::string("[") + md.name + "] out= is not supported");
          return md.fn(to_array(a), to_axes(axis, md.name), keepdims);
        },
        nb::arg("a"), nb::arg("axis").none() = none, nb::arg("out").none() = none, nb::arg("overwrite_input") = false,
        nb::arg("keepdims") = false, md.doc);
  }
}

}  // namespace loom::py
