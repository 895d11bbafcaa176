// The type key of a Python kernel's launch arguments (kernel_dispatcher.cpp), and its one
// written grammar: one item per argument joined by ",": a loom array is
// `<dtype>[<ndim><C or A>]` (C when C-contiguous), a Python bool `bool`, int `int64`, float
// `float64`, complex `complex128`, a NumPy scalar of a loom dtype its dtype's name. Other kinds have no key: the
// Python side handles them. Built on every launch, so without allocation or Python calls for
// the hot kinds. The translator (pykernel/types.py) formats and parses keys only through
// format_key/parse_key below (bound as _kernel_key/_parse_kernel_key), so the launch path
// and the translator cannot spell a key differently.
#pragma once
#include <array>
#include <cstring>
#include <optional>
#include <stdexcept>
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

// The dtype of a NumPy scalar loom has (as kernel_args.cpp's numpy_scalar decides: real ones
// typed, complex64/complex128 as their bytes), or nothing for other objects and other NumPy
// scalars (longdouble, clongdouble, datetime, structured, ...).
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
                     (kind == "c" && size <= 16) ||
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

constexpr char kSeparator = ',';

// `float32[2C]`: dtype, ndim, C when C-contiguous else A.
[[gnu::always_inline]] inline void put_array_item(Key& key, DType dt, int ndim, bool contiguous) {
  key.put(name_of(dt));
  key.put('[');
  if (ndim >= 0 && ndim < 10) {
    key.put(static_cast<char>('0' + ndim));
  } else {
    const std::string digits = std::to_string(ndim);
    key.put(digits);
  }
  key.put(contiguous ? "C]" : "A]", 2);
}

[[gnu::always_inline]] inline void put_array(Key& key, const Array& a) {
  put_array_item(key, a.dtype(), a.ndim(), a.is_contiguous());
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
  if (PyComplex_CheckExact(p)) return key.put("complex128"sv), true;
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
    if (i) key.put(kSeparator);
    if (!put_arg(key, PyTuple_GET_ITEM(args, i))) return false;
  }
  return true;
}

// ---- the translator's side: a key from types, types from a key (not on the hot path) --

/// One item of a key as the translator types it: an array (ndim >= 0, C-contiguous or not)
/// or a scalar (ndim -1).
struct KeyItem {
  DType dtype;
  int ndim = -1;
  bool contiguous = false;
};

/// The dtype of a canonical dtype name ("float32", not "f4": a key holds only those).
inline DType dtype_of_name(std::string_view name, std::string_view item) {
  try {
    const DType dt = dtype_from_name(std::string(name));
    if (name_of(dt) == name) return dt;
  } catch (const DTypeError&) {
  }
  throw std::invalid_argument("[kernel key] '" + std::string(item) + "' names no loom dtype");
}

inline std::string format_key(const std::vector<KeyItem>& items) {
  Key key;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) key.put(kSeparator);
    if (items[i].ndim >= 0) put_array_item(key, items[i].dtype, items[i].ndim, items[i].contiguous);
    else key.put(name_of(items[i].dtype));
  }
  return std::string(key.view());
}

inline KeyItem parse_item(std::string_view item) {
  const size_t open = item.find('[');
  if (open == std::string_view::npos) return KeyItem{dtype_of_name(item, item)};
  // `<dtype>[<digits><C|A>]`
  const std::string_view inner = item.substr(open + 1);
  const auto bad = [&] { return std::invalid_argument("[kernel key] '" + std::string(item) + "' is not <dtype>[<ndim><C|A>]"); };
  if (inner.size() < 3 || inner.back() != ']' || (inner[inner.size() - 2] != 'C' && inner[inner.size() - 2] != 'A'))
    throw bad();
  const std::string_view digits = inner.substr(0, inner.size() - 2);
  int ndim = 0;
  for (char c : digits) {
    if (c < '0' || c > '9' || ndim > 1000) throw bad();
    ndim = ndim * 10 + (c - '0');
  }
  if (digits.size() > 1 && digits[0] == '0') throw bad();  // one spelling per key
  return KeyItem{dtype_of_name(item.substr(0, open), item), ndim, inner[inner.size() - 2] == 'C'};
}

inline std::vector<KeyItem> parse_key(std::string_view key) {
  std::vector<KeyItem> items;
  if (key.empty()) return items;
  size_t start = 0;
  for (;;) {
    const size_t end = key.find(kSeparator, start);
    items.push_back(parse_item(key.substr(start, end == std::string_view::npos ? end : end - start)));
    if (end == std::string_view::npos) return items;
    start = end + 1;
  }
}

}  // namespace loom::py::kernel_signature
