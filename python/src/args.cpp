// Converters for scalar arguments (bool flags, ints, strings, out= arrays) that raise a
// typed Python error naming the op and the argument, instead of nanobind's bare
// "std::bad_cast" from nb::cast on a value of the wrong type.
#include <string>

#include "bindings.h"

#include <nanobind/stl/string.h>

namespace loom::py {
namespace {

std::string py_type_name(nb::handle h) { return nb::cast<std::string>(nb::handle(Py_TYPE(h.ptr())).attr("__name__")); }

std::string where(const char* op, const char* arg) { return std::string("[") + op + "] " + arg; }

}  // namespace

[[noreturn]] void raise_arg_type(const char* op, const char* arg, const char* expected, nb::handle got) {
  throw nb::type_error((where(op, arg) + " must be " + expected + ", not " + py_type_name(got)).c_str());
}

bool to_bool_arg(nb::handle h, const char* op, const char* arg) {
  PyObject* p = h.ptr();
  if (PyBool_Check(p)) return p == Py_True;
  // NumPy bools and the ints 0 and 1 are unambiguous truth values; strings, lists and
  // other objects are more likely a mistake than a flag (NumPy refuses strings too).
  if (PyLong_Check(p)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(p, &overflow);
    if (!overflow && (v == 0 || v == 1)) return v == 1;
  } else if (PyObject_IsInstance(p, numpy_module().attr("bool_").ptr()) == 1) {
    return PyObject_IsTrue(p) == 1;
  }
  raise_arg_type(op, arg, "True or False", h);
}

std::optional<bool> to_optional_bool_arg(nb::handle h, const char* op, const char* arg) {
  if (h.is_none()) return std::nullopt;
  return to_bool_arg(h, op, arg);
}

std::optional<int64_t> to_optional_int_arg(nb::handle h, const char* op, const char* arg) {
  if (h.is_none()) return std::nullopt;
  return to_int_arg(h, op, arg);
}

std::optional<double> to_optional_float_arg(nb::handle h, const char* op, const char* arg) {
  if (h.is_none()) return std::nullopt;
  const double v = PyFloat_AsDouble(h.ptr());
  if (v == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    raise_arg_type(op, arg, "a number", h);
  }
  return v;
}

int64_t to_int_arg(nb::handle h, const char* op, const char* arg) {
  PyObject* p = h.ptr();
  if (!PyLong_Check(p)) {
    if (PyFloat_Check(p) || !PyIndex_Check(p)) raise_arg_type(op, arg, "an int", h);
    nb::object idx = nb::steal(PyNumber_Index(p));
    if (!idx.is_valid()) throw nb::python_error();
    return to_int_arg(idx, op, arg);
  }
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(p, &overflow);
  if (overflow) {
    PyErr_SetString(PyExc_OverflowError,
                    (where(op, arg) + "=" + nb::cast<std::string>(nb::str(h)) + " does not fit in 64 bits").c_str());
    throw nb::python_error();
  }
  return v;
}

std::string to_str_arg(nb::handle h, const char* op, const char* arg) {
  if (!PyUnicode_Check(h.ptr())) raise_arg_type(op, arg, "a str", h);
  return nb::cast<std::string>(h);
}

std::optional<Array> to_out_arg(nb::handle h, const char* op) {
  if (h.is_none()) return std::nullopt;
  if (PyTuple_Check(h.ptr()) && PyTuple_GET_SIZE(h.ptr()) == 1) h = PyTuple_GET_ITEM(h.ptr(), 0);
  if (!nb::isinstance<Array>(h)) raise_arg_type(op, "out", "a loom array or None", h);
  return nb::cast<Array>(h);
}

nb::object write_out(nb::handle out, const Array& r, const char* op) {
  const std::optional<Array> o = to_out_arg(out, op);
  if (!o) return nb::cast(r);
  if (o->shape() != r.shape())
    throw_value_error(op, "output parameter has shape " + shape_str(o->shape()) + ", expected " + shape_str(r.shape()));
  copyto(*o, r);
  return nb::borrow(PyTuple_Check(out.ptr()) ? nb::handle(PyTuple_GET_ITEM(out.ptr(), 0)) : out);
}

}  // namespace loom::py

namespace loom::py {

bool has_attr_strict(nb::handle h, const char* name) {
  PyObject* v = PyObject_GetAttrString(h.ptr(), name);
  if (v) {
    Py_DECREF(v);
    return true;
  }
  if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
    PyErr_Clear();
    return false;
  }
  throw nb::python_error();  // the property itself failed: that error is the one to see
}

}  // namespace loom::py
