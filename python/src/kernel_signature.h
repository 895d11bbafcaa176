// The type key of a Python kernel's launch arguments (kernel_dispatcher.cpp): one item per
// argument joined by ",": a loom array is `<dtype>[<ndim><C or A>]` (C when C-contiguous),
// a Python bool `bool`, int `int64`, float `float64`, a NumPy scalar of a loom dtype its
// dtype's name. Other kinds have no key: the Python side handles them. Built on every
// launch, so without allocation or Python calls for the hot kinds.
#pragma once
#include <array>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bindings.h"

namespace loom::py::kernel_signature {

// NumPy scalar types loom has a real dtype for (kernels take no complex scalars), found by
// exact type: the 13 NumPy types up front, others (numpy.longlong, ...) added when first seen.
inline std::vector<std::pair<PyTypeObject*, DType>>& numpy_scalar_types() {
  static std::vector<std::pair<PyTypeObject*, DType>> types = [] {
    std::vector<std::pair<PyTypeObject*, DType>> t;
    for (int i = 0; i < kNumRealDTypes; ++i) {
      const DType dt = static_cast<DType>(i);
      nb::object type = numpy_dtype(dt).attr("type");
      t.emplace_back(reinterpret_cast<PyTypeObject*>(type.release().ptr()), dt);  // kept for the process
    }
    return t;
  }();
  return types;
}

// The dtype of a NumPy scalar loom has (as kernel_args.cpp's numpy_scalar decides), or
// nothing for other objects and other NumPy scalars (complex, longdouble, datetime, ...).
inline std::optional<DType> numpy_scalar_dtype(PyObject* p) {
  auto& types = numpy_scalar_types();
  PyTypeObject* type = Py_TYPE(p);
  for (const auto& [t, dt] : types)
    if (t == type) return dt;
  static PyObject* const generic = nb::object(numpy_module().attr("generic")).release().ptr();
  const int is_generic = PyObject_IsInstance(p, generic);
  if (is_generic < 0) throw nb::python_error();
  if (!is_generic) return std::nullopt;
  nb::object dtype = nb::handle(p).attr("dtype");
  const std::string kind = nb::cast<std::string>(dtype.attr("kind"));
  const size_t size = nb::cast<size_t>(dtype.attr("itemsize"));
  const bool known = kind == "b" || kind == "i" || kind == "u" || (kind == "f" && size <= 8) ||
                     (kind == "V" && nb::cast<std::string>(dtype.attr("name")) == "bfloat16");
  if (!known) return std::nullopt;
  const DType dt = to_dtype(dtype);
  Py_INCREF(type);  // kept for the process, like the 13 above
  types.emplace_back(type, dt);
  return dt;
}

// A signature built on the stack (a heap string only past 400 characters). Inlined by
// hand: the bindings build with -Os, which would call out for each piece.
class Key {
 public:
  [[gnu::always_inline]] inline void put(const char* s, size_t n) {
    if (big_.empty() && n_ + n <= sizeof small_) {
      std::memcpy(small_ + n_, s, n);
      n_ += n;
      return;
    }
    if (big_.empty()) big_.assign(small_, n_);
    big_.append(s, n);
  }
  [[gnu::always_inline]] inline void put(std::string_view s) { put(s.data(), s.size()); }
  [[gnu::always_inline]] inline void put(char c) {
    if (big_.empty() && n_ < sizeof small_) small_[n_++] = c;
    else put(&c, 1);
  }
  std::string_view view() const { return big_.empty() ? std::string_view(small_, n_) : std::string_view(big_); }

 private:
  char small_[400];
  size_t n_ = 0;
  std::string big_;
};

[[gnu::always_inline]] inline std::string_view name_of(DType dt) {
  static const auto names = [] {
    std::array<std::string_view, kNumDTypes> n;
    for (int i = 0; i < kNumDTypes; ++i) n[i] = dtype_name(static_cast<DType>(i));
    return n;
  }();
  return names[static_cast<int>(dt)];
}

// `float32[2C]`: dtype, ndim, C when C-contiguous else A.
[[gnu::always_inline]] inline void put_array(Key& key, const Array& a) {
  key.put(name_of(a.dtype()));
  key.put('[');
  const int ndim = a.ndim();
  if (ndim < 10) {
    key.put(static_cast<char>('0' + ndim));
  } else {
    const std::string digits = std::to_string(ndim);
    key.put(digits);
  }
  key.put(a.is_contiguous() ? "C]" : "A]", 2);
}

// Puts the signature item of one argument; false when it is not of a fast kind. The hot
// kinds (loom arrays, Python numbers) are tested first, by exact type.
inline bool put_arg(Key& key, PyObject* p) {
  using namespace std::string_view_literals;
  static PyTypeObject* const array_type = reinterpret_cast<PyTypeObject*>(nb::type<Array>().ptr());
  if (Py_TYPE(p) == array_type) return put_array(key, *nb::inst_ptr<Array>(p)), true;
  if (PyBool_Check(p)) return key.put("bool"sv), true;
  if (PyLong_CheckExact(p)) return key.put("int64"sv), true;
  if (PyFloat_CheckExact(p)) return key.put("float64"sv), true;
  // NumPy scalars before subclasses of Python numbers (numpy.float64 is a float).
  if (std::optional<DType> dt = numpy_scalar_dtype(p)) return key.put(name_of(*dt)), true;
  if (nb::isinstance<Array>(p)) return put_array(key, *nb::inst_ptr<Array>(p)), true;
  if (PyLong_Check(p)) return key.put("int64"sv), true;  // subclasses pass as Python ints at the launch too
  if (PyFloat_Check(p)) return key.put("float64"sv), true;
  return false;
}

// The signature of `args` (a tuple) into `key`; false when an argument is not of a fast kind.
inline bool signature_of(Key& key, PyObject* args) {
  const Py_ssize_t n = PyTuple_GET_SIZE(args);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (i) key.put(',');
    if (!put_arg(key, PyTuple_GET_ITEM(args, i))) return false;
  }
  return true;
}

}  // namespace loom::py::kernel_signature
