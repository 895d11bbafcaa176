// dtypes: the 15 loom.<name> dtype objects, and the conversion of every spelling users
// pass as dtype= (loom dtypes, NumPy dtypes and scalar types, ml_dtypes.bfloat16,
// strings, bool/int/float) to loom::DType.
#include <utility>
#include <string>

#include "bindings.h"

#include <nanobind/stl/string.h>

namespace loom::py {
namespace {

struct DTypeObj {
  DType value;
};

// Interpreter-lifetime references (never released: teardown order cannot matter).
PyObject* g_dtype_objs[kNumDTypes] = {};
PyObject* g_numpy = nullptr;
PyObject* g_np_dtypes[kNumDTypes] = {};

void ensure_numpy() {
  if (g_numpy) return;
  nb::object np = nb::module_::import_("numpy");
  nb::object bf16 = nb::module_::import_("ml_dtypes").attr("bfloat16");
  nb::object np_dtype = np.attr("dtype");
  for (int i = 0; i < kNumDTypes; ++i) {
    const DType dt = static_cast<DType>(i);
    nb::object d = dt == bfloat16 ? np_dtype(bf16) : np_dtype(dtype_name(dt));
    g_np_dtypes[i] = d.release().ptr();
  }
  g_numpy = np.release().ptr();
}

// numpy.dtype -> DType, by identity first (builtin dtypes are singletons), then by kind.
DType from_numpy_dtype(nb::handle d) {
  for (int i = 0; i < kNumDTypes; ++i) {
    if (d.ptr() == g_np_dtypes[i]) return static_cast<DType>(i);
  }
  const std::string kind = nb::cast<std::string>(d.attr("kind"));
  const int size = nb::cast<int>(d.attr("itemsize"));
  if (d.equal(nb::handle(g_np_dtypes[static_cast<int>(bfloat16)]))) return bfloat16;
  if (kind == "b" && size == 1) return bool_;
  if (kind == "i") {
    switch (size) { case 1: return int8; case 2: return int16; case 4: return int32; case 8: return int64; }
  }
  if (kind == "u") {
    switch (size) { case 1: return uint8; case 2: return uint16; case 4: return uint32; case 8: return uint64; }
  }
  if (kind == "f") {
    switch (size) { case 2: return float16; case 4: return float32; case 8: return float64; }
  }
  if (kind == "c") {
    switch (size) { case 8: return complex64; case 16: return complex128; }
  }
  throw DTypeError("loom does not support dtype " + nb::cast<std::string>(nb::str(d)) +
                   " (supported: bool, int8-64, uint8-64, float16, bfloat16, float32, float64, complex64, "
                   "complex128)");
}

}  // namespace

nb::handle numpy_module() {
  ensure_numpy();
  return g_numpy;
}

nb::object dtype_object(DType dt) { return nb::borrow(g_dtype_objs[static_cast<int>(dt)]); }

void warn_complex_discard(DType from, DType to) {
  // A cast to bool reads both parts (nonzero), so NumPy does not warn for it either.
  if (!is_complex(from) || is_complex(to) || to == bool_) return;
  nb::handle np = numpy_module();
  // numpy.exceptions (NumPy >= 1.25) holds it; older NumPy has it at the top level.
  nb::object cls = nb::hasattr(np, "exceptions") ? np.attr("exceptions").attr("ComplexWarning")
                                                  : np.attr("ComplexWarning");
  if (PyErr_WarnEx(cls.ptr(), "Casting complex values to real discards the imaginary part", 1) < 0)
    throw nb::python_error();
}

nb::object numpy_dtype(DType dt) {
  ensure_numpy();
  return nb::borrow(g_np_dtypes[static_cast<int>(dt)]);
}

DType to_dtype(nb::handle h) {
  PyObject* p = h.ptr();
  for (int i = 0; i < kNumDTypes; ++i) {
    if (p == g_dtype_objs[i]) return static_cast<DType>(i);
  }
  if (nb::isinstance<DTypeObj>(h)) return nb::cast<const DTypeObj&>(h).value;
  if (p == reinterpret_cast<PyObject*>(&PyFloat_Type)) return float64;
  if (p == reinterpret_cast<PyObject*>(&PyBool_Type)) return bool_;
  if (p == reinterpret_cast<PyObject*>(&PyLong_Type)) return int64;
  if (p == reinterpret_cast<PyObject*>(&PyComplex_Type)) return complex128;
  if (p == Py_None) throw DTypeError("dtype must not be None here");
  if (PyUnicode_Check(p)) {
    const std::string name = nb::cast<std::string>(h);
    try {
      return dtype_from_name(name);
    } catch (const DTypeError&) {
      // NumPy spellings the core does not know ("<f4", "=i8", "float_"), if NumPy does.
      ensure_numpy();
      nb::object d;
      try {
        d = nb::handle(g_numpy).attr("dtype")(h);
      } catch (const nb::python_error&) {
        throw DTypeError("unknown dtype '" + name + "'");
      }
      return from_numpy_dtype(d);
    }
  }
  ensure_numpy();
  nb::object d;
  try {
    d = nb::handle(g_numpy).attr("dtype")(h);
  } catch (const nb::python_error&) {
    throw DTypeError("cannot interpret " + nb::cast<std::string>(nb::repr(h)) + " as a dtype");
  }
  return from_numpy_dtype(d);
}

std::optional<DType> to_optional_dtype(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  return to_dtype(h);
}

void init_dtype(nb::module_& m) {
  nb::class_<DTypeObj> cls(m, "dtype",
                           "A loom element type (loom.float32, ...). Compares equal to the NumPy "
                           "dtypes, scalar types and names that denote the same type.");
  // loom.dtype('float32'), loom.dtype(np.int8), ...: as numpy.dtype(x), any spelling to_dtype
  // accepts (TypeError naming the spelling otherwise).
  // None is NumPy's default type, float64, in numpy.dtype(None) and in comparisons
  // (np.dtype('f8') == None is True, which CuPy's tests of dtype=None results rely on).
  const auto spelled = [](nb::handle h) { return h.is_none() ? DType::float64 : to_dtype(h); };
  cls.def("__init__", [spelled](DTypeObj* self, nb::handle spec) { new (self) DTypeObj{spelled(spec)}; },
          nb::arg("spec").none(),
          "The loom dtype that `spec` (a dtype, NumPy dtype or type, or name; None: float64) denotes.");
  cls.def_prop_ro("name", [](const DTypeObj& d) { return dtype_name(d.value); },
                  "NumPy's name of the type: 'float32', 'bool', 'bfloat16', ...")
      .def_prop_ro("itemsize", [](const DTypeObj& d) { return itemsize(d.value); },
                   "Size of one element in bytes.")
      .def_prop_ro("kind",
                   [](const DTypeObj& d) {
                     switch (dtype_kind(d.value)) {
                       case DTypeKind::boolean: return "b";
                       case DTypeKind::signed_int: return "i";
                       case DTypeKind::unsigned_int: return "u";
                       case DTypeKind::complex: return "c";
                       default: return "f";
                     }
                   },
                   "NumPy's kind character: 'b' bool, 'i' signed, 'u' unsigned, 'f' floating, 'c' complex.")
      .def_prop_ro("dtype", [](const DTypeObj& d) { return numpy_dtype(d.value); },
                   "The equivalent numpy.dtype (ml_dtypes.bfloat16 for bfloat16); lets "
                   "np.dtype(loom.float32) and np.zeros(3, dtype=loom.float32) work.")
      .def("__eq__",
           [spelled](const DTypeObj& d, nb::handle other) {
             try {
               return spelled(other) == d.value;
             } catch (...) {  // not a dtype: unequal, as NumPy answers
               PyErr_Clear();
               return false;
             }
           },
           nb::arg("other").none(), "True when `other` denotes the same type (loom/NumPy dtype, name, type).")
      .def("__ne__",
           [spelled](const DTypeObj& d, nb::handle other) {
             try {
               return spelled(other) != d.value;
             } catch (...) {
               PyErr_Clear();
               return true;
             }
           },
           nb::arg("other").none(), "Negation of __eq__.")
      .def("__hash__", [](const DTypeObj& d) { return nb::hash(nb::str(dtype_name(d.value))); },
           "Hash of the type's name.")
      .def("__repr__", [](const DTypeObj& d) { return std::string("loom.") + dtype_name(d.value); },
           "'loom.float32'")
      .def("__str__", [](const DTypeObj& d) { return std::string(dtype_name(d.value)); }, "'float32'");

  static const char* const attr_names[kNumDTypes] = {
      "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
      "float16", "bfloat16", "float32", "float64", "complex64", "complex128"};
  for (int i = 0; i < kNumDTypes; ++i) {
    nb::object o = nb::cast(DTypeObj{static_cast<DType>(i)});
    m.attr(attr_names[i]) = o;
    g_dtype_objs[i] = o.release().ptr();
  }
  // NumPy 2's C-type names (Linux, LP64), the same objects as the sized names: np.intp and
  // np.double in ported code need no rewriting (loom.int_ is loom.int64).
  static const std::pair<const char*, const char*> aliases[] = {
      {"half", "float16"},   {"single", "float32"},    {"double", "float64"},  {"csingle", "complex64"},
      {"cdouble", "complex128"}, {"byte", "int8"},     {"ubyte", "uint8"},     {"short", "int16"},
      {"ushort", "uint16"},  {"intc", "int32"},        {"uintc", "uint32"},    {"int_", "int64"},
      {"intp", "int64"},     {"long", "int64"},        {"longlong", "int64"},  {"uint", "uint64"},
      {"uintp", "uint64"},   {"ulong", "uint64"},      {"ulonglong", "uint64"}};
  for (const auto& [alias, name] : aliases) m.attr(alias) = m.attr(name);
  // Drop our references before nanobind's leak check at module teardown; the module
  // attributes keep the objects alive until then.
  nb::module_::import_("atexit").attr("register")(nb::cpp_function([]() {
    for (PyObject*& o : g_dtype_objs) {
      Py_CLEAR(o);
    }
  }));

  m.def("promote_types",
        [](nb::handle a, nb::handle b) { return dtype_object(promote_types(to_dtype(a), to_dtype(b))); },
        nb::arg("type1"), nb::arg("type2"),
        "The dtype NumPy 2 promotes two array dtypes to (bfloat16 follows ml_dtypes).");
  m.def("_numpy_dtype", [](nb::handle d) { return numpy_dtype(to_dtype(d)); }, nb::arg("dtype"),
        "The numpy.dtype of any dtype spelling loom accepts.");
}

}  // namespace loom::py
