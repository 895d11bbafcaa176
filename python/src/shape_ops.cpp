// Bindings of the shape family (loom/ops/shape_ops.h): module functions with NumPy's
// signatures and the ndarray methods reshape, ravel, flatten, transpose, swapaxes, squeeze,
// repeat, plus the x.shape setter.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>

#include "bindings.h"

namespace loom::py {

// A sequence of array-likes as arrays on one device: the first loom array's, so that lists
// and NumPy inputs join it (loom arrays on other devices then raise DeviceMismatchError).
std::vector<Array> to_arrays(nb::handle seq) {
  std::vector<nb::handle> items;
  nb::object keep;
  if (nb::isinstance<Array>(seq)) {
    // Iterating an array yields its rows, as NumPy does.
    const Array& a = nb::cast<const Array&>(seq);
    if (a.ndim() == 0) throw nb::type_error("iteration over a 0-d array");
    std::vector<Array> rows;
    for (const Array& r : split(a, a.shape()[0] == 0 ? 1 : a.shape()[0], 0))
      rows.push_back(squeeze(r, std::vector<int64_t>{0}));
    if (a.shape()[0] == 0) rows.clear();
    return rows;
  }
  keep = nb::borrow(seq);
  for (nb::handle h : keep) items.push_back(h);
  std::optional<Device> dev;
  for (nb::handle h : items)
    if (nb::isinstance<Array>(h)) {
      dev = nb::cast<const Array&>(h).device();
      break;
    }
  std::vector<Array> out;
  for (nb::handle h : items) out.push_back(to_array(h, dev));
  return out;
}

nb::object arrays_list(std::vector<Array> v) {
  nb::list l;
  for (Array& a : v) l.append(nb::cast(std::move(a)));
  return l;
}

namespace {

int64_t to_int(nb::handle h, const char* what) {
  PyObject* idx = PyNumber_Index(h.ptr());
  if (!idx) {
    PyErr_Clear();
    throw nb::type_error((std::string(what) + " must be an integer").c_str());
  }
  const int64_t v = PyLong_AsLongLong(idx);
  Py_DECREF(idx);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  return v;
}

bool is_int(nb::handle h) {
  return PyLong_Check(h.ptr()) || (PyIndex_Check(h.ptr()) && !nb::isinstance<Array>(h) &&
                                   !PySequence_Check(h.ptr()));
}

char to_order(nb::handle h) {
  if (h.is_none()) return 'C';
  if (!PyUnicode_Check(h.ptr())) throw nb::type_error("order must be a str ('C', 'F' or 'A')");
  const std::string s = nb::cast<std::string>(h);
  if (s.size() != 1 || std::string("CFAKcfak").find(s[0]) == std::string::npos)
    throw std::invalid_argument("order must be one of 'C', 'F', 'A', or 'K' (got '" + s + "')");
  return static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
}

std::optional<bool> to_copy(nb::handle h) { return to_optional_bool_arg(h, "reshape", "copy"); }

std::string pystr(nb::handle h) {
  nb::object s = nb::steal(PyObject_Str(h.ptr()));
  if (!s.is_valid()) throw nb::python_error();
  const char* c = PyUnicode_AsUTF8(s.ptr());
  if (!c) throw nb::python_error();
  return c;
}

// An integer array-like (list, NumPy or loom array) as int64 values; repeats and split
// indices, which NumPy casts with the 'safe' rule.
std::vector<int64_t> to_int_vector(nb::handle h, const char* what) {
  nb::handle np = numpy_module();
  // An empty list is no float array here: NumPy's split takes [] as "no indices".
  if ((PyList_Check(h.ptr()) || PyTuple_Check(h.ptr())) && nb::len(h) == 0) return {};
  nb::object arr = nb::isinstance<Array>(h) ? to_numpy(nb::cast<const Array&>(h), true) : np.attr("asarray")(h);
  const std::string kind = pystr(arr.attr("dtype").attr("kind"));
  if (kind != "i" && kind != "u" && kind != "b")
    throw nb::type_error(("Cannot cast " + std::string(what) + " from dtype('" +
                          pystr(arr.attr("dtype")) + "') to dtype('int64') according to the rule 'safe'")
                             .c_str());
  if (nb::cast<int>(arr.attr("ndim")) > 1) throw std::invalid_argument(std::string(what) + " must be 0-d or 1-d");
  return nb::cast<std::vector<int64_t>>(arr.attr("astype")("int64").attr("ravel")().attr("tolist")());
}

DType optional_dtype_or(nb::handle h, DType fallback) { return h.is_none() ? fallback : to_dtype(h); }

nb::object shape_tuple(const Shape& s) {
  nb::list l;
  for (int64_t d : s) l.append(d);
  return nb::tuple(l);
}


// atleast_nd(*arys): one array for one input, else a tuple, as NumPy 2.
template <Array (*F)(const Array&)>
nb::object atleast(nb::args arys) {
  nb::list l;
  for (nb::handle h : arys) l.append(nb::cast(F(to_array(h))));
  if (nb::len(l) == 1) return l[0];
  return nb::tuple(l);
}

Array reshape_py(const Array& a, nb::handle shape, nb::handle order, nb::handle copy) {
  const Shape s = to_shape(shape);
  const char o = to_order(order);
  const std::optional<bool> c = to_copy(copy);
  nb::gil_scoped_release release;
  return reshape(a, s, o, c);
}

// a.reshape(2, 3), a.reshape((2, 3)), a.reshape([2, 3]), with order=/copy= keywords.
Array reshape_method(const Array& a, nb::args args, nb::kwargs kwargs) {
  nb::object order = nb::none(), copy = nb::none();
  for (auto [k, v] : kwargs) {
    const std::string key = nb::cast<std::string>(k);
    if (key == "order") order = nb::borrow(v);
    else if (key == "copy") copy = nb::borrow(v);
    else throw nb::type_error(("reshape() got an unexpected keyword argument '" + key + "'").c_str());
  }
  if (args.size() == 0) throw nb::type_error("reshape() takes exactly 1 argument (0 given)");
  return reshape_py(a, args.size() == 1 ? args[0] : nb::handle(args), order, copy);
}

std::optional<std::vector<int64_t>> transpose_axes(nb::args args) {
  if (args.size() == 0 || (args.size() == 1 && args[0].is_none())) return std::nullopt;
  if (args.size() == 1 && !is_int(args[0])) return to_axes(args[0], "transpose");
  return to_axes(args, "transpose");
}

Array repeat_py(nb::handle a, nb::handle repeats, nb::handle axis) {
  const Array x = to_array(a);
  const std::optional<int64_t> ax = axis.is_none() ? std::nullopt : std::optional<int64_t>(to_int(axis, "axis"));
  if (is_int(repeats)) {
    const int64_t r = to_int(repeats, "repeats");
    nb::gil_scoped_release release;
    return repeat(x, r, ax);
  }
  const std::vector<int64_t> r = to_int_vector(repeats, "repeats");
  nb::gil_scoped_release release;
  return repeat(x, r, ax);
}

nb::object split_py(nb::handle ary, nb::handle indices_or_sections, nb::handle axis, bool equal) {
  const Array a = to_array(ary);
  const int64_t ax = to_int(axis, "axis");
  std::vector<Array> parts;
  if (is_int(indices_or_sections)) {
    const int64_t n = to_int(indices_or_sections, "indices_or_sections");
    nb::gil_scoped_release release;
    parts = equal ? split(a, n, ax) : array_split(a, n, ax);
  } else {
    const std::vector<int64_t> idx = to_int_vector(indices_or_sections, "indices_or_sections");
    parts = split_at(a, idx, ax);
  }
  return arrays_list(std::move(parts));
}

// concatenate/stack's out=: the result is written into `out` (shape and device must match).
nb::object finish_out(Array result, nb::handle out, const char* op) {
  if (out.is_none()) return nb::cast(std::move(result));
  const Array o = *to_out_arg(out, op);
  if (o.shape() != result.shape())
    throw std::invalid_argument(std::string("[") + op + "] Output array is the wrong shape");
  {
    nb::gil_scoped_release release;
    copyto(o, result);
  }
  return nb::borrow(out);
}

std::optional<DType> join_dtype(nb::handle dtype, nb::handle out, const char* op) {
  if (!dtype.is_none() && !out.is_none())
    throw nb::type_error((std::string(op) + "() only takes `out` or `dtype` as an argument, but both were provided.").c_str());
  if (!out.is_none()) return to_out_arg(out, op)->dtype();
  return dtype.is_none() ? std::nullopt : std::optional<DType>(to_dtype(dtype));
}

// casting='unsafe' lets complex inputs join into a real dtype: NumPy warns that the
// imaginary parts are dropped (any other casting refuses the join).
void warn_join_discard(const std::vector<Array>& xs, const std::optional<DType>& dt, const std::string& casting) {
  if (!dt || casting != "unsafe") return;
  for (const Array& x : xs)
    if (is_complex(x.dtype())) return warn_complex_discard(x.dtype(), *dt);
}

}  // namespace
}  // namespace loom::py

namespace loom::py {

LOOM_BINDING_FAMILY(shape_ops, 50) {
  using nb::arg;
  m.def("reshape", [](nb::handle a, nb::handle shape, nb::handle order, nb::handle copy) {
        return reshape_py(to_array(a), shape, order, copy);
      },
      arg("a"), arg("shape"), arg("order").none() = "C", nb::kw_only(), arg("copy").none() = nb::none(),
      "Gives a new shape to an array without changing its data. One dimension may be -1 (inferred).\n"
      "Returns a view whenever the strides allow it, else a copy. order: 'C', 'F' or 'A'.\n"
      "copy=True always copies; copy=False raises ValueError when a copy would be needed.");
  m.def("ravel", [](nb::handle a, nb::handle order) { return ravel(to_array(a), to_order(order)); },
        arg("a"), arg("order").none() = "C",
        "The elements as a 1-d array: a view when the array is contiguous in `order`, else a copy.");
  m.def("transpose", [](nb::handle a, nb::handle axes) { return transpose(to_array(a), to_axes(axes, "transpose")); },
        arg("a"), arg("axes").none() = nb::none(),
        "Permutes the axes (reverses them when axes is None). Returns a view.");
  m.def("swapaxes", [](nb::handle a, nb::handle axis1, nb::handle axis2) {
        return swapaxes(to_array(a), to_int(axis1, "axis1"), to_int(axis2, "axis2"));
      },
      arg("a"), arg("axis1"), arg("axis2"), "Interchanges two axes. Returns a view.");
  m.def("diagonal", [](nb::handle a, int64_t offset, int64_t axis1, int64_t axis2) {
        return diagonal(to_array(a), offset, axis1, axis2);
      },
      arg("a"), arg("offset") = 0, arg("axis1") = 0, arg("axis2") = 1,
      "The diagonal `offset` of the matrices spanned by axis1 and axis2, as a last axis (NumPy's "
      "diagonal). A writable view, as torch.diagonal (NumPy's is read-only).");
  m.def("moveaxis", [](nb::handle a, nb::handle source, nb::handle destination) {
        if (source.is_none() || destination.is_none())
          throw nb::type_error("moveaxis: source and destination must be ints or sequences of ints");
        return moveaxis(to_array(a), *to_axes(source, "moveaxis"), *to_axes(destination, "moveaxis"));
      },
      arg("a"), arg("source"), arg("destination"),
      "Moves axes `source` (int or sequence) to positions `destination`; the other axes keep\n"
      "their order. Returns a view.");
  m.def("squeeze", [](nb::handle a, nb::handle axis) { return squeeze(to_array(a), to_axes(axis, "squeeze")); },
        arg("a"), arg("axis").none() = nb::none(),
        "Removes length-1 axes (all, or those in `axis`, which must have length 1). Returns a view.");
  m.def("expand_dims", [](nb::handle a, nb::handle axis) {
        if (axis.is_none()) throw nb::type_error("expand_dims: axis must be an int or a tuple of ints");
        return expand_dims(to_array(a), *to_axes(axis, "expand_dims"));
      },
      arg("a"), arg("axis"), "Inserts length-1 axes at positions `axis` of the result. Returns a view.");
  m.def("broadcast_to", [](nb::handle array, nb::handle shape) { return broadcast_to(to_array(array), to_shape(shape)); },
        arg("array"), arg("shape"),
        "A view of the array broadcast to `shape` (zero strides along broadcast axes). Writing to it\n"
        "writes shared elements, as with NumPy's writeable broadcast views: avoid it.");
  // A tuple, as NumPy 2 and the Array API standard since 2025.12 return it.
  m.def("broadcast_arrays", [](nb::args args) { return nb::tuple(arrays_list(broadcast_arrays(to_arrays(args)))); },
        "Broadcasts arrays against each other; returns a tuple of views.");
  m.def("atleast_1d", &atleast<atleast_1d>, "Views with at least one axis (a tuple for several inputs).");
  m.def("atleast_2d", &atleast<atleast_2d>, "Views with at least two axes (a tuple for several inputs).");
  m.def("atleast_3d", &atleast<atleast_3d>,
        "Views with at least three axes: (N,) -> (1, N, 1), (M, N) -> (M, N, 1).");
  m.def("flip", [](nb::handle m_, nb::handle axis) { return flip(to_array(m_), to_axes(axis, "flip")); },
        arg("m"), arg("axis").none() = nb::none(),
        "Reverses the order of elements along `axis` (all axes when None): a view with negative strides.");
  m.def("fliplr", [](nb::handle m_) { return fliplr(to_array(m_)); }, arg("m"),
        "Reverses the order of columns (axis 1): a view.");
  m.def("flipud", [](nb::handle m_) { return flipud(to_array(m_)); }, arg("m"),
        "Reverses the order of rows (axis 0): a view.");
  m.def("split", [](nb::handle ary, nb::handle ios, nb::handle axis) { return split_py(ary, ios, axis, true); },
        arg("ary"), arg("indices_or_sections"), arg("axis") = 0,
        "Splits into equal sections (int) or at the given indices (sequence) along `axis`;\n"
        "returns a list of views. ValueError when an int does not divide the axis.");
  m.def("array_split", [](nb::handle ary, nb::handle ios, nb::handle axis) { return split_py(ary, ios, axis, false); },
        arg("ary"), arg("indices_or_sections"), arg("axis") = 0,
        "As split, but sections need not be equal: the first len % n parts are one longer.");
  m.def("concatenate",
        [](nb::handle arrays, nb::handle axis, nb::handle out, nb::handle dtype, const std::string& casting) {
          const std::vector<Array> xs = to_arrays(arrays);
          const std::optional<int64_t> ax = axis.is_none() ? std::nullopt : std::optional<int64_t>(to_int(axis, "axis"));
          const std::optional<DType> dt = join_dtype(dtype, out, "concatenate");
          warn_join_discard(xs, dt, casting);
          Array r;
          {
            nb::gil_scoped_release release;
            r = concatenate(xs, ax, dt, casting);
          }
          return finish_out(std::move(r), out, "concatenate");
        },
        arg("arrays"), arg("axis").none() = 0, arg("out").none() = nb::none(), nb::kw_only(),
        arg("dtype").none() = nb::none(), arg("casting") = "same_kind",
        "Joins arrays along an existing axis (axis=None: of the raveled arrays). The result dtype is\n"
        "`dtype`, else the promotion of the inputs' dtypes; all arrays must be on one device.");
  m.def("stack",
        [](nb::handle arrays, nb::handle axis, nb::handle out, nb::handle dtype, const std::string& casting) {
          const std::vector<Array> xs = to_arrays(arrays);
          const int64_t ax = to_int(axis, "axis");
          const std::optional<DType> dt = join_dtype(dtype, out, "stack");
          warn_join_discard(xs, dt, casting);
          Array r;
          {
            nb::gil_scoped_release release;
            r = stack(xs, ax, dt, casting);
          }
          return finish_out(std::move(r), out, "stack");
        },
        arg("arrays"), arg("axis") = 0, arg("out").none() = nb::none(), nb::kw_only(),
        arg("dtype").none() = nb::none(), arg("casting") = "same_kind",
        "Joins same-shaped arrays along a new axis `axis` of the result.");
  m.def("hstack", [](nb::handle tup, nb::handle dtype, const std::string& casting) {
        const std::vector<Array> xs = to_arrays(tup);
        const std::optional<DType> dt = join_dtype(dtype, nb::none(), "hstack");
        warn_join_discard(xs, dt, casting);
        nb::gil_scoped_release release;
        return hstack(xs, dt, casting);
      },
      arg("tup"), nb::kw_only(), arg("dtype").none() = nb::none(), arg("casting") = "same_kind",
      "Joins arrays column-wise (along axis 1; 1-d arrays along axis 0).");
  m.def("vstack", [](nb::handle tup, nb::handle dtype, const std::string& casting) {
        const std::vector<Array> xs = to_arrays(tup);
        const std::optional<DType> dt = join_dtype(dtype, nb::none(), "vstack");
        warn_join_discard(xs, dt, casting);
        nb::gil_scoped_release release;
        return vstack(xs, dt, casting);
      },
      arg("tup"), nb::kw_only(), arg("dtype").none() = nb::none(), arg("casting") = "same_kind",
      "Joins arrays row-wise (along axis 0, after making 1-d arrays 2-d rows).");
  m.def("tile", [](nb::handle A, nb::handle reps) {
        const Array a = to_array(A);
        const std::vector<int64_t> r = is_int(reps) ? std::vector<int64_t>{to_int(reps, "reps")} : to_shape(reps);
        nb::gil_scoped_release release;
        return tile(a, r);
      },
      arg("A"), arg("reps"), "A copy of A repeated reps[i] times along each axis (NumPy's tile).");
  m.def("repeat", &repeat_py, arg("a"), arg("repeats"), arg("axis").none() = nb::none(),
        "Repeats each element `repeats` times (an int, or one count per element along `axis`).\n"
        "axis=None repeats the elements of the raveled array. Returns a copy.");

  cls.def("reshape", &reshape_method,
          "a.reshape(shape, order='C', copy=None) or a.reshape(d0, d1, ...): see loom.reshape.");
  cls.def("ravel", [](const Array& a, nb::handle order) { return ravel(a, to_order(order)); },
          arg("order").none() = "C", "1-d: a view when contiguous, else a copy (see loom.ravel).");
  cls.def("flatten", [](const Array& a, nb::handle order) {
            const char o = to_order(order);
            nb::gil_scoped_release release;
            return flatten(a, o);
          },
          arg("order").none() = "C", "A 1-d copy of the array, always.");
  cls.def("transpose", [](const Array& a, nb::args axes) { return transpose(a, transpose_axes(axes)); },
          "a.transpose(), a.transpose((1, 0)) or a.transpose(1, 0): a view with permuted axes.");
  cls.def("diagonal", [](const Array& a, int64_t offset, int64_t axis1, int64_t axis2) {
            return diagonal(a, offset, axis1, axis2);
          },
          arg("offset") = 0, arg("axis1") = 0, arg("axis2") = 1, "A view of a diagonal (see loom.diagonal).");
  cls.def("swapaxes", [](const Array& a, nb::handle axis1, nb::handle axis2) {
            return swapaxes(a, to_int(axis1, "axis1"), to_int(axis2, "axis2"));
          },
          arg("axis1"), arg("axis2"), "A view with two axes interchanged.");
  cls.def("squeeze", [](const Array& a, nb::handle axis) { return squeeze(a, to_axes(axis, "squeeze")); },
          arg("axis").none() = nb::none(), "A view without length-1 axes (see loom.squeeze).");
  cls.def("repeat", [](nb::handle self, nb::handle repeats, nb::handle axis) { return repeat_py(self, repeats, axis); },
          arg("repeats"), arg("axis").none() = nb::none(), "See loom.repeat.");
  cls.def_prop_rw(
      "shape", [](const Array& a) { return shape_tuple(a.shape()); },
      [](Array& a, nb::handle shape) {
        const Shape s = infer_reshape(to_shape(shape), a.size(), "shape");
        const std::optional<Strides> st = reshape_strides(a.shape(), a.strides(), s, a.itemsize());
        if (!st) {
          PyErr_SetString(PyExc_AttributeError,
                          "Incompatible shape for in-place modification. Use `.reshape()` to make a copy "
                          "with the desired shape.");
          throw nb::python_error();
        }
        a = a.view(s, *st, a.offset());
      },
      "Tuple of dimensions. Assigning reshapes in place (AttributeError when that needs a copy).");
}

}  // namespace loom::py
