// Indexing bindings: ndarray.__getitem__ / __setitem__ (Python index objects parsed in
// C++: ints, slices, None, Ellipsis, tuples, lists, NumPy and loom arrays), x.at[...],
// nonzero and its relatives, and iteration over the first axis.
#include <cmath>
#include <string>
#include <vector>

#include "bindings.h"

namespace loom::py {
namespace {

[[noreturn]] void invalid_index() {
  throw std::out_of_range(
      "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays "
      "are valid indices");
}

Array bool_scalar(bool v, const Device& dev) { return full({}, Scalar(v), bool_, dev); }

bool is_numpy_scalar(nb::handle h) {
  static PyObject* generic = nb::handle(numpy_module().attr("generic")).inc_ref().ptr();
  return PyObject_TypeCheck(h.ptr(), reinterpret_cast<PyTypeObject*>(generic));
}

Index parse_one(nb::handle h, const Array& x) {
  PyObject* p = h.ptr();
  if (PyBool_Check(p)) return Index(bool_scalar(p == Py_True, x.device()));
  if (PyLong_Check(p)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(p, &overflow);
    if (overflow) throw std::out_of_range("cannot fit 'int' into an index-sized integer");
    return Index(static_cast<int64_t>(v));
  }
  if (PySlice_Check(p)) {
    Py_ssize_t start, stop, step;  // None becomes the extreme values, which clip as None does
    if (PySlice_Unpack(p, &start, &stop, &step) < 0) throw nb::python_error();
    return Index(Slice{start, stop, step});
  }
  if (p == Py_None) return Index(newaxis);
  if (p == Py_Ellipsis) return Index(ellipsis);
  if (nb::isinstance<Array>(h)) return Index(nb::cast<Array>(h));
  if (PyList_Check(p)) {
    if (PyList_GET_SIZE(p) == 0) return Index(Array::allocate({0}, int64, x.device()));
    nb::object arr = numpy_module().attr("asarray")(h);
    const char kind = nb::cast<std::string>(arr.attr("dtype").attr("kind"))[0];
    if (kind != 'b' && kind != 'i' && kind != 'u') invalid_index();
    return Index(to_array(arr, x.device()));
  }
  if (is_numpy_scalar(h)) {
    nb::object arr = numpy_module().attr("asarray")(h);
    const char kind = nb::cast<std::string>(arr.attr("dtype").attr("kind"))[0];
    if (kind == 'b') return Index(bool_scalar(nb::cast<bool>(arr.attr("item")()), x.device()));
    if (kind != 'i' && kind != 'u') invalid_index();
    return parse_one(arr.attr("item")(), x);
  }
  if (nb::hasattr(h, "__array__") || nb::hasattr(h, "__dlpack__") || has_attr_strict(h, "__cuda_array_interface__"))
    return Index(to_array(h, x.device()));
  if (PyIndex_Check(p)) return parse_one(nb::steal(PyNumber_Index(p)), x);
  invalid_index();
}

std::vector<Index> parse_index(nb::handle key, const Array& x) {
  std::vector<Index> out;
  if (PyTuple_Check(key.ptr())) {
    const Py_ssize_t n = PyTuple_GET_SIZE(key.ptr());
    out.reserve(static_cast<size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) out.push_back(parse_one(PyTuple_GET_ITEM(key.ptr(), i), x));
  } else {
    out.push_back(parse_one(key, x));
  }
  return out;
}

// An assigned value as an array on x's device. Python numbers are weak (NEP 50): they take
// x's dtype, and an int that does not fit raises OverflowError, as NumPy 2 does.
Array value_array(nb::handle v, const Array& x) {
  PyObject* p = v.ptr();
  if (PyComplex_Check(p) && !is_complex(x.dtype()))  // as NumPy: no silent drop of the imaginary part
    throw DTypeError(std::string("[setitem] cannot assign a Python complex to a ") + dtype_name(x.dtype()) + " array");
  if (PyBool_Check(p) || PyLong_Check(p) || PyFloat_Check(p)) {
    check_int_fits(v, x.dtype());
    if (PyFloat_Check(p) && !is_floating(x.dtype()) && x.dtype() != bool_) {
      const double d = PyFloat_AS_DOUBLE(p);
      if (std::isnan(d)) throw std::invalid_argument("cannot convert float NaN to integer");
      if (std::isinf(d)) {
        PyErr_SetString(PyExc_OverflowError, "cannot convert float infinity to integer");
        throw nb::python_error();
      }
    }
    return full({}, to_scalar(v), x.dtype(), x.device());
  }
  return to_array(v, x.device());
}

// x.at and x.at[index]: JAX's functional updates.
struct AtHelper {
  Array x;
};
struct AtIndexed {
  Array x;
  std::vector<Index> index;
  Array apply(nb::handle value, AtOp op) const {
    const Array v = value_array(value, x);
    nb::gil_scoped_release release;
    return at_update(x, index, v, op);
  }
};

struct ArrayIterator {
  Array a;
  int64_t next = 0;
};

nb::tuple as_tuple(const std::vector<Array>& arrays) {
  nb::list l;
  for (const Array& a : arrays) l.append(nb::cast(a));
  return nb::tuple(l);
}

}  // namespace

LOOM_BINDING_FAMILY(indexing, 30) {
  cls.def(
      "__getitem__",
      [](const Array& x, nb::handle key) {
        const std::vector<Index> index = parse_index(key, x);
        nb::gil_scoped_release release;
        return getitem(x, index);
      },
      nb::arg("key").none(),
      "x[key] as NumPy: basic indices (ints, slices, None, ...) give views, integer and boolean "
      "arrays gather into a new array (the GPU is waited on to check bounds).");
  cls.def(
      "__setitem__",
      [](const Array& x, nb::handle key, nb::handle value) {
        const std::vector<Index> index = parse_index(key, x);
        const Array v = value_array(value, x);
        warn_complex_discard(v.dtype(), x.dtype());
        nb::gil_scoped_release release;
        setitem(x, index, v);
      },
      nb::arg("key").none(), nb::arg("value"),
      "x[key] = value: value broadcast and cast to x's dtype. With repeated indices the last "
      "write wins on the CPU; on a GPU the winner is unspecified.");

  nb::class_<AtIndexed>(m, "_AtIndexed", "x.at[index]: call set, add, multiply, min or max.")
      .def("set", [](const AtIndexed& a, nb::handle v) { return a.apply(v, AtOp::set); }, nb::arg("values"),
           "A copy of x with x[index] = values.")
      .def("add", [](const AtIndexed& a, nb::handle v) { return a.apply(v, AtOp::add); }, nb::arg("values"),
           "A copy of x with values added at index; repeated indices accumulate (np.add.at).")
      .def("multiply", [](const AtIndexed& a, nb::handle v) { return a.apply(v, AtOp::multiply); },
           nb::arg("values"), "A copy of x multiplied by values at index (np.multiply.at).")
      .def("min", [](const AtIndexed& a, nb::handle v) { return a.apply(v, AtOp::min); }, nb::arg("values"),
           "A copy of x with the minimum of x[index] and values (np.minimum.at).")
      .def("max", [](const AtIndexed& a, nb::handle v) { return a.apply(v, AtOp::max); }, nb::arg("values"),
           "A copy of x with the maximum of x[index] and values (np.maximum.at).");
  nb::class_<AtHelper>(m, "_AtHelper", "x.at: index it to get the functional update methods.")
      .def("__getitem__",
           [](const AtHelper& h, nb::handle key) { return AtIndexed{h.x, parse_index(key, h.x)}; },
           nb::arg("key").none(), "x.at[key].");
  cls.def_prop_ro("at", [](const Array& x) { return AtHelper{x}; },
                  "JAX-style functional updates: x.at[idx].set(v), .add(v), .multiply(v), .min(v), .max(v) "
                  "return a new array.");

  nb::class_<ArrayIterator>(m, "_ArrayIterator", "Iterator over the first axis of an array.")
      .def("__iter__", [](nb::handle self) { return nb::borrow(self); }, "The iterator itself.")
      .def("__next__",
           [](ArrayIterator& it) {
             if (it.next >= it.a.shape()[0]) throw nb::stop_iteration();
             return getitem(it.a, {Index(it.next++)});
           },
           "The next sub-array (a view).");
  cls.def(
      "__iter__",
      [](const Array& x) {
        if (x.ndim() == 0) throw nb::type_error("iteration over a 0-d array");
        return ArrayIterator{x, 0};
      },
      "Iterates over the first axis (views).");

  auto nonzero_fn = [](nb::handle a) {
    const Array x = to_array(a);
    std::vector<Array> out;
    {
      nb::gil_scoped_release release;
      out = nonzero(x);
    }
    return as_tuple(out);
  };
  m.def("nonzero", nonzero_fn, nb::arg("a"),
        "Indices of the nonzero elements: a tuple of int64 arrays, one per dimension (waits for the GPU).");
  cls.def("nonzero", nonzero_fn, "Indices of the nonzero elements, one int64 array per dimension.");
  m.def(
      "flatnonzero",
      [](nb::handle a) {
        const Array x = to_array(a);
        nb::gil_scoped_release release;
        return flatnonzero(x);
      },
      nb::arg("a"), "Indices of the nonzero elements of the flattened array.");
  m.def(
      "argwhere",
      [](nb::handle a) {
        const Array x = to_array(a);
        nb::gil_scoped_release release;
        return argwhere(x);
      },
      nb::arg("a"), "(count, ndim) int64 indices of the nonzero elements.");
  m.def(
      "count_nonzero",
      [](nb::handle a, nb::handle axis, bool keepdims) {
        const Array x = to_array(a);
        const auto ax = to_axes(axis, "count_nonzero");
        nb::gil_scoped_release release;
        return count_nonzero(x, ax, keepdims);
      },
      nb::arg("a"), nb::arg("axis").none() = nb::none(), nb::kw_only(), nb::arg("keepdims") = false,
      "Number of nonzero elements over `axis` (None: all), as an int64 array (0-d for a full count, as loom's "
      "other reductions; NumPy returns a Python int there, int(...) reads it).");
}

}  // namespace loom::py
