// Bindings of numpy's column_stack, dstack, hsplit, vsplit, dsplit, append, rot90, unstack
// and kron (ops/stacking.h), and of the Array API's spellings concat, permute_dims and
// matrix_transpose.
#include "bindings.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/stacking.h"

namespace loom::py {
namespace {

using SplitFn = std::vector<Array> (*)(const Array&, int64_t);
using SplitAtFn = std::vector<Array> (*)(const Array&, const std::vector<int64_t>&);

// An int: equal sections; a sequence: the indices to split at.
nb::object split_either(nb::handle ary, nb::handle ios, SplitFn by_count, SplitAtFn at, const char* op) {
  const Array a = to_array(ary);
  if (PyLong_Check(ios.ptr()) || PyIndex_Check(ios.ptr())) return arrays_list(by_count(a, to_int_arg(ios, op, "indices_or_sections")));
  std::vector<int64_t> idx;
  for (nb::handle h : ios) idx.push_back(to_int_arg(h, op, "indices_or_sections"));
  return arrays_list(at(a, idx));
}

}  // namespace

LOOM_BINDING_FAMILY(stacking, 34) {
  const nb::handle none = nb::none();
  m.def("column_stack", [](nb::handle tup) { return column_stack(to_arrays(tup)); }, nb::arg("tup"),
        "numpy.column_stack: 1-d arrays as columns, others joined along axis 1.");
  m.def("dstack", [](nb::handle tup) { return dstack(to_arrays(tup)); }, nb::arg("tup"),
        "numpy.dstack: joined along axis 2 after making each array at least 3-d.");
  m.def("hsplit", [](nb::handle a, nb::handle ios) { return split_either(a, ios, &hsplit, &hsplit_at, "hsplit"); },
        nb::arg("ary"), nb::arg("indices_or_sections"), "numpy.hsplit: split along axis 1 (axis 0 for 1-d).");
  m.def("vsplit", [](nb::handle a, nb::handle ios) { return split_either(a, ios, &vsplit, &vsplit_at, "vsplit"); },
        nb::arg("ary"), nb::arg("indices_or_sections"), "numpy.vsplit: split along axis 0 (at least 2-d).");
  m.def("dsplit", [](nb::handle a, nb::handle ios) { return split_either(a, ios, &dsplit, &dsplit_at, "dsplit"); },
        nb::arg("ary"), nb::arg("indices_or_sections"), "numpy.dsplit: split along axis 2 (at least 3-d).");
  m.def(
      "append",
      [](nb::handle arr, nb::handle values, nb::handle axis) {
        const Array a = to_array(arr);
        return append(a, to_array(values, a.device()), to_optional_int_arg(axis, "append", "axis"));
      },
      nb::arg("arr"), nb::arg("values"), nb::arg("axis").none() = none,
      "numpy.append: values joined to arr along axis (both flattened when None).");
  m.def(
      "rot90",
      [](nb::handle a, int64_t k, nb::handle axes) {
        int64_t a0 = 0, a1 = 1;
        if (!axes.is_none()) {
          std::vector<int64_t> ax;
          for (nb::handle h : axes) ax.push_back(to_int_arg(h, "rot90", "axes"));
          if (ax.size() != 2) throw std::invalid_argument("[rot90] len(axes) must be 2.");
          a0 = ax[0];
          a1 = ax[1];
        }
        return rot90(to_array(a), k, a0, a1);
      },
      nb::arg("m"), nb::arg("k") = 1, nb::arg("axes").none() = none,
      "numpy.rot90: rotated by 90 degrees k times in the plane of axes (a view).");
  m.def("unstack", [](nb::handle a, int64_t axis) { return nb::tuple(arrays_list(unstack(to_array(a), axis))); },
        nb::arg("x"), nb::kw_only(), nb::arg("axis") = 0, "The Array API's unstack: the views along axis, a tuple.");
  m.def(
      "kron",
      [](nb::handle a, nb::handle b) {
        const Array x = to_array(a);
        return kron(x, to_array(b, x.device()));
      },
      nb::arg("a"), nb::arg("b"), "numpy.kron: the Kronecker product.");
  m.def(
      "concat",
      [](nb::handle arrays, nb::handle axis) {
        return concatenate(to_arrays(arrays), to_optional_int_arg(axis, "concat", "axis"));
      },
      nb::arg("arrays"), nb::kw_only(), nb::arg("axis").none() = 0, "The Array API's concat (numpy.concatenate).");
  m.def(
      "permute_dims", [](nb::handle a, nb::handle axes) { return transpose(to_array(a), to_axes(axes, "permute_dims")); },
      nb::arg("x"), nb::arg("axes"), "The Array API's permute_dims (numpy.transpose).");
  m.def(
      "matrix_transpose", [](nb::handle a) { return matrix_transpose(to_array(a)); },
      nb::arg("x"), "The Array API's matrix_transpose: the last two axes swapped (a view).");
}

}  // namespace loom::py
