// Sorting and searching: sort, argsort, unique, searchsorted, and the ndarray methods
// sort (in place), argsort, searchsorted. NumPy's signatures; every sort is stable.
#include <nanobind/stl/string.h>

#include <cctype>
#include <string>

#include "bindings.h"

namespace loom::py {
namespace {

// NumPy's kind/stable/order checks: every kind is accepted (loom always sorts stably).
void check_sort_args(nb::handle kind, nb::handle order, nb::handle stable) {
  if (!kind.is_none() && !stable.is_none())
    throw std::invalid_argument("`kind` and keyword parameters can't be provided at the same time. "
                                "Use only one of them.");
  if (!kind.is_none()) {
    if (!nb::isinstance<nb::str>(kind)) throw nb::type_error("sort kind must be a str or None");
    const std::string k = nb::cast<std::string>(kind);
    const char c = k.empty() ? '\0' : static_cast<char>(std::tolower(static_cast<unsigned char>(k[0])));
    if (c != 'q' && c != 'h' && c != 'm' && c != 's')
      throw std::invalid_argument("sort kind must be one of 'quick', 'heap', or 'stable' (got '" + k + "')");
  }
  if (!stable.is_none()) (void)to_bool_arg(stable, "sort", "stable");
  if (!order.is_none()) throw std::invalid_argument("Cannot specify order when the array has no fields.");
}

// axis: None or an int (a tuple is a TypeError, as in NumPy).
std::optional<int64_t> to_sort_axis(nb::handle h) {
  if (PyTuple_Check(h.ptr()) || PyList_Check(h.ptr()))
    throw nb::type_error("axis must be an integer or None");
  const auto axes = to_axes(h, "sort");
  if (!axes) return std::nullopt;
  return (*axes)[0];
}

nb::object unique_py(nb::handle ar, bool return_index, bool return_inverse, bool return_counts,
                     nb::handle axis, bool equal_nan) {
  const Array a = to_array(ar);
  const std::optional<int64_t> ax = to_sort_axis(axis);
  UniqueArrays r;
  {
    nb::gil_scoped_release release;
    r = unique(a, return_index, return_inverse, return_counts, ax, equal_nan);
  }
  if (!return_index && !return_inverse && !return_counts) return nb::cast(r.values);
  nb::list out;
  out.append(nb::cast(r.values));
  if (return_index) out.append(nb::cast(r.index));
  if (return_inverse) out.append(nb::cast(r.inverse));
  if (return_counts) out.append(nb::cast(r.counts));
  return nb::tuple(out);
}

// The Array API's unique_*: NumPy 2's named tuples over unique(); every NaN is its own
// value (equal_nan=False), as the standard says.
nb::object unique_named(nb::handle x, const char* type_name, bool index, bool inverse, bool counts) {
  // The types live as long as the interpreter (never released: teardown order cannot matter).
  static nb::dict& types = *new nb::dict();
  if (!types.contains(type_name)) {
    nb::list fields;
    fields.append("values");
    if (index) fields.append("indices");
    if (inverse) fields.append("inverse_indices");
    if (counts) fields.append("counts");
    nb::object t = nb::module_::import_("collections").attr("namedtuple")(type_name, fields);
    t.attr("__module__") = "loom";
    types[type_name] = t;
  }
  const Array a = to_array(x);
  UniqueArrays r;
  {
    nb::gil_scoped_release release;
    r = unique(a, index, inverse, counts, std::nullopt, /*equal_nan=*/false);
  }
  nb::list out;
  out.append(nb::cast(r.values));
  if (index) out.append(nb::cast(r.index));
  if (inverse) out.append(nb::cast(r.inverse));
  if (counts) out.append(nb::cast(r.counts));
  return types[type_name](*out);
}

Array searchsorted_py(const Array& a, nb::handle v, const std::string& side, nb::handle sorter) {
  const Array va = to_array(v, a.device());
  std::optional<Array> s;
  if (!sorter.is_none()) s = to_array(sorter, a.device());
  nb::gil_scoped_release release;
  return searchsorted(a, va, side, s);
}

}  // namespace

LOOM_BINDING_FAMILY(sorting, 40) {
  m.def(
      "sort",
      [](nb::handle a, nb::handle axis, nb::handle kind, nb::handle order, nb::handle stable, nb::handle descending) {
        check_sort_args(kind, order, stable);
        const bool desc = to_bool_arg(descending, "sort", "descending");
        const Array x = to_array(a);
        const std::optional<int64_t> ax = to_sort_axis(axis);
        nb::gil_scoped_release release;
        return sort(x, ax, desc);
      },
      nb::arg("a"), nb::arg("axis").none() = -1, nb::arg("kind").none() = nb::none(),
      nb::arg("order").none() = nb::none(), nb::kw_only(), nb::arg("stable").none() = nb::none(),
      nb::arg("descending") = false,
      "Return a sorted copy of an array along `axis` (None: the flattened array).\n\n"
      "The sort is always stable (equal elements keep their order), whatever `kind` or\n"
      "`stable` say; NaNs sort to the end and -0.0 equals 0.0, as in NumPy. descending=True\n"
      "(the Array API's) sorts largest first, NaNs first.");
  m.def(
      "argsort",
      [](nb::handle a, nb::handle axis, nb::handle kind, nb::handle order, nb::handle stable, nb::handle descending) {
        check_sort_args(kind, order, stable);
        const bool desc = to_bool_arg(descending, "argsort", "descending");
        const Array x = to_array(a);
        const std::optional<int64_t> ax = to_sort_axis(axis);
        nb::gil_scoped_release release;
        return argsort(x, ax, desc);
      },
      nb::arg("a"), nb::arg("axis").none() = -1, nb::arg("kind").none() = nb::none(),
      nb::arg("order").none() = nb::none(), nb::kw_only(), nb::arg("stable").none() = nb::none(),
      nb::arg("descending") = false,
      "Return the int64 indices that sort an array along `axis` (None: flattened).\n\n"
      "Stable, as NumPy's kind='stable': equal elements keep their order (with descending=True,\n"
      "the Array API's, too: largest first); NaNs go last (first when descending).");
  m.def("unique", &unique_py, nb::arg("ar"), nb::arg("return_index") = false, nb::arg("return_inverse") = false,
        nb::arg("return_counts") = false, nb::arg("axis").none() = nb::none(), nb::kw_only(),
        nb::arg("equal_nan") = true,
        "Find the sorted unique elements of an array (flattened), or with `axis` its\n"
        "unique slices along that axis (in lexicographic order).\n\n"
        "Optionally also returns the index of each value's first occurrence, the inverse\n"
        "(input's shape; values[inverse] rebuilds the input; one entry per slice with\n"
        "`axis`) and the counts, in that order, as a tuple. With equal_nan=True (NumPy 2's\n"
        "default) all NaNs count as one value; a slice holding a NaN is always its own. The\n"
        "GPU waits once for the number of unique values, as CuPy does.");
  m.def("unique_all", [](nb::handle x) { return unique_named(x, "UniqueAllResult", true, true, true); }, nb::arg("x"),
        "The Array API's unique_all: (values, indices, inverse_indices, counts) of the flattened array, a named "
        "tuple. values are sorted; indices give each value's first occurrence; inverse_indices has x's shape; "
        "every NaN is a distinct value.");
  m.def("unique_counts", [](nb::handle x) { return unique_named(x, "UniqueCountsResult", false, false, true); },
        nb::arg("x"), "The Array API's unique_counts: (values, counts), a named tuple (NaNs distinct).");
  m.def("unique_inverse", [](nb::handle x) { return unique_named(x, "UniqueInverseResult", false, true, false); },
        nb::arg("x"),
        "The Array API's unique_inverse: (values, inverse_indices), a named tuple; inverse_indices has x's "
        "shape and values[inverse_indices] is x (NaNs distinct).");
  m.def(
      "unique_values",
      [](nb::handle x) {
        const Array a = to_array(x);
        nb::gil_scoped_release release;
        return unique(a, false, false, false, std::nullopt, /*equal_nan=*/false).values;
      },
      nb::arg("x"), "The Array API's unique_values: the sorted unique values of the flattened array (NaNs distinct).");
  m.def(
      "searchsorted",
      [](nb::handle a, nb::handle v, const std::string& side, nb::handle sorter) {
        return searchsorted_py(to_array(a), v, side, sorter);
      },
      nb::arg("a"), nb::arg("v"), nb::arg("side") = "left", nb::arg("sorter").none() = nb::none(),
      "Find the int64 indices where the elements of `v` would be inserted into the sorted\n"
      "1-d array `a` to keep it sorted. side='left' gives the first suitable position,\n"
      "'right' the last. `sorter`: integer indices that sort `a` (e.g. argsort(a)); an\n"
      "out-of-range index raises ValueError (on the GPU that check waits for the GPU).\n"
      "a and v are compared in their promoted dtype; NaNs are ordered last.");

  cls.def(
      "sort",
      [](const Array& self, nb::handle axis, nb::handle kind, nb::handle order, nb::handle stable) {
        check_sort_args(kind, order, stable);
        if (axis.is_none()) throw nb::type_error("'NoneType' object cannot be interpreted as an integer");
        const int64_t ax = *to_sort_axis(axis);
        nb::gil_scoped_release release;
        sort_inplace(self, ax);
      },
      nb::arg("axis").none() = -1, nb::arg("kind").none() = nb::none(), nb::arg("order").none() = nb::none(),
      nb::kw_only(), nb::arg("stable").none() = nb::none(),
      "Sort the array in place along `axis` (stable; NaNs last). Returns None.");
  cls.def(
      "argsort",
      [](const Array& self, nb::handle axis, nb::handle kind, nb::handle order, nb::handle stable) {
        check_sort_args(kind, order, stable);
        const std::optional<int64_t> ax = to_sort_axis(axis);
        nb::gil_scoped_release release;
        return argsort(self, ax);
      },
      nb::arg("axis").none() = -1, nb::arg("kind").none() = nb::none(), nb::arg("order").none() = nb::none(),
      nb::kw_only(), nb::arg("stable").none() = nb::none(),
      "The int64 indices that sort the array along `axis` (stable). See loom.argsort.");
  cls.def("searchsorted", &searchsorted_py, nb::arg("v"), nb::arg("side") = "left",
          nb::arg("sorter").none() = nb::none(),
          "Insertion points of `v` into this sorted 1-d array. See loom.searchsorted.");
}

}  // namespace loom::py
