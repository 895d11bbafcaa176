#include "loom/core/dtype.h"

#include <unordered_map>

#include "loom/core/error.h"

namespace loom {
namespace {

struct DTypeInfo {
  const char* name;
  const char* c_name;
  size_t size;
  DTypeKind kind;
};

constexpr DTypeInfo kInfo[kNumDTypes] = {
    {"bool", "bool", 1, DTypeKind::boolean},
    {"int8", "signed char", 1, DTypeKind::signed_int},
    {"int16", "short", 2, DTypeKind::signed_int},
    {"int32", "int", 4, DTypeKind::signed_int},
    {"int64", "long long", 8, DTypeKind::signed_int},
    {"uint8", "unsigned char", 1, DTypeKind::unsigned_int},
    {"uint16", "unsigned short", 2, DTypeKind::unsigned_int},
    {"uint32", "unsigned int", 4, DTypeKind::unsigned_int},
    {"uint64", "unsigned long long", 8, DTypeKind::unsigned_int},
    {"float16", "__half", 2, DTypeKind::floating},
    {"bfloat16", "__nv_bfloat16", 2, DTypeKind::floating},
    {"float32", "float", 4, DTypeKind::floating},
    {"float64", "double", 8, DTypeKind::floating},
    {"complex64", "loom_complex64", 8, DTypeKind::complex},
    {"complex128", "loom_complex128", 16, DTypeKind::complex},
};

const DTypeInfo& info(DType dt) { return kInfo[static_cast<int>(dt)]; }

}  // namespace

size_t itemsize(DType dt) { return info(dt).size; }
const char* dtype_name(DType dt) { return info(dt).name; }
const char* dtype_c_name(DType dt) { return info(dt).c_name; }
DTypeKind dtype_kind(DType dt) { return info(dt).kind; }

DType dtype_from_name(const std::string& name) {
  static const std::unordered_map<std::string, DType> names = {
      {"bool", bool_},      {"bool_", bool_},     {"?", bool_},        {"b1", bool_},
      {"int8", int8},       {"i1", int8},         {"b", int8},         {"int16", int16},
      {"i2", int16},        {"h", int16},         {"int32", int32},    {"i4", int32},
      {"i", int32},         {"int64", int64},     {"i8", int64},       {"l", int64},
      {"q", int64},         {"int", int64},       {"uint8", uint8},    {"u1", uint8},
      {"B", uint8},         {"uint16", uint16},   {"u2", uint16},      {"H", uint16},
      {"uint32", uint32},   {"u4", uint32},       {"I", uint32},       {"uint64", uint64},
      {"u8", uint64},       {"L", uint64},        {"Q", uint64},       {"uint", uint64},
      {"float16", float16}, {"f2", float16},      {"e", float16},      {"half", float16},
      {"bfloat16", bfloat16}, {"float32", float32}, {"f4", float32},   {"f", float32},
      {"float64", float64}, {"f8", float64},      {"d", float64},      {"float", float64},
      {"double", float64},  {"complex64", complex64}, {"c8", complex64},  {"F", complex64},
      {"complex128", complex128}, {"c16", complex128}, {"D", complex128}, {"complex", complex128},
      {"cfloat", complex128}, {"cdouble", complex128}, {"csingle", complex64},
  };
  auto it = names.find(name);
  if (it == names.end()) throw_dtype_error("dtype", "unsupported dtype '" + name + "'");
  return it->second;
}

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  const auto ka = dtype_kind(a), kb = dtype_kind(b);
  if (ka == DTypeKind::boolean) return b;
  if (kb == DTypeKind::boolean) return a;
  if (ka == DTypeKind::complex || kb == DTypeKind::complex) {
    // The complex type whose parts hold the real promotion of both parts' dtypes:
    // complex64 with float64 or int64 is complex128, with float16 or int8 complex64.
    const DType r = promote_types(real_dtype(a), real_dtype(b));
    return r == float64 ? complex128 : complex64;
  }
  const size_t sa = itemsize(a), sb = itemsize(b);
  if (ka == DTypeKind::floating && kb == DTypeKind::floating) {
    // float16 and bfloat16 meet in float32, as in ml_dtypes and JAX.
    if (sa == sb) return float32;
    return sa > sb ? a : b;
  }
  if (ka == DTypeKind::floating || kb == DTypeKind::floating) {
    const DType f = ka == DTypeKind::floating ? a : b;
    const DType i = ka == DTypeKind::floating ? b : a;
    // The float must hold every value of the integer: int8/uint8 -> 16-bit float,
    // 16-bit ints -> float32, wider ints -> float64.
    const size_t si = itemsize(i), sf = itemsize(f);
    size_t need = si == 1 ? 2 : si == 2 ? 4 : 8;
    if (f == bfloat16 && si == 1) need = 2;
    if (sf >= need) return f;
    return need == 4 ? float32 : float64;
  }
  if (ka == kb) return sa >= sb ? a : b;
  const DType s = ka == DTypeKind::signed_int ? a : b;
  const DType u = ka == DTypeKind::signed_int ? b : a;
  if (itemsize(s) > itemsize(u)) return s;
  switch (itemsize(u)) {
    case 1: return int16;
    case 2: return int32;
    case 4: return int64;
    default: return float64;  // uint64 with any signed int, as in NumPy
  }
}

}  // namespace loom
