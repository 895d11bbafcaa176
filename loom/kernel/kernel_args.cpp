#include "loom/kernel/kernel_args.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <tuple>

#include "loom/core/convert.h"
#include "loom/core/error.h"
#include "loom/kernel/module_state.h"

namespace loom::kernel_detail {
namespace {

std::string param_text(size_t i, size_t size) {
  return "parameter " + std::to_string(i) + " (" + std::to_string(size) + " bytes)";
}

std::string param_text(size_t i, const ParamType& t) {
  return "parameter " + std::to_string(i) + (t.text.empty() ? "" : " (" + t.text + ")");
}

// An integer scalar at `size` bytes. Values that fit the signed or the unsigned type of
// that width are taken (0xFFFFFFFF for an unsigned int parameter); others overflow.
void pack_integer(const std::string& kernel, const Scalar& s, size_t i, size_t size, void* dst) {
  const bool negative = s.kind == Scalar::Kind::int_ && s.i < 0;
  const uint64_t magnitude = s.kind == Scalar::Kind::uint_ ? s.u
                             : s.kind == Scalar::Kind::boolean ? uint64_t{s.b}
                                                              : static_cast<uint64_t>(s.i);
  if (size < 8) {
    const int bits = static_cast<int>(size) * 8;
    const int64_t lo = -(int64_t{1} << (bits - 1));
    const uint64_t hi = (uint64_t{1} << bits) - 1;
    const bool fits = negative ? s.i >= lo : magnitude <= hi;
    if (!fits)
      throw std::overflow_error(prefix(kernel) + " the Python int " +
                                (negative ? std::to_string(s.i) : std::to_string(magnitude)) +
                                " does not fit " + param_text(i, size));
  }
  const uint64_t bits = negative ? static_cast<uint64_t>(s.i) : magnitude;
  std::memcpy(dst, &bits, size);  // little-endian: the low bytes are the value
}

void pack_float(const std::string& kernel, const Scalar& s, size_t i, size_t size, void* dst) {
  const double v = s.as_double();
  if (size == 8) {
    std::memcpy(dst, &v, 8);
  } else if (size == 4) {
    const float f = static_cast<float>(v);
    std::memcpy(dst, &f, 4);
  } else if (size == 2) {
    const uint16_t h = double_to_half(v);  // a 2-byte float parameter is taken as __half
    std::memcpy(dst, &h, 2);
  } else {
    throw DTypeError(prefix(kernel) + " a Python float cannot be passed as " + param_text(i, size) +
                     "; pass a NumPy scalar of the parameter's type");
  }
}

// NumPy's kind order: same_kind casting goes up it (or stays), never down.
int kind_rank(DType dt) {
  switch (dtype_kind(dt)) {
    case DTypeKind::boolean: return 0;
    case DTypeKind::unsigned_int: return 1;
    case DTypeKind::signed_int: return 2;
    default: return 3;
  }
}

// The value of an integer or bool scalar fits integer dtype `dt`.
bool integer_fits(const Scalar& s, DType dt) {
  if (s.kind == Scalar::Kind::boolean) return true;
  const bool is_signed = dtype_kind(dt) == DTypeKind::signed_int;
  const int bits = static_cast<int>(itemsize(dt)) * 8;
  if (s.kind == Scalar::Kind::int_ && s.i < 0) return is_signed && (bits == 64 || s.i >= -(int64_t{1} << (bits - 1)));
  const uint64_t m = s.kind == Scalar::Kind::uint_ ? s.u : static_cast<uint64_t>(s.i);
  const uint64_t hi = bits == 64 ? (is_signed ? uint64_t{INT64_MAX} : UINT64_MAX)
                                 : (is_signed ? (uint64_t{1} << (bits - 1)) - 1 : (uint64_t{1} << bits) - 1);
  return m <= hi;
}

// "a float32 array", "an int32 scalar", "a uint8" (you-int).
std::string with_article(const std::string& what) { return (what[0] == 'i' ? "an " : "a ") + what; }
std::string a_dtype(DType dt) { return with_article(dtype_name(dt)); }

std::string value_text(const Scalar& s) {
  switch (s.kind) {
    case Scalar::Kind::boolean: return s.b ? "True" : "False";
    case Scalar::Kind::int_: return std::to_string(s.i);
    case Scalar::Kind::uint_: return std::to_string(s.u);
    default: return std::to_string(s.f);
  }
}

// A scalar argument converted to the known type of a scalar parameter (NumPy's rules:
// Python scalars are weak, typed ones cast same_kind; integers never wrap).
void pack_typed_scalar(const std::string& kernel, const KernelArg& a, size_t i, const ParamType& t, void* dst) {
  const Scalar& s = a.scalar();
  const DType to = t.dtype;
  const int from_rank = a.typed() ? kind_rank(a.dtype())
                        : s.kind == Scalar::Kind::boolean ? 0
                        : s.kind == Scalar::Kind::float_  ? 3
                                                          : 1;  // a weak int goes to any integer type
  const int to_rank = kind_rank(to);
  if (from_rank > to_rank || (from_rank == 1 && to_rank == 0) ||
      (a.typed() && from_rank == 2 && to_rank == 1)) {
    const char* hint = to_rank == 0 ? "; pass True or False" : to_rank == 3 ? "" : "; convert it with int() first";
    throw DTypeError(prefix(kernel) + " argument " + std::to_string(i) + " is " + with_article(a.describe()) + " but " +
                     param_text(i, t) + " is " + a_dtype(to) + ", and NumPy does not cast " +
                     (a.typed() ? dtype_name(a.dtype()) : a.describe().c_str()) + " to " + dtype_name(to) +
                     " (same_kind)" + hint);
  }
  if (is_integer(to) && !integer_fits(s, to))
    throw std::overflow_error(prefix(kernel) + " argument " + std::to_string(i) + ": the " + a.describe() + " " +
                              value_text(s) + " does not fit " + param_text(i, t) + ", " + a_dtype(to));
  scalar_to_bytes(s, to, dst);
}

std::string strides_text(const Strides& s) {
  std::string r;
  for (int64_t v : s) r += (r.empty() ? "" : ", ") + std::to_string(v);
  return "(" + r + (s.size() == 1 ? ",)" : ")");
}

// An array for an array view parameter (LoomArray<T, N, C>): its data pointer, then its
// shape and its strides in elements, as long long, into `dst` (1 + 2 * N words).
void pack_view(const std::string& kernel, const KernelArg& a, size_t i, const ParamType& t, uint64_t* dst) {
  auto which = [&](const std::string& arg) {
    return prefix(kernel) + " argument " + std::to_string(i) + " is " + with_article(arg) + " but " + param_text(i, t) +
           " is ";
  };
  if (a.kind() != KernelArg::Kind::array)
    throw DTypeError(which(a.describe()) + "a " + t.describe() + "; pass a loom array");
  const Array& x = a.array();
  const size_t n = t.ndim;
  auto arg_text = [&] { return std::to_string(x.ndim()) + "-D " + dtype_name(x.dtype()) + " array"; };
  if (x.dtype() != t.dtype)
    throw DTypeError(which(arg_text()) + "a " + t.describe() + "; pass " + a_dtype(t.dtype) +
                     " array (astype) or declare the parameter to match");
  if (static_cast<size_t>(x.ndim()) != n)
    throw DTypeError(which(arg_text()) + "a " + t.describe() + " (" + std::to_string(n) + " dimension" +
                     (n == 1 ? "" : "s") + ", not " + std::to_string(x.ndim()) +
                     "); reshape the array or declare the parameter with " + std::to_string(x.ndim()));
  const int64_t item = static_cast<int64_t>(x.itemsize());
  if (t.contiguous && !x.is_contiguous())
    throw DTypeError(which("non-C-contiguous " + arg_text() + " (strides " + strides_text(x.strides()) + " bytes)") +
                     "a " + t.describe() + ": the kernel needs a C-contiguous array; pass a.copy(), or declare the "
                     "parameter with C = false to take any strides");
  void* p = x.data();
  std::memcpy(dst, &p, 8);
  int64_t* shape = reinterpret_cast<int64_t*>(dst + 1);  // uint64_t storage: same size and alignment
  int64_t* strides = shape + n;
  int64_t c_stride = 1;  // a C-contiguous view's strides, from the last axis back
  for (size_t k = n; k-- > 0;) {
    const int64_t len = x.shape()[k], s = x.strides()[k];
    shape[k] = len;
    if (t.contiguous) {
      // What the kernel assumes; the same as the array's own strides wherever an index can
      // differ from 0 (an axis of length 0 or 1 may carry any stride).
      strides[k] = c_stride;
      c_stride *= std::max<int64_t>(len, 1);
    } else if (s % item == 0) {
      strides[k] = s / item;
    } else if (len <= 1) {
      strides[k] = 0;  // never multiplied by an index other than 0
    } else {
      throw DTypeError(which(arg_text() + " with strides " + strides_text(x.strides()) + " bytes") + "a " +
                       t.describe() + ", whose strides count elements, and the stride " + std::to_string(s) +
                       " of axis " + std::to_string(k) + " is not a multiple of the itemsize " +
                       std::to_string(item) + "; pass a.copy()");
    }
  }
}

// A complex value (KernelArg::complex_value) for a complex64 or complex128 parameter
// (loom_complex64/128, Python kernels): converted between the two precisions as NumPy's
// same_kind casting allows. False for anything else.
bool pack_complex(const KernelArg& a, const ParamType& t, void* slot) {
  if ((t.dtype != complex64 && t.dtype != complex128) || !a.typed()) return false;
  const char* b = a.bytes_value().data();
  double re, im;
  if (a.dtype() == complex128) {
    std::memcpy(&re, b, 8);
    std::memcpy(&im, b + 8, 8);
  } else if (a.dtype() == complex64) {
    float f[2];
    std::memcpy(f, b, 8);
    re = f[0], im = f[1];
  } else {
    return false;
  }
  if (t.dtype == complex128) {
    const double v[2] = {re, im};
    std::memcpy(slot, v, 16);
  } else {
    const float v[2] = {static_cast<float>(re), static_cast<float>(im)};
    std::memcpy(slot, v, 8);
  }
  return true;
}

// An argument for a parameter whose type is known.
void pack_known(const std::string& kernel, const KernelArg& a, size_t i, const ParamType& t, void* slot) {
  // The start of every refusal, built only when one is raised (launches are a hot path).
  auto which = [&] {
    return prefix(kernel) + " argument " + std::to_string(i) + " is " + with_article(a.describe()) + " but " + param_text(i, t) +
           " is ";
  };
  if (t.kind == ParamType::Kind::pointer) {
    if (a.kind() == KernelArg::Kind::array) {
      if (!t.any_element && a.array().dtype() != t.dtype)
        throw DTypeError(which() + "a pointer to " + dtype_name(t.dtype) + "; pass " + a_dtype(t.dtype) +
                         " array (astype) or declare the parameter to match");
      void* p = a.array().data();
      std::memcpy(slot, &p, 8);
    } else if (a.kind() == KernelArg::Kind::pointer) {
      void* p = a.pointer_value();
      std::memcpy(slot, &p, 8);
    } else {
      throw DTypeError(which() + "a pointer; pass a loom array, a loom.driver allocation or, for a raw "
                       "address, ctypes.c_void_p(address)");
    }
    return;
  }
  switch (a.kind()) {
    case KernelArg::Kind::array:
    case KernelArg::Kind::pointer: throw DTypeError(which() + a_dtype(t.dtype) + " value, not a pointer");
    case KernelArg::Kind::bytes:
      if (pack_complex(a, t, slot)) return;
      if (a.is_opaque() || a.bytes_value().size() != t.size())
        throw DTypeError(which() + a_dtype(t.dtype) + " (" + std::to_string(t.size()) + " bytes)");
      std::memcpy(slot, a.bytes_value().data(), t.size());  // raw bytes of the right size: the caller's choice
      return;
    case KernelArg::Kind::scalar: pack_typed_scalar(kernel, a, i, t, slot); return;
  }
}

// An argument for a parameter of unknown type: by size, as the driver reports it.
void pack_by_size(const std::string& kernel, const KernelArg& a, size_t i, size_t size, bool sizes_known,
                  uint64_t* storage, void** ptrs) {
  void* slot = &storage[2 * i];
  if (sizes_known) {
    const size_t natural = a.kind() == KernelArg::Kind::bytes ? a.bytes_value().size()
                           : a.kind() == KernelArg::Kind::scalar && a.typed() ? itemsize(a.dtype())
                           : a.kind() == KernelArg::Kind::scalar ? size
                                                                  : 8;
    if (natural != size)
      throw DTypeError(prefix(kernel) + " argument " + std::to_string(i) + " is " + with_article(a.describe()) +
                       " but the kernel's " + param_text(i, size) + " takes " + std::to_string(size) + " bytes" +
                       (a.kind() == KernelArg::Kind::array || a.kind() == KernelArg::Kind::pointer
                            ? ": is that parameter declared as a pointer?"
                            : ""));
  }
  switch (a.kind()) {
    case KernelArg::Kind::array: {
      void* p = a.array().data();
      std::memcpy(slot, &p, 8);
      break;
    }
    case KernelArg::Kind::pointer: {
      void* p = a.pointer_value();
      std::memcpy(slot, &p, 8);
      break;
    }
    case KernelArg::Kind::bytes:
      // Large values (structs) are read in place; the argument outlives the launch call.
      if (size <= 16) std::memcpy(slot, a.bytes_value().data(), size);
      else ptrs[i] = const_cast<char*>(a.bytes_value().data());
      break;
    case KernelArg::Kind::scalar:
      if (a.typed()) {  // a NumPy scalar: its own bytes, exactly its size (checked above)
        if (itemsize(a.dtype()) > 16) throw DTypeError(prefix(kernel) + " argument " + std::to_string(i) + " is too large");
        scalar_to_bytes(a.scalar(), a.dtype(), slot);
        break;
      }
      if (size != 1 && size != 2 && size != 4 && size != 8)
        throw DTypeError(prefix(kernel) + " argument " + std::to_string(i) + " is " + with_article(a.describe()) +
                         " but the kernel's " + param_text(i, size) +
                         " is not a number; pass a NumPy scalar or bytes of that size");
      if (a.scalar().kind == Scalar::Kind::float_) pack_float(kernel, a.scalar(), i, size, slot);
      else pack_integer(kernel, a.scalar(), i, size, slot);
      break;
  }
}

// The natural size of an argument when the parameter list is unknown.
size_t natural_size(const KernelArg& a) {
  switch (a.kind()) {
    case KernelArg::Kind::bytes: return a.bytes_value().size();
    case KernelArg::Kind::scalar:
      if (a.typed()) return itemsize(a.dtype());
      return a.scalar().kind == Scalar::Kind::boolean ? 1 : 8;
    default: return 8;
  }
}

}  // namespace

PackedArgs::PackedArgs(const std::string& kernel, const std::vector<KernelArg>& args,
                       const std::vector<size_t>& sizes, bool sizes_known, const KernelParamTypes* types) {
  if (args.size() <= kInline) {
    storage_ = inline_storage_;
    ptrs_ = inline_ptrs_;
  } else {
    heap_storage_.resize(2 * args.size());
    heap_ptrs_.resize(args.size());
    storage_ = heap_storage_.data();
    ptrs_ = heap_ptrs_.data();
  }
  std::fill(storage_, storage_ + 2 * args.size(), uint64_t{0});
  // Types that do not line up with the compiled parameters (a macro made several of one
  // declaration) say nothing about them; nor does an uncertain list without the sizes.
  if (types && (sizes_known ? types->params.size() != sizes.size() : !types->count_certain)) types = nullptr;
  const size_t expected = sizes_known ? sizes.size() : types && types->count_certain ? types->params.size() : 0;
  if ((sizes_known || (types && types->count_certain)) && args.size() != expected) {
    std::string list;
    if (types && types->params.size() == expected)
      for (const ParamType& t : types->params) list += (list.empty() ? "" : ", ") + (t.text.empty() ? t.describe() : t.text);
    else
      for (size_t s : sizes) list += (list.empty() ? "" : ", ") + std::to_string(s) + " bytes";
    throw DTypeError(prefix(kernel) + " takes " + std::to_string(expected) + " argument" +
                     (expected == 1 ? "" : "s") + " (" + (list.empty() ? "none" : list) + ") but " +
                     std::to_string(args.size()) + (args.size() == 1 ? " was" : " were") + " given");
  }
  // The known type of parameter i, or null: unknown, or a macro changed it.
  auto type_at = [&](size_t i) -> const ParamType* {
    const ParamType* t = types && i < types->params.size() ? &types->params[i] : nullptr;
    return t && t->known() && (!sizes_known || t->size() == sizes[i]) ? t : nullptr;
  };
  // Array views take words of their own, counted first so their storage never moves.
  size_t view_words = 0;
  if (types)
    for (size_t i = 0; i < args.size(); ++i)
      if (const ParamType* t = type_at(i); t && t->kind == ParamType::Kind::view) view_words += t->size() / 8;
  uint64_t* views = inline_views_;
  if (view_words > kInlineViewWords) {
    heap_views_.resize(view_words);
    views = heap_views_.data();
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArg& a = args[i];
    ptrs_[i] = &storage_[2 * i];
    const ParamType* t = type_at(i);
    if (t && t->kind == ParamType::Kind::view) {
      ptrs_[i] = views;
      pack_view(kernel, a, i, *t, views);
      views += t->size() / 8;
    } else if (t) {
      pack_known(kernel, a, i, *t, ptrs_[i]);
    } else {
      pack_by_size(kernel, a, i, sizes_known ? sizes[i] : natural_size(a), sizes_known, storage_, ptrs_);
    }
  }
}

// An array's or a pointer's bytes, or a view's, start with the pointer (never a large
// struct's bytes read in place, which ptrs_ may also point at: those are not pointers).
void PackedArgs::set_pointer(size_t i, void* p) { std::memcpy(ptrs_[i], &p, 8); }

std::shared_ptr<const KernelParamTypes> source_types(const ModuleState& m, const std::string& name) {
  // Keyed by content (the module's key and the name), never by address: a module freed and
  // another made at its address must not find the first one's types.
  static std::mutex mu;
  static std::map<std::tuple<uint64_t, uint64_t, std::string>, std::shared_ptr<const KernelParamTypes>> cache;
  const auto key = std::make_tuple(m.key.hi, m.key.lo, name);
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
  }
  bool is_expression = false;
  for (const auto& n : m.name_expressions) is_expression = is_expression || n == name;
  std::shared_ptr<const KernelParamTypes> types;  // null: unknown
  if (auto t = source_param_types(m.code, name, is_expression)) types = std::make_shared<const KernelParamTypes>(std::move(*t));
  std::lock_guard<std::mutex> lock(mu);
  if (cache.size() >= 4096) cache.clear();  // bounded: a few entries per module in use
  cache.emplace(key, types);
  return types;
}

}  // namespace loom::kernel_detail
