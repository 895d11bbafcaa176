// Bindings of numpy's insert, delete, resize, trim_zeros, choose, rollaxis and row_stack
// (ops/insert_delete.h).
#include <nanobind/stl/string.h>

#include "bindings.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/insert_delete.h"

namespace loom::py {
namespace {

// insert's and delete's obj: a slice, an integer, or indices / a mask on arr's device (an
// empty sequence, not an array, as int64, as NumPy types it).
Index obj_index(nb::handle obj, const Array& arr, const char* op) {
  PyObject* p = obj.ptr();
  if (PySlice_Check(p)) {
    Py_ssize_t start, stop, step;  // None becomes the extreme values, which clip as None does
    if (PySlice_Unpack(p, &start, &stop, &step) < 0) throw nb::python_error();
    return Index(Slice{start, stop, step});
  }
  if (!PyBool_Check(p) && !nb::isinstance<Array>(obj) && !nb::hasattr(obj, "__array__") && PyIndex_Check(p))
    return Index(to_int_arg(obj, op, "obj"));
  Array a = to_array(obj, arr.device());
  if (a.size() == 0 && !nb::isinstance<Array>(obj) && !nb::hasattr(obj, "__array__")) a = a.astype(DType::int64);
  return Index(a);
}

}  // namespace

LOOM_BINDING_FAMILY(insert_delete, 39) {
  const nb::handle none = nb::none();
  m.def(
      "insert",
      [](nb::handle arr, nb::handle obj, nb::handle values, nb::handle axis) {
        const Array a = to_array(arr);
        return insert(a, obj_index(obj, a, "insert"), to_array(values, a.device()),
                      to_optional_int_arg(axis, "insert", "axis"));
      },
      nb::arg("arr"), nb::arg("obj"), nb::arg("values"), nb::arg("axis").none() = none,
      "numpy.insert: values inserted before the indices obj along axis (the flattened arr when None).");
  m.def(
      "delete",
      [](nb::handle arr, nb::handle obj, nb::handle axis) {
        const Array a = to_array(arr);
        return delete_(a, obj_index(obj, a, "delete"), to_optional_int_arg(axis, "delete", "axis"));
      },
      nb::arg("arr"), nb::arg("obj"), nb::arg("axis").none() = none,
      "numpy.delete: arr without the sub-arrays at obj (integer, slice, indices or mask) along axis (the "
      "flattened arr when None).");
  m.def(
      "resize", [](nb::handle a, nb::handle new_shape) { return resize(to_array(a), to_shape(new_shape)); },
      nb::arg("a"), nb::arg("new_shape"),
      "numpy.resize: a new array of new_shape filled with a's elements repeated cyclically.");
  m.def(
      "trim_zeros",
      [](nb::handle filt, const std::string& trim, nb::handle axis) {
        return trim_zeros(to_array(filt), trim, to_axes(axis, "trim_zeros"));
      },
      nb::arg("filt"), nb::arg("trim") = "fb", nb::arg("axis").none() = none,
      "numpy.trim_zeros: filt without its leading ('f') and/or trailing ('b') zeros along axis (every axis "
      "when None); waits for the device.");
  m.def(
      "choose",
      [](nb::handle a, nb::handle choices, nb::handle out, const std::string& mode) -> nb::object {
        const std::vector<Array> cs = to_arrays(choices);
        const Array x = to_array(a, nb::isinstance<Array>(a) || cs.empty() ? std::nullopt : std::optional(cs[0].device()));
        const Array r = choose(x, cs, mode);
        const std::optional<Array> o = to_out_arg(out, "choose");
        if (!o) return nb::cast(r);
        if (o->shape() != r.shape()) throw std::invalid_argument("[choose] out has the wrong shape");
        copyto(*o, r);
        return nb::borrow(nb::isinstance<Array>(out) ? out : out[0]);
      },
      nb::arg("a"), nb::arg("choices"), nb::arg("out").none() = none, nb::arg("mode") = "raise",
      "numpy.choose: out[i] = choices[a[i]][i], all broadcast together; mode 'raise', 'wrap' or 'clip'.");
  m.def(
      "rollaxis", [](nb::handle a, int64_t axis, int64_t start) { return rollaxis(to_array(a), axis, start); },
      nb::arg("a"), nb::arg("axis"), nb::arg("start") = 0,
      "numpy.rollaxis: axis moved to sit before position start (a view).");
  m.def(
      "row_stack",
      [](nb::handle tup, nb::handle dtype, const std::string& casting) {
        return row_stack(to_arrays(tup), to_optional_dtype(dtype), casting);
      },
      nb::arg("tup"), nb::kw_only(), nb::arg("dtype").none() = none, nb::arg("casting") = "same_kind",
      "numpy.row_stack: NumPy's deprecated alias of vstack.");
}

}  // namespace loom::py
