// Bindings of numpy's NaN-ignoring reductions (ops/nan_reduce.h) and of diff, ptp, average,
// meshgrid and indices (ops/numeric.h).
#include <nanobind/stl/string.h>

#include <stdexcept>

#include "bindings.h"
#include "loom/ops/nan_reduce.h"
#include "loom/ops/numeric.h"

namespace loom::py {
namespace {

using SumLike = Array (*)(const Array&, const AxisArg&, bool, std::optional<DType>);
using VarLike = Array (*)(const Array&, const AxisArg&, bool, std::optional<DType>, double);
using MaxLike = Array (*)(const Array&, const AxisArg&, bool);
using ArgLike = Array (*)(const Array&, std::optional<int64_t>, bool);

nb::list to_list(const std::vector<Array>& xs) {
  nb::list l;
  for (const Array& x : xs) l.append(nb::cast(x));
  return l;
}

nb::tuple to_tuple(const std::vector<Array>& xs) { return nb::tuple(to_list(xs)); }

}  // namespace

LOOM_BINDING_FAMILY(numpy_extras, 33) {
  const nb::handle none = nb::none();
  struct SumDef { const char* name; SumLike fn; const char* doc; };
  for (const SumDef& d : {SumDef{"nansum", &nansum, "numpy.nansum: the sum with NaNs treated as zero."},
                          SumDef{"nanprod", &nanprod, "numpy.nanprod: the product with NaNs treated as one."},
                          SumDef{"nanmean", &nanmean, "numpy.nanmean: the mean of the non-NaN elements (NaN for none)."}}) {
    SumLike fn = d.fn;
    m.def(d.name, [fn, name = d.name](nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out, bool keepdims) {
            return write_out(out, fn(to_array(a), to_axes(axis, name), keepdims, to_optional_dtype(dtype)), name);
          },
          nb::arg("a"), nb::arg("axis").none() = none, nb::arg("dtype").none() = none, nb::arg("out").none() = none,
          nb::arg("keepdims") = false, d.doc);
  }
  struct VarDef { const char* name; VarLike fn; const char* doc; };
  for (const VarDef& d : {VarDef{"nanvar", &nanvar, "numpy.nanvar: the variance of the non-NaN elements."},
                          VarDef{"nanstd", &nanstd, "numpy.nanstd: the standard deviation of the non-NaN elements."}}) {
    VarLike fn = d.fn;
    m.def(d.name, [fn, name = d.name](nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out, double ddof,
                                      bool keepdims) {
            return write_out(out, fn(to_array(a), to_axes(axis, name), keepdims, to_optional_dtype(dtype), ddof), name);
          },
          nb::arg("a"), nb::arg("axis").none() = none, nb::arg("dtype").none() = none, nb::arg("out").none() = none,
          nb::arg("ddof") = 0.0, nb::arg("keepdims") = false, d.doc);
  }
  struct MaxDef { const char* name; MaxLike fn; const char* doc; };
  for (const MaxDef& d : {MaxDef{"nanmax", &nanmax, "numpy.nanmax: the maximum ignoring NaNs (NaN for a slice of NaNs)."},
                          MaxDef{"nanmin", &nanmin, "numpy.nanmin: the minimum ignoring NaNs (NaN for a slice of NaNs)."},
                          MaxDef{"ptp", &ptp, "numpy.ptp: max - min along axis."}}) {
    MaxLike fn = d.fn;
    m.def(d.name, [fn, name = d.name](nb::handle a, nb::handle axis, nb::handle out, bool keepdims) {
            return write_out(out, fn(to_array(a), to_axes(axis, name), keepdims), name);
          },
          nb::arg("a"), nb::arg("axis").none() = none, nb::arg("out").none() = none, nb::arg("keepdims") = false,
          d.doc);
  }
  struct ArgDef { const char* name; ArgLike fn; const char* doc; };
  for (const ArgDef& d : {ArgDef{"nanargmax", &nanargmax, "numpy.nanargmax: argmax ignoring NaNs."},
                          ArgDef{"nanargmin", &nanargmin, "numpy.nanargmin: argmin ignoring NaNs."}}) {
    ArgLike fn = d.fn;
    m.def(d.name, [fn, name = d.name](nb::handle a, nb::handle axis, nb::handle out, bool keepdims) {
            return write_out(out, fn(to_array(a), to_optional_int_arg(axis, name, "axis"), keepdims), name);
          },
          nb::arg("a"), nb::arg("axis").none() = none, nb::arg("out").none() = none, nb::kw_only(),
          nb::arg("keepdims") = false, d.doc);
  }
  m.def(
      "diff",
      [](nb::handle a, int64_t n, int64_t axis, nb::handle prepend, nb::handle append) {
        const Array x = to_array(a);
        return diff(x, n, axis, to_optional_array(prepend, x.device()), to_optional_array(append, x.device()));
      },
      nb::arg("a"), nb::arg("n") = 1, nb::arg("axis") = -1, nb::arg("prepend").none() = none,
      nb::arg("append").none() = none, "numpy.diff: the n-th discrete difference along axis.");
  m.def(
      "average",
      [](nb::handle a, nb::handle axis, nb::handle weights, bool returned, bool keepdims) -> nb::object {
        const Array x = to_array(a);
        const std::optional<Array> w = to_optional_array(weights, x.device());
        std::pair<Array, Array> r;
        try {
          r = average(x, to_axes(axis, "average"), w, keepdims);
        } catch (const std::domain_error& e) {  // NumPy's error type for weights summing to zero
          PyErr_SetString(PyExc_ZeroDivisionError, e.what());
          throw nb::python_error();
        }
        if (!returned) return nb::cast(r.first);
        return nb::make_tuple(r.first, r.second);
      },
      nb::arg("a"), nb::arg("axis").none() = none, nb::arg("weights").none() = none, nb::arg("returned") = false,
      nb::kw_only(), nb::arg("keepdims") = false,
      "numpy.average: the (weighted) mean along axis; returned=True adds the sum of the weights.");
  m.def(
      "meshgrid",
      [](nb::args xs, bool copy, bool sparse, const std::string& indexing) {
        std::vector<Array> arrays;
        std::optional<Device> device;
        for (nb::handle x : xs) {
          arrays.push_back(to_array(x, device));
          device = arrays.back().device();
        }
        // A tuple, as NumPy 2, CuPy and the Array API standard since 2025.12 return it.
        return to_tuple(meshgrid(arrays, copy, sparse, indexing));
      },
      nb::arg("xi"), nb::kw_only(), nb::arg("copy") = true, nb::arg("sparse") = false, nb::arg("indexing") = "xy",
      "numpy.meshgrid: coordinate arrays from coordinate vectors ('xy' or 'ij' indexing), as a tuple.");
  m.def(
      "indices",
      [](nb::handle dims, nb::handle dtype, bool sparse, nb::handle device) -> nb::object {
        const std::vector<Array> r = indices(to_shape(dims), dtype.is_none() ? DType::int64 : to_dtype(dtype), sparse,
                                             to_optional_device(device));
        if (sparse) return to_tuple(r);
        return nb::cast(r[0]);
      },
      nb::arg("dimensions"), nb::arg("dtype").none() = none, nb::arg("sparse") = false, nb::kw_only(),
      nb::arg("device").none() = none, "numpy.indices: the index grids of an array of the given shape.");
}

}  // namespace loom::py
