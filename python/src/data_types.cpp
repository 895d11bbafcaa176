// Bindings of the Array API standard's data type functions: finfo and iinfo (classes, as
// NumPy's), can_cast, isdtype (core/dtype_info.h), result_type and astype
// (ops/data_types.h).
#include <cstdio>
#include <string>
#include <vector>

#include "bindings.h"
#include "loom/core/dtype_info.h"
#include "loom/ops/data_types.h"

#include <nanobind/stl/string.h>

namespace loom::py {
namespace {

bool is_python_number(nb::handle h) {
  return PyBool_Check(h.ptr()) || PyLong_CheckExact(h.ptr()) || PyFloat_CheckExact(h.ptr()) ||
         PyComplex_CheckExact(h.ptr());
}

// A dtype, or the dtype of an array (loom's or NumPy's, or a NumPy scalar), as the
// standard's `type`/`from_` arguments take either.
DType dtype_of(nb::handle h) {
  if (nb::isinstance<Array>(h)) return nb::cast<const Array&>(h).dtype();
  nb::handle np = numpy_module();
  if (nb::isinstance(h, np.attr("ndarray")) || nb::isinstance(h, np.attr("generic"))) return to_dtype(h.attr("dtype"));
  return to_dtype(h);
}

std::string repr_double(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.8g", v);
  return buf;
}

// One of the standard's kinds: a dtype (equality) or a kind name.
bool matches_kind(DType dt, nb::handle kind) {
  if (nb::isinstance<nb::str>(kind)) return isdtype(dt, nb::cast<std::string>(kind));
  DType k;
  try {
    k = to_dtype(kind);
  } catch (const DTypeError&) {
    throw nb::type_error(("[isdtype] kind must be a dtype, a kind name or a tuple of them, not " +
                          nb::cast<std::string>(nb::repr(kind)))
                             .c_str());
  }
  return k == dt;
}

}  // namespace

LOOM_BINDING_FAMILY(data_types, 13) {
  nb::class_<FloatInfo>(m, "finfo",
                        "Machine limits of a floating-point dtype, as numpy.finfo and the Array API's finfo: "
                        "loom.finfo(dtype or array). A complex dtype gives its parts' limits.")
      .def("__init__", [](FloatInfo* self, nb::handle type) { new (self) FloatInfo(finfo(dtype_of(type))); },
           nb::arg("type"), "The limits of `type` (a dtype, or an array whose dtype to use).")
      .def_prop_ro("bits", [](const FloatInfo& f) { return f.bits; }, "Bits of one value.")
      .def_prop_ro("eps", [](const FloatInfo& f) { return f.eps; }, "The gap between 1.0 and the next value.")
      .def_prop_ro("max", [](const FloatInfo& f) { return f.max; }, "The largest finite value.")
      .def_prop_ro("min", [](const FloatInfo& f) { return f.min; }, "The smallest (most negative) finite value.")
      .def_prop_ro("smallest_normal", [](const FloatInfo& f) { return f.smallest_normal; },
                   "The smallest positive normal value.")
      .def_prop_ro("tiny", [](const FloatInfo& f) { return f.smallest_normal; }, "NumPy's name of smallest_normal.")
      .def_prop_ro("precision", [](const FloatInfo& f) { return f.precision; },
                   "Decimal digits of precision (NumPy's).")
      .def_prop_ro("resolution", [](const FloatInfo& f) { return f.resolution; }, "10 ** -precision.")
      .def_prop_ro("dtype", [](const FloatInfo& f) { return dtype_object(f.dtype); },
                   "The real floating-point dtype these limits are of.")
      .def("__repr__", [](const FloatInfo& f) {
        return "finfo(resolution=" + repr_double(f.resolution) + ", min=" + repr_double(f.min) +
               ", max=" + repr_double(f.max) + ", dtype=" + dtype_name(f.dtype) + ")";
      });

  nb::class_<IntInfo>(m, "iinfo",
                      "Range of an integer dtype, as numpy.iinfo and the Array API's iinfo: loom.iinfo(dtype or "
                      "array).")
      .def("__init__", [](IntInfo* self, nb::handle type) { new (self) IntInfo(iinfo(dtype_of(type))); },
           nb::arg("type"), "The range of `type` (a dtype, or an array whose dtype to use).")
      .def_prop_ro("bits", [](const IntInfo& i) { return i.bits; }, "Bits of one value.")
      .def_prop_ro("min", [](const IntInfo& i) { return i.min; }, "The smallest value.")
      .def_prop_ro("max", [](const IntInfo& i) { return i.max; }, "The largest value.")
      .def_prop_ro("dtype", [](const IntInfo& i) { return dtype_object(i.dtype); }, "The integer dtype.")
      .def("__repr__", [](const IntInfo& i) {
        return "iinfo(min=" + std::to_string(i.min) + ", max=" + std::to_string(i.max) + ", dtype=" +
               dtype_name(i.dtype) + ")";
      });

  m.def(
      "can_cast",
      [](nb::handle from, nb::handle to, nb::handle casting) {
        if (is_python_number(from))  // NumPy 2 refuses them too: their dtype depends on the other operand
          throw nb::type_error("[can_cast] from_ must be a dtype or an array, not a Python scalar");
        const Casting c = casting_from_name(to_str_arg(casting, "can_cast", "casting"));
        return can_cast(dtype_of(from), to_dtype(to), c);
      },
      nb::arg("from_"), nb::arg("to"), nb::arg("casting") = "safe",
      "Whether values of dtype `from_` (a dtype or an array) can be cast to `to` under NumPy's `casting` "
      "rule: 'safe' (the default, the Array API's: promotion of the two gives `to`), 'same_kind', 'no', "
      "'equiv' or 'unsafe'.");

  m.def(
      "isdtype",
      [](nb::handle dtype, nb::handle kind) {
        const DType dt = to_dtype(dtype);
        if (PyTuple_Check(kind.ptr())) {
          for (nb::handle k : kind)
            if (matches_kind(dt, k)) return true;
          return false;
        }
        return matches_kind(dt, kind);
      },
      nb::arg("dtype"), nb::arg("kind"),
      "Whether `dtype` is of `kind`: a dtype, a kind name ('bool', 'signed integer', 'unsigned integer', "
      "'integral', 'real floating', 'complex floating', 'numeric') or a tuple of them (any). float16 and "
      "bfloat16 are 'real floating'.");

  m.def(
      "result_type",
      [](nb::args arrays_and_dtypes) {
        std::vector<DType> dtypes;
        std::vector<Scalar> scalars;
        for (nb::handle h : arrays_and_dtypes) {
          if (is_python_number(h)) scalars.push_back(to_scalar(h));
          else dtypes.push_back(dtype_of(h));
        }
        return dtype_object(result_type(dtypes, scalars));
      },
      "The dtype NumPy 2 promotes its arguments to: arrays and dtypes promote; Python bool, int, float and "
      "complex values are weak (NEP 50: int8 with 1 stays int8, float32 with 1j is complex64).");

  m.def(
      "astype",
      [](nb::handle x, nb::handle dtype, bool copy, nb::handle device) -> nb::object {
        if (!nb::isinstance<Array>(x))
          raise_arg_type("astype", "x", "a loom array", x);
        const Array& a = nb::cast<const Array&>(x);
        const DType dt = to_dtype(dtype);
        const std::optional<Device> dev = to_optional_device(device);
        if (!copy && dt == a.dtype() && (!dev || *dev == a.device())) return nb::borrow(x);
        warn_complex_discard(a.dtype(), dt);
        Array r;
        {
          nb::gil_scoped_release release;
          r = astype(a, dt, copy, dev);
        }
        return nb::cast(std::move(r));
      },
      nb::arg("x"), nb::arg("dtype"), nb::kw_only(), nb::arg("copy") = true, nb::arg("device").none() = nb::none(),
      "The Array API's astype: `x` converted to `dtype` (NumPy's cast results) on `device` (default: x's). "
      "With copy=False, `x` itself when neither the dtype nor the device changes; otherwise a new array.");
}

}  // namespace loom::py
