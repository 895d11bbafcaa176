// Elementwise operations: the op table's ops (op_table.h) with broadcasting, NumPy 2
// type promotion (Python scalars are weak, NEP 50), out= and where=, the C++ operators
// on Array, and copyto (the assignment every other family uses).
#pragma once
#include <optional>
#include <type_traits>

#include "loom/array/array.h"
#include "loom/core/dtype_info.h"
#include "loom/graph/op_table.h"
#include "loom/core/scalar.h"

namespace loom {

/// An op argument: an array, or a weak scalar (a Python/C++ number: it takes the
/// array operand's dtype when its kind allows, NEP 50).
struct Operand {
  Array array;
  Scalar scalar;
  bool is_scalar = false;
  Operand() = default;
  Operand(const Array& a) : array(a) {}
  Operand(Array&& a) : array(std::move(a)) {}
  Operand(const Scalar& s) : scalar(s), is_scalar(true) {}
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  Operand(T v) : scalar(Scalar(v)), is_scalar(true) {}
};

/// NumPy's ufunc keywords. `out`: any strided view of the broadcast shape (the result is
/// cast to its dtype by the `casting` rule, else DTypeError). `where`: a bool mask;
/// where it is false, out keeps its values. `dtype`: the computation/result dtype.
struct UfuncArgs {
  std::optional<Array> out;
  std::optional<Operand> where;
  std::optional<DType> dtype;
  /// NumPy's casting= of a ufunc: how far the inputs may be cast to the loop's dtype (dtype=
  /// names it; 'no' and 'equiv' also refuse promotion's casts) and the result to out's.
  Casting casting = Casting::same_kind;
};

/// Applies op table entry `op` to `nin` operands (its arity). Errors: std::invalid_argument
/// (shapes), DTypeError (dtypes, casts), std::overflow_error (a weak int scalar out of
/// the array dtype's range), DeviceMismatchError.
Array apply(OpId op, const Operand* in, int nin, const UfuncArgs& args = {});

/// NumPy's result dtype of `op` for these operands (no computation).
DType result_type(OpId op, const Operand* in, int nin, std::optional<DType> dtype = std::nullopt);

/// NumPy's can_cast(from, to, casting="same_kind").
bool can_cast_same_kind(DType from, DType to);

// The op table's ufuncs and NumPy's aliases of them (graph/op_table.h), one declaration
// per `ufunc` row and alias, by arity:
//   Array sqrt(const Operand& x, const UfuncArgs& args = {});
//   Array add(const Operand& x1, const Operand& x2, const UfuncArgs& args = {});
// The table's `custom` rows (clip, where) are declared below with NumPy's signatures.
#define LOOM_EW_DECLARE_1(name) Array name(const Operand& x, const UfuncArgs& args = {});
#define LOOM_EW_DECLARE_2(name) Array name(const Operand& x1, const Operand& x2, const UfuncArgs& args = {});
#define LOOM_EW_DECLARE_OP(name, arity, mask, rule, expr, api, traits, doc) LOOM_OP_IF_##api(LOOM_EW_DECLARE_##arity(name))
#define LOOM_EW_DECLARE_ALIAS(alias, op, arity) LOOM_EW_DECLARE_##arity(alias)
LOOM_ELEMENTWISE_OPS(LOOM_EW_DECLARE_OP)
LOOM_ELEMENTWISE_ALIASES(LOOM_EW_DECLARE_ALIAS)
#undef LOOM_EW_DECLARE_ALIAS
#undef LOOM_EW_DECLARE_OP
#undef LOOM_EW_DECLARE_2
#undef LOOM_EW_DECLARE_1

/// NumPy's round/around: half to even at `decimals` (negative: tens, hundreds, ...).
/// Integers stay integers; bool rounds as float16 (NumPy's rint of bool).
Array round(const Array& a, int decimals = 0, const std::optional<Array>& out = std::nullopt);
/// NumPy's clip: min(max(a, a_min), a_max) with NaN propagation; either bound may be
/// absent (not both). Python-int bounds outside an integer dtype's range are clamped.
Array clip(const Operand& a, const std::optional<Operand>& a_min, const std::optional<Operand>& a_max,
           const UfuncArgs& args = {});
/// NumPy's where(condition, x, y): x where condition is true, else y (condition is cast
/// to bool; x and y promote as in NumPy 2).
Array where(const Operand& condition, const Operand& x, const Operand& y);

/// NumPy's copyto: writes `src` broadcast to dst's shape and cast to dst's dtype
/// (unsafe casting, as assignment) into `dst`, which may be any strided view. Same device.
void copyto(const Array& dst, const Array& src);

// ---- C++ operators ------------------------------------------------------------------
#define LOOM_EW_OPERATOR(sym, fn)                                                     \
  inline Array operator sym(const Array& a, const Array& b) { return fn(a, b); }      \
  inline Array operator sym(const Array& a, const Scalar& b) { return fn(a, b); }     \
  inline Array operator sym(const Scalar& a, const Array& b) { return fn(a, b); }
LOOM_EW_OPERATOR(+, add)
LOOM_EW_OPERATOR(-, subtract)
LOOM_EW_OPERATOR(*, multiply)
LOOM_EW_OPERATOR(/, divide)
LOOM_EW_OPERATOR(%, remainder)
LOOM_EW_OPERATOR(&, bitwise_and)
LOOM_EW_OPERATOR(|, bitwise_or)
LOOM_EW_OPERATOR(^, bitwise_xor)
LOOM_EW_OPERATOR(<<, left_shift)
LOOM_EW_OPERATOR(>>, right_shift)
LOOM_EW_OPERATOR(==, equal)
LOOM_EW_OPERATOR(!=, not_equal)
LOOM_EW_OPERATOR(<, less)
LOOM_EW_OPERATOR(<=, less_equal)
LOOM_EW_OPERATOR(>, greater)
LOOM_EW_OPERATOR(>=, greater_equal)
#undef LOOM_EW_OPERATOR
inline Array operator-(const Array& a) { return negative(a); }
inline Array operator+(const Array& a) { return positive(a); }
inline Array operator~(const Array& a) { return invert(a); }
inline Array operator!(const Array& a) { return logical_not(a); }

// In-place forms write into `a` (its dtype is kept; same_kind casting, as NumPy).
#define LOOM_EW_INPLACE(sym, fn)                                                                 \
  inline Array& operator sym(Array& a, const Operand& b) {                                      \
    fn(a, b, UfuncArgs{a, std::nullopt, std::nullopt});                                          \
    return a;                                                                                    \
  }
LOOM_EW_INPLACE(+=, add)
LOOM_EW_INPLACE(-=, subtract)
LOOM_EW_INPLACE(*=, multiply)
LOOM_EW_INPLACE(/=, divide)
LOOM_EW_INPLACE(%=, remainder)
LOOM_EW_INPLACE(&=, bitwise_and)
LOOM_EW_INPLACE(|=, bitwise_or)
LOOM_EW_INPLACE(^=, bitwise_xor)
LOOM_EW_INPLACE(<<=, left_shift)
LOOM_EW_INPLACE(>>=, right_shift)
#undef LOOM_EW_INPLACE

}  // namespace loom
