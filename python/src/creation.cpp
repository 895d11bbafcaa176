// Array creation: asarray/array (NumPy, lists, scalars, loom arrays, DLPack, CAI),
// empty/zeros/ones/full and their *_like forms, arange, linspace, eye, identity.
// Shapes, dtypes and devices are parsed here in C++: empty() must cost about a microsecond.
#include <limits>
#include <string>

#include "bindings.h"

#include <nanobind/stl/optional.h>

namespace loom::py {
namespace {

[[noreturn]] void raise_overflow(const std::string& msg) {
  PyErr_SetString(PyExc_OverflowError, msg.c_str());
  throw nb::python_error();
}

int64_t to_dim(PyObject* o) {
  if (PyLong_Check(o)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow) throw std::invalid_argument("[shape] dimension is too large");
    return v;
  }
  PyObject* idx = PyNumber_Index(o);  // NumPy integers and other __index__ objects
  if (!idx) {
    PyErr_Clear();
    throw nb::type_error("shape must be an int or a sequence of ints");
  }
  const int64_t v = to_dim(idx);
  Py_DECREF(idx);
  return v;
}

std::optional<bool> to_copy_flag(nb::handle h, const char* op) { return to_optional_bool_arg(h, op, "copy"); }

// A fresh import (zero-copy view of foreign memory) moved/cast/copied as asked.
Array finish(const Array& a, std::optional<DType> dtype, const Device& target, std::optional<bool> copy) {
  const bool move = a.device() != target;
  const bool cast = dtype && *dtype != a.dtype();
  if ((move || cast) && copy == false) {
    throw std::invalid_argument("Unable to avoid copy while creating an array as requested (copy=False)");
  }
  nb::gil_scoped_release release;
  Array r = move ? a.copy_to(target) : a;
  if (cast) r = r.astype(*dtype);
  if (copy == true && !move && !cast) r = r.copy();
  return r;
}

bool is_python_number(nb::handle h) {
  return PyLong_CheckExact(h.ptr()) || PyFloat_CheckExact(h.ptr()) || PyBool_Check(h.ptr()) ||
         PyComplex_CheckExact(h.ptr());
}

// Shape, dtype and home device of a *_like() prototype that is not a loom array.
struct Prototype {
  Shape shape;
  DType dtype;
  std::optional<Device> device;
};

Prototype prototype(nb::handle a) {
  if (nb::isinstance<Array>(a)) {
    const Array& x = nb::cast<const Array&>(a);
    return {x.shape(), x.dtype(), x.device()};
  }
  if (has_attr_strict(a, "__cuda_array_interface__") || (nb::hasattr(a, "__dlpack__") && !nb::hasattr(a, "__array__"))) {
    nb::object x = convert_to_array(a, std::nullopt, std::nullopt, std::nullopt);  // zero-copy view
    const Array& v = nb::cast<const Array&>(x);
    return {v.shape(), v.dtype(), v.device().is_gpu() ? std::optional<Device>(v.device()) : std::nullopt};
  }
  nb::object arr = numpy_module().attr("asarray")(a);
  return {to_shape(arr.attr("shape")), to_dtype(arr.attr("dtype")), std::nullopt};
}

template <class Make>
Array like(nb::handle a, nb::handle dtype, nb::handle device, Make make) {
  const Prototype p = prototype(a);
  const DType dt = dtype.is_none() ? p.dtype : to_dtype(dtype);
  std::optional<Device> dev = to_optional_device(device);
  if (!dev) dev = p.device ? *p.device : default_device();
  return make(p.shape, dt, *dev);
}

// numpy.arange's dtype: float64 when any argument is a float (Python or NumPy, of any
// width) or a Python int beyond int64, else int64.
DType arange_dtype(std::initializer_list<nb::handle> args) {
  for (nb::handle h : args) {
    const Scalar s = to_scalar(h);
    if (s.kind == Scalar::Kind::float_ || s.kind == Scalar::Kind::uint_) return float64;
  }
  return int64;
}

// A real bound or step of arange/linspace: their complex forms are not built yet, and the
// real part alone would be a wrong answer.
Scalar real_scalar(nb::handle h, const char* op) {
  const Scalar s = to_scalar(h);
  if (s.is_complex()) throw DTypeError(std::string("[") + op + "] complex arguments are not supported yet");
  return s;
}

// numpy.linspace's dtype: np.result_type(start, stop, float(num)) (NEP 50: Python numbers
// are weak, so float32 scalars give float32), which is float64 for Python numbers.
DType linspace_dtype(nb::handle start, nb::handle stop) {
  if (is_python_number(start) && is_python_number(stop)) return float64;
  return to_dtype(numpy_module().attr("result_type")(start, stop, nb::float_(1.0)));
}

}  // namespace

Shape to_shape(nb::handle h) {
  PyObject* p = h.ptr();
  if (PyTuple_Check(p)) {
    const Py_ssize_t n = PyTuple_GET_SIZE(p);
    Shape s(static_cast<size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) s[i] = to_dim(PyTuple_GET_ITEM(p, i));
    return s;
  }
  if (PyLong_Check(p)) return Shape{to_dim(p)};
  if (PyList_Check(p)) {
    const Py_ssize_t n = PyList_GET_SIZE(p);
    Shape s(static_cast<size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) s[i] = to_dim(PyList_GET_ITEM(p, i));
    return s;
  }
  if (PyIndex_Check(p)) return Shape{to_dim(p)};
  if (!PySequence_Check(p) || PyUnicode_Check(p)) throw nb::type_error("shape must be an int or a sequence of ints");
  Shape s;
  for (nb::handle d : h) s.push_back(to_dim(d.ptr()));
  return s;
}

Scalar to_scalar(nb::handle h) {
  PyObject* p = h.ptr();
  if (PyBool_Check(p)) return Scalar(p == Py_True);
  if (PyLong_Check(p)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(p, &overflow);
    if (!overflow) return Scalar(v);
    if (overflow > 0) {
      const unsigned long long u = PyLong_AsUnsignedLongLong(p);
      if (u == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
        PyErr_Clear();
        raise_overflow("Python integer " + nb::cast<std::string>(nb::str(h)) + " does not fit in 64 bits");
      }
      return Scalar(u);
    }
    raise_overflow("Python integer " + nb::cast<std::string>(nb::str(h)) + " does not fit in 64 bits");
  }
  if (PyFloat_Check(p)) return Scalar(PyFloat_AS_DOUBLE(p));
  if (PyComplex_Check(p)) return Scalar::complex(PyComplex_RealAsDouble(p), PyComplex_ImagAsDouble(p));
  if (nb::isinstance<Array>(h)) return to_scalar(h.attr("item")());
  if (nb::hasattr(h, "dtype") && nb::hasattr(h, "item")) {  // NumPy scalars and 0-d arrays
    nb::object v = h.attr("item")();
    if (is_python_number(v)) return to_scalar(v);
  }
  if (PyIndex_Check(p)) return to_scalar(nb::steal(PyNumber_Index(p)));
  PyObject* f = PyNumber_Float(p);
  if (!f) throw nb::python_error();
  const double d = PyFloat_AS_DOUBLE(f);
  Py_DECREF(f);
  return Scalar(d);
}

DType scalar_dtype(nb::handle h) {
  PyObject* p = h.ptr();
  if (PyBool_Check(p)) return bool_;
  if (PyLong_Check(p)) return to_scalar(h).kind == Scalar::Kind::uint_ ? uint64 : int64;
  if (PyFloat_Check(p)) return float64;
  if (nb::hasattr(h, "dtype")) return to_dtype(h.attr("dtype"));
  return to_scalar(h).natural_dtype();
}

void check_int_fits(nb::handle value, DType dt) {
  if (!PyLong_Check(value.ptr()) || PyBool_Check(value.ptr()) || !is_integer(dt)) return;
  const Scalar s = to_scalar(value);
  const int bits = static_cast<int>(itemsize(dt) * 8);
  bool fits;
  if (dtype_kind(dt) == DTypeKind::unsigned_int) {
    const uint64_t max = bits == 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t{1} << bits) - 1;
    fits = s.kind == Scalar::Kind::uint_ ? s.u <= max : (s.i >= 0 && static_cast<uint64_t>(s.i) <= max);
  } else {
    const int64_t max = bits == 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (bits - 1)) - 1;
    fits = s.kind == Scalar::Kind::int_ && s.i >= -max - 1 && s.i <= max;
  }
  if (!fits) {
    raise_overflow("Python integer " + nb::cast<std::string>(nb::str(value)) + " out of bounds for " +
                   dtype_name(dt));
  }
}

nb::object convert_to_array(nb::handle obj, std::optional<DType> dtype, std::optional<Device> device,
                            std::optional<bool> copy) {
  if (nb::isinstance<Array>(obj)) {
    const Array& a = nb::cast<const Array&>(obj);
    const Device target = device.value_or(a.device());
    if (target == a.device() && (!dtype || *dtype == a.dtype()) && copy != true) return nb::borrow(obj);
    return nb::cast(finish(a, dtype, target, copy));
  }
  nb::handle np = numpy_module();
  static PyObject* ndarray_type = nb::handle(np.attr("ndarray")).inc_ref().ptr();
  if (PyObject_TypeCheck(obj.ptr(), reinterpret_cast<PyTypeObject*>(ndarray_type))) {
    return nb::cast(from_numpy(obj, dtype, device ? *device : default_device(), copy));
  }
  if (has_attr_strict(obj, "__cuda_array_interface__")) {
    const Array a = from_cuda_array_interface(obj);  // device memory stays on its GPU
    return nb::cast(finish(a, dtype, device.value_or(a.device()), copy));
  }
  if (nb::hasattr(obj, "__dlpack__") || PyCapsule_CheckExact(obj.ptr())) {
    const Array a = from_dlpack_object(obj);
    // Host memory goes to the default device like NumPy input; GPU memory stays on its GPU.
    const Device target = device ? *device : (a.device().is_cpu() ? default_device() : a.device());
    return nb::cast(finish(a, dtype, target, copy));
  }
  if (copy == false) {
    throw std::invalid_argument("Unable to avoid copy while creating an array from " +
                                nb::cast<std::string>(nb::repr(nb::handle(Py_TYPE(obj.ptr())))));
  }
  // Lists, scalars and other array-likes: NumPy's conversion rules, then the NumPy path
  // (the temporary array is ours, so on cpu() it is adopted without another copy).
  nb::object arr = np.attr("asarray")(obj, nb::arg("dtype") = dtype ? numpy_dtype(*dtype) : nb::none());
  return nb::cast(from_numpy(arr, dtype, device ? *device : default_device(), std::nullopt));
}

void init_creation(nb::module_& m) {
  m.def(
      "asarray",
      [](nb::handle obj, nb::handle dtype, nb::handle device, nb::handle copy) {
        return convert_to_array(obj, to_optional_dtype(dtype), to_optional_device(device), to_copy_flag(copy, "asarray"));
      },
      nb::arg("obj"), nb::arg("dtype").none() = nb::none(), nb::arg("device").none() = nb::none(),
      nb::arg("copy").none() = nb::none(),
      "A loom array from a NumPy array, nested lists, a scalar, a loom array, or an object with "
      "__dlpack__ or __cuda_array_interface__. Copies only when needed: a loom array already on "
      "`device` with that dtype is returned as is; NumPy/DLPack host memory on cpu() and CAI/DLPack "
      "GPU memory on its GPU are shared. device=None: the source's GPU for GPU memory, else the "
      "default device. copy=True always copies, copy=False raises ValueError if a copy is needed.");
  m.def(
      "array",
      [](nb::handle obj, nb::handle dtype, nb::handle device, nb::handle copy) {
        return convert_to_array(obj, to_optional_dtype(dtype), to_optional_device(device), to_copy_flag(copy, "array"));
      },
      nb::arg("obj"), nb::arg("dtype").none() = nb::none(), nb::arg("device").none() = nb::none(),
      nb::arg("copy").none() = true,
      "Like asarray() but copies by default (copy=True).");

  m.def(
      "empty",
      [](nb::handle shape, nb::handle dtype, nb::handle device) {
        return empty(to_shape(shape), dtype.is_none() ? float64 : to_dtype(dtype), to_optional_device(device));
      },
      nb::arg("shape"), nb::arg("dtype").none() = nb::none(), nb::arg("device").none() = nb::none(),
      "A new array with uninitialised contents (dtype float64 when None; the default device when None).");
  m.def(
      "zeros",
      [](nb::handle shape, nb::handle dtype, nb::handle device) {
        return zeros(to_shape(shape), dtype.is_none() ? float64 : to_dtype(dtype), to_optional_device(device));
      },
      nb::arg("shape"), nb::arg("dtype").none() = nb::none(), nb::arg("device").none() = nb::none(),
      "A new array of zeros (dtype float64 when None).");
  m.def(
      "ones",
      [](nb::handle shape, nb::handle dtype, nb::handle device) {
        return ones(to_shape(shape), dtype.is_none() ? float64 : to_dtype(dtype), to_optional_device(device));
      },
      nb::arg("shape"), nb::arg("dtype").none() = nb::none(), nb::arg("device").none() = nb::none(),
      "A new array of ones (dtype float64 when None).");
  m.def(
      "full",
      [](nb::handle shape, nb::handle value, nb::handle dtype, nb::handle device) {
        const DType dt = dtype.is_none() ? scalar_dtype(value) : to_dtype(dtype);
        check_int_fits(value, dt);
        return full(to_shape(shape), to_scalar(value), dt, to_optional_device(device));
      },
      nb::arg("shape"), nb::arg("fill_value"), nb::arg("dtype").none() = nb::none(),
      nb::arg("device").none() = nb::none(),
      "A new array filled with `fill_value` (dtype as NumPy infers it from the value when None).");

  m.def(
      "empty_like",
      [](nb::handle a, nb::handle dtype, nb::handle device) {
        return like(a, dtype, device, [](const Shape& s, DType dt, const Device& d) { return empty(s, dt, d); });
      },
      nb::arg("a"), nb::arg("dtype").none() = nb::none(), nb::arg("device").none() = nb::none(),
      "An uninitialised array with the shape and dtype of `a`, on a's device (GPU arrays) or the "
      "default device.");
  m.def(
      "zeros_like",
      [](nb::handle a, nb::handle dtype, nb::handle device) {
        return like(a, dtype, device, [](const Shape& s, DType dt, const Device& d) { return zeros(s, dt, d); });
      },
      nb::arg("a"), nb::arg("dtype").none() = nb::none(), nb::arg("device").none() = nb::none(),
      "Zeros with the shape and dtype of `a`.");
  m.def(
      "ones_like",
      [](nb::handle a, nb::handle dtype, nb::handle device) {
        return like(a, dtype, device, [](const Shape& s, DType dt, const Device& d) { return ones(s, dt, d); });
      },
      nb::arg("a"), nb::arg("dtype").none() = nb::none(), nb::arg("device").none() = nb::none(),
      "Ones with the shape and dtype of `a`.");
  m.def(
      "full_like",
      [](nb::handle a, nb::handle value, nb::handle dtype, nb::handle device) {
        const Scalar v = to_scalar(value);
        return like(a, dtype, device, [&](const Shape& s, DType dt, const Device& d) {
          check_int_fits(value, dt);
          check_fill_value("full_like", v, dt);
          return full(s, v, dt, d);
        });
      },
      nb::arg("a"), nb::arg("fill_value"), nb::arg("dtype").none() = nb::none(),
      nb::arg("device").none() = nb::none(), "`fill_value` with the shape and dtype of `a`.");

  m.def(
      "arange",
      [](nb::handle start, nb::handle stop, nb::handle step, nb::handle dtype, nb::handle device) {
        nb::object zero = nb::int_(0), one = nb::int_(1);
        nb::handle first = start, last = stop, inc = step.is_none() ? nb::handle(one) : step;
        if (stop.is_none()) {
          first = zero;
          last = start;
        }
        const Scalar a = real_scalar(first, "arange"), b = real_scalar(last, "arange"), c = real_scalar(inc, "arange");
        const DType dt = dtype.is_none() ? arange_dtype({first, last, inc}) : to_dtype(dtype);
        // Real bounds with a complex dtype (NumPy allows it): the real parts, then the cast.
        if (is_complex(dt))
          return arange(a, b, c, dt == complex64 ? float32 : float64, to_optional_device(device)).astype(dt);
        return arange(a, b, c, dt, to_optional_device(device));
      },
      nb::arg("start"), nb::arg("stop").none() = nb::none(), nb::arg("step").none() = nb::none(),
      nb::arg("dtype").none() = nb::none(), nb::arg("device").none() = nb::none(),
      "Evenly spaced values in [start, stop), as numpy.arange (int64 or float64 inferred from the "
      "arguments when dtype is None).");
  m.def(
      "linspace",
      [](nb::handle start, nb::handle stop, nb::handle num_h, bool endpoint, nb::handle dtype, nb::handle device) {
        const int64_t num = to_int_arg(num_h, "linspace", "num");
        const double a = real_scalar(start, "linspace").as_double(), b = real_scalar(stop, "linspace").as_double();
        const DType dt = dtype.is_none() ? linspace_dtype(start, stop) : to_dtype(dtype);
        return linspace(a, b, num, endpoint, dt,
                        to_optional_device(device));
      },
      nb::arg("start"), nb::arg("stop"), nb::arg("num") = 50, nb::arg("endpoint") = true,
      nb::arg("dtype").none() = nb::none(), nb::arg("device").none() = nb::none(),
      "`num` evenly spaced values from start to stop (inclusive when endpoint), as numpy.linspace.");
  m.def(
      "eye",
      [](nb::handle n_h, nb::handle m_h, nb::handle k_h, nb::handle dtype, nb::handle device) {
        const int64_t n = to_int_arg(n_h, "eye", "N");
        // Any diagonal beyond 64 bits is empty: saturate rather than refuse it.
        int64_t k = 0;
        int overflow = 0;
        if (PyLong_Check(k_h.ptr())) {
          k = PyLong_AsLongLongAndOverflow(k_h.ptr(), &overflow);
          if (overflow) k = overflow > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
        } else {
          k = to_int_arg(k_h, "eye", "k");
        }
        const std::optional<int64_t> mm =
            m_h.is_none() ? std::nullopt : std::optional<int64_t>(to_int_arg(m_h, "eye", "M"));
        return eye(n, mm, k, dtype.is_none() ? float64 : to_dtype(dtype), to_optional_device(device));
      },
      nb::arg("N"), nb::arg("M").none() = nb::none(), nb::arg("k") = 0, nb::arg("dtype").none() = nb::none(),
      nb::arg("device").none() = nb::none(), "N x M array with ones on diagonal k (dtype float64 when None).");
  m.def(
      "identity",
      [](nb::handle n_h, nb::handle dtype, nb::handle device) {
        return identity(to_int_arg(n_h, "identity", "n"), dtype.is_none() ? float64 : to_dtype(dtype), to_optional_device(device));
      },
      nb::arg("n"), nb::arg("dtype").none() = nb::none(), nb::arg("device").none() = nb::none(),
      "The n x n identity matrix (dtype float64 when None).");
}

}  // namespace loom::py
