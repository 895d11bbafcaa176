#include "loom/core/dtype_info.h"

#include <cmath>
#include <limits>

#include "loom/core/error.h"

namespace loom {
namespace {

// From the format's mantissa bits (stored, without the hidden bit) and its largest and
// smallest normal exponents: what std::numeric_limits says for float and double, and
// what it would say for the two 16-bit formats it does not know.
FloatInfo ieee_info(DType dt, int bits, int mantissa, int max_exp, int precision) {
  FloatInfo f{};
  f.dtype = dt;
  f.bits = bits;
  f.eps = std::ldexp(1.0, -mantissa);
  f.max = std::ldexp(2.0 - std::ldexp(1.0, -mantissa), max_exp);
  f.min = -f.max;
  f.smallest_normal = std::ldexp(1.0, 1 - max_exp);
  f.precision = precision;
  f.resolution = std::pow(10.0, -precision);
  return f;
}

}  // namespace

FloatInfo finfo(DType dt) {
  switch (real_dtype(dt)) {
    case float16: return ieee_info(float16, 16, 10, 15, 3);
    case bfloat16: return ieee_info(bfloat16, 16, 7, 127, 2);
    case float32: return ieee_info(float32, 32, 23, 127, 6);
    case float64: return ieee_info(float64, 64, 52, 1023, 15);
    default:
      throw_dtype_error("finfo", std::string("data type ") + dtype_name(dt) +
                                     " is not a floating-point type (use loom.iinfo for integers)");
  }
}

IntInfo iinfo(DType dt) {
  if (!is_integer(dt)) {
    throw_dtype_error("iinfo", std::string("data type ") + dtype_name(dt) +
                                   " is not an integer type (use loom.finfo for floating-point types)");
  }
  IntInfo r{};
  r.dtype = dt;
  r.bits = static_cast<int>(itemsize(dt) * 8);
  if (dtype_kind(dt) == DTypeKind::unsigned_int) {
    r.min = 0;
    r.max = r.bits == 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t{1} << r.bits) - 1;
  } else {
    r.min = r.bits == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (r.bits - 1));
    r.max = r.bits == 64 ? static_cast<uint64_t>(std::numeric_limits<int64_t>::max())
                         : (uint64_t{1} << (r.bits - 1)) - 1;
  }
  return r;
}

Casting casting_from_name(const std::string& name, const char* op) {
  if (name == "no") return Casting::no;
  if (name == "equiv") return Casting::equiv;
  if (name == "safe") return Casting::safe;
  if (name == "same_kind") return Casting::same_kind;
  if (name == "unsafe") return Casting::unsafe;
  throw_value_error(op, "casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe' (got '" + name +
                            "')");
}

const char* casting_name(Casting casting) {
  static const char* const names[] = {"no", "equiv", "safe", "same_kind", "unsafe"};
  return names[static_cast<int>(casting)];
}

bool can_cast(DType from, DType to, Casting casting) {
  switch (casting) {
    case Casting::no:
    case Casting::equiv:  // loom's dtypes have one byte order: equivalent means equal
      return from == to;
    case Casting::safe:
      return promote_types(from, to) == to;
    case Casting::same_kind: {
      // NumPy's kind order: a cast may go up it (bool -> uint -> int -> float -> complex),
      // and within a kind to any size.
      auto rank = [](DType d) {
        switch (dtype_kind(d)) {
          case DTypeKind::boolean: return 0;
          case DTypeKind::unsigned_int: return 1;
          case DTypeKind::signed_int: return 2;
          case DTypeKind::floating: return 3;
          default: return 4;
        }
      };
      return rank(from) <= rank(to);
    }
    default:
      return true;
  }
}

bool isdtype(DType dt, const std::string& kind) {
  const DTypeKind k = dtype_kind(dt);
  if (kind == "bool") return k == DTypeKind::boolean;
  if (kind == "signed integer") return k == DTypeKind::signed_int;
  if (kind == "unsigned integer") return k == DTypeKind::unsigned_int;
  if (kind == "integral") return k == DTypeKind::signed_int || k == DTypeKind::unsigned_int;
  if (kind == "real floating") return k == DTypeKind::floating;
  if (kind == "complex floating") return k == DTypeKind::complex;
  if (kind == "numeric") return k != DTypeKind::boolean;
  throw_value_error("isdtype", "unknown kind '" + kind +
                                   "' (one of 'bool', 'signed integer', 'unsigned integer', 'integral', "
                                   "'real floating', 'complex floating', 'numeric')");
}

}  // namespace loom
