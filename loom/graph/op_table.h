// The elementwise op table: one record per op (DESIGN.md §2). The CPU loops
// (backend/cpu/elementwise_loops.h), the CUDA codegen (backend/cuda/elementwise.cpp)
// and the Python bindings all expand LOOM_ELEMENTWISE_OPS, so an op's dtype support and
// its expression are written once. Expressions use x0, x1, x2 (the inputs, as "value"
// types: float16/bfloat16 compute in float) and the helpers of
// common/loom_math.cuh, which compile on the host and on the device.
#pragma once
#include <cstdint>

#include "loom/core/dtype.h"

namespace loom {

/// How an op's computation dtype (the "loop" dtype its inputs are cast to) and its
/// result dtype follow from the promoted input dtype P (NumPy 2's ufunc loops).
enum class DTypeRule : uint8_t {
  same,       // loop = result = P
  bool_int8,  // as `same`, but bool computes as int8 (floor_divide, power, shifts, ...)
  floating,   // ints go to the smallest float that holds them: (u)int8/bool -> float16,
              // (u)int16 -> float32, wider -> float64 (sin, exp, sqrt, ...)
  divide,     // bool and ints -> float64 (true_divide)
  to_bool,    // loop = P, result bool (comparisons, logical ops, isnan)
};

/// Bit i set: DType(i) is an allowed promoted input dtype.
namespace dtype_mask {
constexpr uint16_t all = 0x1fff;
constexpr uint16_t boolean = 0x0001;
constexpr uint16_t ints = 0x01fe;
constexpr uint16_t floats = 0x1e00;
constexpr uint16_t no_bool = all & ~boolean;
constexpr uint16_t int_bool = ints | boolean;
}  // namespace dtype_mask

// X(name, arity, allowed dtype mask, DTypeRule, C expression). `where` reads its first
// input as bool; `copy` is loom's internal cast/assignment (copyto, astype).
#define LOOM_ELEMENTWISE_OPS(X)                                                         \
  X(add, 2, all, same, x0 + x1)                                                         \
  X(subtract, 2, no_bool, same, x0 - x1)                                                \
  X(multiply, 2, all, same, x0 * x1)                                                    \
  X(divide, 2, all, divide, x0 / x1)                                                    \
  X(floor_divide, 2, all, bool_int8, loom_floor_divide(x0, x1))                         \
  X(remainder, 2, all, bool_int8, loom_remainder(x0, x1))                               \
  X(power, 2, all, bool_int8, loom_power(x0, x1))                                       \
  X(negative, 1, no_bool, same, loom_negative(x0))                                      \
  X(positive, 1, no_bool, same, x0)                                                     \
  X(absolute, 1, all, same, loom_abs(x0))                                               \
  X(sign, 1, no_bool, same, loom_sign(x0))                                              \
  X(sqrt, 1, all, floating, loom_sqrt(x0))                                              \
  X(cbrt, 1, all, floating, loom_cbrt(x0))                                              \
  X(square, 1, all, bool_int8, x0 * x0)                                                 \
  X(reciprocal, 1, all, bool_int8, loom_reciprocal(x0))                                 \
  X(exp, 1, all, floating, loom_exp(x0))                                                \
  X(exp2, 1, all, floating, loom_exp2(x0))                                              \
  X(expm1, 1, all, floating, loom_expm1(x0))                                            \
  X(log, 1, all, floating, loom_log(x0))                                                \
  X(log2, 1, all, floating, loom_log2(x0))                                              \
  X(log10, 1, all, floating, loom_log10(x0))                                            \
  X(log1p, 1, all, floating, loom_log1p(x0))                                            \
  X(sin, 1, all, floating, loom_sin(x0))                                                \
  X(cos, 1, all, floating, loom_cos(x0))                                                \
  X(tan, 1, all, floating, loom_tan(x0))                                                \
  X(arcsin, 1, all, floating, loom_arcsin(x0))                                          \
  X(arccos, 1, all, floating, loom_arccos(x0))                                          \
  X(arctan, 1, all, floating, loom_arctan(x0))                                          \
  X(arctan2, 2, all, floating, loom_arctan2(x0, x1))                                    \
  X(sinh, 1, all, floating, loom_sinh(x0))                                              \
  X(cosh, 1, all, floating, loom_cosh(x0))                                              \
  X(tanh, 1, all, floating, loom_tanh(x0))                                              \
  X(arcsinh, 1, all, floating, loom_arcsinh(x0))                                        \
  X(arccosh, 1, all, floating, loom_arccosh(x0))                                        \
  X(arctanh, 1, all, floating, loom_arctanh(x0))                                        \
  X(floor, 1, all, same, loom_floor(x0))                                                \
  X(ceil, 1, all, same, loom_ceil(x0))                                                  \
  X(trunc, 1, all, same, loom_trunc(x0))                                                \
  X(rint, 1, all, floating, loom_rint(x0))                                              \
  X(clip, 3, all, same, loom_clip(x0, x1, x2))                                          \
  X(maximum, 2, all, same, loom_maximum(x0, x1))                                        \
  X(minimum, 2, all, same, loom_minimum(x0, x1))                                        \
  X(fmax, 2, all, same, loom_fmax(x0, x1))                                              \
  X(fmin, 2, all, same, loom_fmin(x0, x1))                                              \
  X(where, 3, all, same, x0 ? x1 : x2)                                                  \
  X(isnan, 1, all, to_bool, loom_isnan(x0))                                             \
  X(isinf, 1, all, to_bool, loom_isinf(x0))                                             \
  X(isfinite, 1, all, to_bool, loom_isfinite(x0))                                       \
  X(logical_and, 2, all, to_bool, (x0 != 0) && (x1 != 0))                               \
  X(logical_or, 2, all, to_bool, (x0 != 0) || (x1 != 0))                                \
  X(logical_xor, 2, all, to_bool, (x0 != 0) != (x1 != 0))                               \
  X(logical_not, 1, all, to_bool, !(x0 != 0))                                           \
  X(bitwise_and, 2, int_bool, same, x0 & x1)                                            \
  X(bitwise_or, 2, int_bool, same, x0 | x1)                                             \
  X(bitwise_xor, 2, int_bool, same, x0 ^ x1)                                            \
  X(invert, 1, int_bool, same, loom_invert(x0))                                         \
  X(left_shift, 2, int_bool, bool_int8, loom_left_shift(x0, x1))                        \
  X(right_shift, 2, int_bool, bool_int8, loom_right_shift(x0, x1))                      \
  X(equal, 2, all, to_bool, x0 == x1)                                                   \
  X(not_equal, 2, all, to_bool, x0 != x1)                                               \
  X(less, 2, all, to_bool, x0 < x1)                                                     \
  X(less_equal, 2, all, to_bool, x0 <= x1)                                              \
  X(greater, 2, all, to_bool, x0 > x1)                                                  \
  X(greater_equal, 2, all, to_bool, x0 >= x1)                                           \
  X(hypot, 2, all, floating, loom_hypot(x0, x1))                                        \
  X(copysign, 2, all, floating, loom_copysign(x0, x1))                                  \
  X(erf, 1, all, floating, loom_erf(x0))                                                \
  X(copy, 1, all, same, x0)

/// The ops, in table order.
enum class OpId : uint8_t {
#define LOOM_OP_ENUM(name, arity, mask, rule, expr) name,
  LOOM_ELEMENTWISE_OPS(LOOM_OP_ENUM)
#undef LOOM_OP_ENUM
};

struct OpInfo {
  const char* name;
  int arity;
  uint16_t dtypes;  // dtype_mask of allowed promoted input dtypes
  DTypeRule rule;
  const char* expr;  // the C expression, for the CUDA codegen
};

inline constexpr OpInfo kOpTable[] = {
#define LOOM_OP_INFO(name, arity, mask, rule, expr) {#name, arity, dtype_mask::mask, DTypeRule::rule, #expr},
    LOOM_ELEMENTWISE_OPS(LOOM_OP_INFO)
#undef LOOM_OP_INFO
};
constexpr int kNumOps = static_cast<int>(sizeof(kOpTable) / sizeof(kOpTable[0]));

constexpr const OpInfo& op_info(OpId op) { return kOpTable[static_cast<int>(op)]; }

constexpr bool dtype_allowed(OpId op, DType p) {
  return (op_info(op).dtypes >> static_cast<int>(p)) & 1u;
}

/// The computation ("loop") dtype for promoted input dtype `p`.
constexpr DType loop_dtype(DTypeRule rule, DType p) {
  switch (rule) {
    case DTypeRule::bool_int8:
      return p == DType::bool_ ? DType::int8 : p;
    case DTypeRule::floating:
      switch (p) {
        case DType::bool_: case DType::int8: case DType::uint8: return DType::float16;
        case DType::int16: case DType::uint16: return DType::float32;
        case DType::int32: case DType::int64: case DType::uint32: case DType::uint64: return DType::float64;
        default: return p;
      }
    case DTypeRule::divide:
      return static_cast<int>(p) < static_cast<int>(DType::float16) ? DType::float64 : p;
    default:
      return p;
  }
}

/// The result dtype of a loop dtype.
constexpr DType result_dtype(DTypeRule rule, DType loop) {
  return rule == DTypeRule::to_bool ? DType::bool_ : loop;
}

/// True when `loop` is the loop dtype of some allowed input dtype of `op` (the CPU
/// backend instantiates exactly these).
constexpr bool loop_exists(OpId op, DType loop) {
  for (int p = 0; p < kNumDTypes; ++p)
    if (dtype_allowed(op, static_cast<DType>(p)) && loop_dtype(op_info(op).rule, static_cast<DType>(p)) == loop)
      return true;
  return false;
}

/// The dtype input `i` is read as in the loop: `where`'s condition is bool.
constexpr DType input_loop_dtype(OpId op, int i, DType loop) {
  return op == OpId::where && i == 0 ? DType::bool_ : loop;
}

}  // namespace loom
