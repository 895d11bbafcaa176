#include "loom/ops/elementwise_rules.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "loom/core/error.h"

namespace loom::ew_rules {
namespace {

int kind_rank(DType d) {
  switch (dtype_kind(d)) {
    case DTypeKind::boolean: return 0;
    case DTypeKind::floating: return 2;
    case DTypeKind::complex: return 3;
    default: return 1;
  }
}

int scalar_rank(const Scalar& s) {
  switch (s.kind) {
    case Scalar::Kind::boolean: return 0;
    case Scalar::Kind::float_: return 2;
    case Scalar::Kind::complex_: return 3;
    default: return 1;
  }
}

// The dtype a weak scalar of a higher kind than the arrays' dtype `p` brings in (NumPy 2):
// a float joins at float64 unless p is a float; a complex takes p's precision when p is a
// float (float32 + 1j is complex64) and complex128 otherwise.
DType weak_scalar_dtype(const Scalar& s, DType p) {
  if (s.kind == Scalar::Kind::complex_) return is_floating(p) ? promote_types(p, complex64) : complex128;
  return s.kind == Scalar::Kind::float_ ? float64 : s.natural_dtype();
}

bool is_int_scalar(const Scalar& s) { return s.kind == Scalar::Kind::int_ || s.kind == Scalar::Kind::uint_; }

// [min, max] of an integer dtype as (int64 min, uint64 max).
void int_range(DType d, int64_t* lo, uint64_t* hi) {
  const int bits = static_cast<int>(itemsize(d) * 8);
  if (dtype_kind(d) == DTypeKind::unsigned_int) {
    *lo = 0;
    *hi = bits == 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t{1} << bits) - 1;
  } else {
    *lo = bits == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (bits - 1));
    *hi = bits == 64 ? static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) : (uint64_t{1} << (bits - 1)) - 1;
  }
}

bool fits(const Scalar& s, DType d) {
  int64_t lo;
  uint64_t hi;
  int_range(d, &lo, &hi);
  if (s.kind == Scalar::Kind::uint_) return s.u <= hi;
  return s.i >= lo && (s.i < 0 || static_cast<uint64_t>(s.i) <= hi);
}

Scalar clamp(const Scalar& s, DType d) {
  int64_t lo;
  uint64_t hi;
  int_range(d, &lo, &hi);
  if (s.kind == Scalar::Kind::int_ && s.i < lo) return Scalar(static_cast<long long>(lo));
  return Scalar(static_cast<unsigned long long>(hi));
}

std::string scalar_str(const Scalar& s) {
  return s.kind == Scalar::Kind::uint_ ? std::to_string(s.u) : std::to_string(s.i);
}

bool is_comparison(OpId op) {
  return op == OpId::equal || op == OpId::not_equal || op == OpId::less || op == OpId::less_equal ||
         op == OpId::greater || op == OpId::greater_equal;
}

}  // namespace

DType resolve(OpId op, const Operand* ops, Scalar* scalars, int nin, std::optional<DType> dtype, Casting casting) {
  const OpInfo& info = op_info(op);
  const char* name = info.name;  // strings are built only on errors
  const int first = op == OpId::where ? 1 : 0;  // where's condition is cast to bool
  // Float-only ops take the smallest float loop every input casts to safely, so
  // arctan2(int8, uint8) is float16 although int8 and uint8 promote to int16.
  const bool per_input = per_input_loop(info.rule) && !dtype;
  std::optional<DType> p;
  for (int i = first; i < nin; ++i) {
    if (ops[i].is_scalar) continue;
    const DType d = per_input ? loop_dtype(info.rule, ops[i].array.dtype()) : ops[i].array.dtype();
    p = p ? promote_types(*p, d) : d;
  }
  if (dtype) {
    for (int i = first; i < nin; ++i)
      if (!ops[i].is_scalar && !can_cast(ops[i].array.dtype(), *dtype, casting))
        throw DTypeError(std::string("[") + name + "] Cannot cast ufunc '" + name + "' input " + std::to_string(i) + " from " +
                         dtype_name(ops[i].array.dtype()) + " to " + dtype_name(*dtype) + " with casting rule '" +
                         casting_name(casting) + "'");
    p = *dtype;
  } else if (!p) {
    // Only Python scalars: NumPy's default dtypes (bool, int64, float64).
    for (int i = first; i < nin; ++i) {
      const DType d = scalars[i].natural_dtype();
      p = p ? promote_types(*p, d) : d;
    }
  } else {
    for (int i = first; i < nin; ++i) {
      if (ops[i].is_scalar) p = join_weak_scalar(*p, scalars[i]);
    }
    for (int i = first; i < nin; ++i) {
      Scalar& s = scalars[i];
      if (!ops[i].is_scalar || !is_int_scalar(s) || !is_integer(*p) || fits(s, *p)) continue;
      if (is_comparison(op)) {
        // Out of the dtype's range, the answer is the same for every element (NumPy 2). As
        // +-inf in float64 the comparison gives exactly it: every integer is finite there.
        // (Promoting instead, int64 vs 2**63 went to float64 and 2**63-1 compared equal.)
        const bool above = s.kind == Scalar::Kind::uint_ || (s.kind == Scalar::Kind::int_ && s.i >= 0);
        s = Scalar(above ? HUGE_VAL : -HUGE_VAL);
        p = float64;
      }
      else if (op == OpId::clip && i > 0) s = clamp(s, *p);
      else
        throw std::overflow_error(std::string("[") + name + "] Python integer " + scalar_str(s) + " out of bounds for " +
                                  dtype_name(*p));
    }
  }
  if (!dtype_allowed(op, *p))
    throw DTypeError(std::string("[") + name + "] ufunc '" + name + "' not supported for the input types (" +
                     dtype_name(*p) + ")");
  return loop_dtype(info.rule, *p);
}

DType join_weak_scalar(DType p, const Scalar& s) {
  return scalar_rank(s) > kind_rank(p) ? promote_types(p, weak_scalar_dtype(s, p)) : p;
}

}  // namespace loom::ew_rules
