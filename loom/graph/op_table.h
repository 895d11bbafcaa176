// The elementwise op table: one record per op (DESIGN.md §2), the only list of their names.
// The CPU loops (backend/cpu/elementwise_loops.h), the CUDA codegen
// (backend/cuda/elementwise.cpp), the public C++ functions (ops/elementwise.h/.cpp), the
// Python ufuncs with their docstrings (python/src/elementwise.cpp) and, through
// loom._elementwise_op_table(), the Python tests all expand or read it, so an op's name,
// dtype support, expression and description are written once. Expressions use x0, x1, x2 (the inputs, as "value"
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
  modulus,    // as `same`, but a complex P gives its parts' dtype (absolute: |z| is real)
  special_float,  // SciPy's special functions: float32 stays float32, every other P computes in
                  // float64 (their loops are f->f and d->d, d first)
  special_float_first,  // SciPy's special functions whose f->f loop comes first: every P that
                        // casts safely to float32 (bool, 8/16-bit ints, float16) computes in it
};

/// What an op is in the public API. `ufunc`: generated from this table as
/// loom::name(x[, x2], UfuncArgs) (ops/elementwise.h) and bound as a Python ufunc with
/// NumPy's keywords. `custom`: public under NumPy's own signature, written by hand
/// (clip's optional bounds, where's condition). `internal`: not public (copy). `special`:
/// generated as loom::special::name (ops/special.h) and bound as a ufunc of
/// loom.scipy.special (scipy.special's functions).
enum class OpApi : uint8_t { ufunc, custom, internal, special };

/// Bit i set: DType(i) is an allowed promoted input dtype.
namespace dtype_mask {
constexpr uint16_t all = 0x1fff;  // the 13 real dtypes
constexpr uint16_t boolean = 0x0001;
constexpr uint16_t ints = 0x01fe;
constexpr uint16_t floats = 0x1e00;
constexpr uint16_t complex = 0x6000;
// nextafter: the dtypes whose `floating` loop is float32 or float64. A 16-bit float loop
// computes in float, where C's nextafter would step by a float's ulp, not the dtype's.
constexpr uint16_t wide_float_loop = 0x19dc;
constexpr uint16_t no_bool = all & ~boolean;
constexpr uint16_t int_bool = ints | boolean;
// The same with complex64 and complex128, for the ops NumPy defines on complex numbers.
constexpr uint16_t all_c = all | complex;
constexpr uint16_t no_bool_c = no_bool | complex;
}  // namespace dtype_mask

/// What engines need to know of an op beyond computing it (bits; the table's traits column).
namespace op_trait {
/// Holomorphic where differentiable (or, as where, linear over the complex numbers in the
/// operands that get a cotangent): its real derivative formula holds for complex values
/// unchanged (reverse mode, ops/elementwise_grad.cpp).
constexpr uint8_t holo = 1;
/// Costs several times a load and a store per element (a libm call): the CPU evaluator runs
/// such nodes of a where's branch on the lanes that take it only (graph/cpu_eval.cpp).
constexpr uint8_t libm = 2;
/// The same in a float64 loop only (exp: float32's and the 16-bit floats' is loom's own
/// vectorized one, common/loom_math.cuh).
constexpr uint8_t libm64 = 4;
/// Computed by a function of common/loom_special.cuh, which a generated kernel includes only
/// when one of its ops has this trait.
constexpr uint8_t special = 8;
constexpr uint8_t none = 0;
constexpr uint8_t special_libm = special | libm;
constexpr uint8_t holo_libm = holo | libm;
constexpr uint8_t holo_libm64 = holo | libm64;
}  // namespace op_trait

// X(name, arity, allowed dtype mask, DTypeRule, C expression, OpApi, op_trait, doc). `where`
// reads its first input as bool; `copy` is loom's internal cast/assignment (copyto, astype).
// `doc` says what the op computes, in the words of its public arguments (x, or x1 and x2
// for ufuncs): it is the core of the Python docstring.
#define LOOM_ELEMENTWISE_OPS(X)                                                                                    \
  X(add, 2, all_c, same, x0 + x1, ufunc, holo, "x1 + x2")                                                          \
  X(subtract, 2, no_bool_c, same, x0 - x1, ufunc, holo, "x1 - x2")                                                 \
  X(multiply, 2, all_c, same, x0 * x1, ufunc, holo, "x1 * x2")                                                     \
  X(divide, 2, all_c, divide, x0 / x1, ufunc, holo, "x1 / x2 (true division; integers give float64)")              \
  X(floor_divide, 2, all, bool_int8, loom_floor_divide(x0, x1), ufunc, none,                                       \
    "x1 // x2, rounded toward -inf (integer division by zero gives 0)")                                            \
  X(remainder, 2, all, bool_int8, loom_remainder(x0, x1), ufunc, none,                                             \
    "x1 % x2 with the sign of x2, as Python (integer modulo by zero gives 0)")                                     \
  X(power, 2, all_c, bool_int8, loom_power(x0, x1), ufunc, holo_libm,                                              \
    "x1 ** x2 (integers to negative integer powers raise ValueError)")                                             \
  X(negative, 1, no_bool_c, same, loom_negative(x0), ufunc, holo, "-x")                                            \
  X(positive, 1, no_bool_c, same, x0, ufunc, holo, "+x")                                                           \
  X(absolute, 1, all_c, modulus, loom_abs(x0), ufunc, none, "|x|")                                                 \
  X(conjugate, 1, all_c, bool_int8, loom_conj(x0), ufunc, none,                                                    \
    "the complex conjugate of x (x itself when real; bool gives int8, as NumPy)")                                  \
  X(sign, 1, no_bool_c, same, loom_sign(x0), ufunc, none, "-1, 0 or 1 by the sign of x (NaN stays NaN)")           \
  X(sqrt, 1, all_c, floating, loom_sqrt(x0), ufunc, holo, "sqrt(x)")                                               \
  X(cbrt, 1, all, floating, loom_cbrt(x0), ufunc, libm, "cbrt(x)")                                                 \
  X(square, 1, all_c, bool_int8, x0 * x0, ufunc, holo, "x * x")                                                    \
  X(reciprocal, 1, all_c, bool_int8, loom_reciprocal(x0), ufunc, holo, "1 / x in x's dtype")                       \
  X(exp, 1, all_c, floating, loom_exp(x0), ufunc, holo_libm64, "exp(x)")                                           \
  X(exp2, 1, all_c, floating, loom_exp2(x0), ufunc, holo_libm, "exp2(x)")                                          \
  X(expm1, 1, all_c, floating, loom_expm1(x0), ufunc, holo_libm, "expm1(x)")                                       \
  X(log, 1, all_c, floating, loom_log(x0), ufunc, holo_libm, "log(x)")                                             \
  X(log2, 1, all_c, floating, loom_log2(x0), ufunc, holo_libm, "log2(x)")                                          \
  X(log10, 1, all_c, floating, loom_log10(x0), ufunc, holo_libm, "log10(x)")                                       \
  X(log1p, 1, all_c, floating, loom_log1p(x0), ufunc, holo_libm, "log1p(x)")                                       \
  X(sin, 1, all_c, floating, loom_sin(x0), ufunc, holo_libm, "sin(x)")                                             \
  X(cos, 1, all_c, floating, loom_cos(x0), ufunc, holo_libm, "cos(x)")                                             \
  X(tan, 1, all_c, floating, loom_tan(x0), ufunc, holo_libm, "tan(x)")                                             \
  X(arcsin, 1, all_c, floating, loom_arcsin(x0), ufunc, holo_libm, "arcsin(x)")                                    \
  X(arccos, 1, all_c, floating, loom_arccos(x0), ufunc, holo_libm, "arccos(x)")                                    \
  X(arctan, 1, all_c, floating, loom_arctan(x0), ufunc, holo_libm, "arctan(x)")                                    \
  X(arctan2, 2, all, floating, loom_arctan2(x0, x1), ufunc, libm,                                                  \
    "the angle of the point (x2, x1), in (-pi, pi]")                                                               \
  X(sinh, 1, all_c, floating, loom_sinh(x0), ufunc, holo_libm, "sinh(x)")                                          \
  X(cosh, 1, all_c, floating, loom_cosh(x0), ufunc, holo_libm, "cosh(x)")                                          \
  X(tanh, 1, all_c, floating, loom_tanh(x0), ufunc, holo_libm, "tanh(x)")                                          \
  X(arcsinh, 1, all_c, floating, loom_arcsinh(x0), ufunc, holo_libm, "arcsinh(x)")                                 \
  X(arccosh, 1, all_c, floating, loom_arccosh(x0), ufunc, holo_libm, "arccosh(x)")                                 \
  X(arctanh, 1, all_c, floating, loom_arctanh(x0), ufunc, holo_libm, "arctanh(x)")                                 \
  X(floor, 1, all, same, loom_floor(x0), ufunc, none, "the largest integer <= x")                                  \
  X(ceil, 1, all, same, loom_ceil(x0), ufunc, none, "the smallest integer >= x")                                   \
  X(trunc, 1, all, same, loom_trunc(x0), ufunc, none, "x rounded toward zero")                                     \
  X(rint, 1, all_c, floating, loom_rint(x0), ufunc, none,                                                          \
    "x rounded to the nearest integer, halves to even")                                                            \
  X(clip, 3, all_c, same, loom_clip(x0, x1, x2), custom, none, "min(max(a, a_min), a_max); NaN propagates")        \
  X(maximum, 2, all_c, same, loom_maximum(x0, x1), ufunc, none, "the larger of x1 and x2; NaN propagates")         \
  X(minimum, 2, all_c, same, loom_minimum(x0, x1), ufunc, none,                                                    \
    "the smaller of x1 and x2; NaN propagates")                                                                    \
  X(fmax, 2, all_c, same, loom_fmax(x0, x1), ufunc, none,                                                          \
    "the larger of x1 and x2; NaN is ignored when the other is a number")                                          \
  X(fmin, 2, all_c, same, loom_fmin(x0, x1), ufunc, none,                                                          \
    "the smaller of x1 and x2; NaN is ignored when the other is a number")                                         \
  X(where, 3, all_c, same, loom_where(x0, x1, x2), custom, holo, "x where condition is true, else y")              \
  X(isnan, 1, all_c, to_bool, loom_isnan(x0), ufunc, none, "True where x is NaN")                                  \
  X(isinf, 1, all_c, to_bool, loom_isinf(x0), ufunc, none, "True where x is +inf or -inf")                         \
  X(isfinite, 1, all_c, to_bool, loom_isfinite(x0), ufunc, none, "True where x is neither inf nor NaN")            \
  X(logical_and, 2, all_c, to_bool, (x0 != 0) && (x1 != 0), ufunc, none,                                           \
    "x1 and x2 (truth values), as bool")                                                                           \
  X(logical_or, 2, all_c, to_bool, (x0 != 0) || (x1 != 0), ufunc, none,                                            \
    "x1 or x2 (truth values), as bool")                                                                            \
  X(logical_xor, 2, all_c, to_bool, (x0 != 0) != (x1 != 0), ufunc, none,                                           \
    "truth values of x1 and x2 differ, as bool")                                                                   \
  X(logical_not, 1, all_c, to_bool, !(x0 != 0), ufunc, none, "not x, as bool")                                     \
  X(bitwise_and, 2, int_bool, same, x0 & x1, ufunc, none, "x1 & x2 (integers and bool)")                           \
  X(bitwise_or, 2, int_bool, same, x0 | x1, ufunc, none, "x1 | x2 (integers and bool)")                            \
  X(bitwise_xor, 2, int_bool, same, x0 ^ x1, ufunc, none, "x1 ^ x2 (integers and bool)")                           \
  X(invert, 1, int_bool, same, loom_invert(x0), ufunc, none, "~x (bitwise not; logical not for bool)")             \
  X(left_shift, 2, int_bool, bool_int8, loom_left_shift(x0, x1), ufunc, none,                                      \
    "x1 << x2 (0 for shifts of the width or more)")                                                                \
  X(right_shift, 2, int_bool, bool_int8, loom_right_shift(x0, x1), ufunc, none,                                    \
    "x1 >> x2 (arithmetic for signed integers)")                                                                   \
  X(equal, 2, all_c, to_bool, x0 == x1, ufunc, none, "x1 == x2")                                                   \
  X(not_equal, 2, all_c, to_bool, x0 != x1, ufunc, none, "x1 != x2")                                               \
  X(less, 2, all_c, to_bool, x0 < x1, ufunc, none, "x1 < x2")                                                      \
  X(less_equal, 2, all_c, to_bool, x0 <= x1, ufunc, none, "x1 <= x2")                                              \
  X(greater, 2, all_c, to_bool, x0 > x1, ufunc, none, "x1 > x2")                                                   \
  X(greater_equal, 2, all_c, to_bool, x0 >= x1, ufunc, none, "x1 >= x2")                                           \
  X(hypot, 2, all, floating, loom_hypot(x0, x1), ufunc, libm, "sqrt(x1**2 + x2**2)")                               \
  X(copysign, 2, all, floating, loom_copysign(x0, x1), ufunc, none, "|x1| with the sign of x2")                    \
  X(erf, 1, all, floating, loom_erf(x0), ufunc, libm, "the error function (scipy.special.erf)")                    \
  X(fabs, 1, all, floating, loom_fabs(x0), ufunc, none, "|x| as a float (no complex: use absolute)")               \
  X(fmod, 2, all, bool_int8, loom_fmod_c(x0, x1), ufunc, none,                                                     \
    "C's fmod: x1 - trunc(x1 / x2) * x2, with the sign of x1 (integer fmod by zero gives 0)")                      \
  X(gcd, 2, ints, same, loom_gcd(x0, x1), ufunc, none, "the greatest common divisor of |x1| and |x2|")             \
  X(lcm, 2, ints, same, loom_lcm(x0, x1), ufunc, none, "the least common multiple of |x1| and |x2|")               \
  X(nextafter, 2, wide_float_loop, floating, loom_nextafter(x0, x1), ufunc, none,                                  \
    "the next float after x1 toward x2 (float32 and float64 loops; 16-bit floats raise)")                          \
  X(i0, 1, floats, same, loom_i0(x0), internal, none, "the modified Bessel function of order 0 (numpy.i0)")        \
  X(i1, 1, floats, same, loom_i1(x0), internal, none, "the modified Bessel function of order 1 (i0's derivative)") \
  X(ldexp, 2, floats, same, loom_ldexp(x0, x1), internal, none,                                                    \
    "x1 * 2**x2 (x2 an integer, carried in x1's float dtype; numpy.ldexp)")                                        \
  X(frexp_mantissa, 1, floats, same, loom_frexp_mantissa(x0), internal, none,                                      \
    "the mantissa of numpy.frexp, in [0.5, 1) in magnitude")                                                       \
  X(frexp_exponent, 1, floats, same, loom_frexp_exponent(x0), internal, none,                                      \
    "the exponent of numpy.frexp, as a float value")                                                               \
  X(popcount, 1, int_bool, same, loom_popcount(x0), internal, none, "the number of 1 bits of |x|")                 \
  X(copy, 1, all_c, same, x0, internal, holo, "x cast to the output's dtype (copyto, astype)")                     \
  LOOM_SPECIAL_OPS(X)

// scipy.special's ufuncs (common/loom_special.cuh; loom::special:: in C++, loom.scipy.special in
// Python), over the real dtypes with SciPy's loops (float32 stays float32, the rest compute in
// float64; where SciPy lists its f->f loop first, float16, bool and 8/16-bit ints compute in
// float32 too). Arguments are named as SciPy names them; `doc` uses x, x1, x2, x3 for them.
#define LOOM_SPECIAL_OPS(X)                                                                                        \
  X(erfc, 1, all, special_float, loom_erfc(x0), special, special_libm, "the complementary error function 1 - erf(x)") \
  X(erfinv, 1, all, special_float_first, loom_erfinv(x0), special, special_libm,                                      \
    "the inverse error function: erf(erfinv(x)) = x on (-1, 1)")                                                   \
  X(erfcinv, 1, all, special_float_first, loom_erfcinv(x0), special, special_libm,                                    \
    "the inverse complementary error function: erfc(erfcinv(x)) = x on (0, 2)")                                    \
  X(ndtr, 1, all, special_float, loom_ndtr(x0), special, special_libm, "the standard normal CDF")                  \
  X(ndtri, 1, all, special_float_first, loom_ndtri(x0), special, special_libm, "the inverse of ndtr on (0, 1)")    \
  X(log_ndtr, 1, all, special_float, loom_log_ndtr(x0), special, special_libm,                                     \
    "log(ndtr(x)), accurate in both tails")                                                                        \
  X(gamma, 1, all, special_float, loom_gamma(x0), special, special_libm, "the gamma function")                     \
  X(gammaln, 1, all, special_float, loom_gammaln(x0), special, special_libm, "log|gamma(x)|")                      \
  X(digamma, 1, all, special_float, loom_digamma(x0), special, special_libm,                                       \
    "the digamma function psi(x), gamma'(x) / gamma(x)")                                                           \
  X(polygamma, 2, all, special_float, loom_polygamma(x0, x1), special, special_libm,                              \
    "the n-th derivative of digamma at x (n = x1 a non-negative integer, x = x2)")                                 \
  X(zeta, 2, all, special_float, loom_zeta(x0, x1), special, special_libm,                                        \
    "the Hurwitz zeta function sum (q + k)**-x over k >= 0 (x = x1 > 1, q = x2)")                                  \
  X(riemann_zeta, 1, all, special_float, loom_riemann_zeta(x0), special, special_libm,                             \
    "Riemann's zeta function of x (scipy.special.zeta(x))")                                                        \
  X(gammainc, 2, all, special_float, loom_gammainc(x0, x1), special, special_libm,                                 \
    "the regularized lower incomplete gamma function P(a, x) (a = x1, x = x2)")                                    \
  X(gammaincc, 2, all, special_float, loom_gammaincc(x0, x1), special, special_libm,                               \
    "the regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x) (a = x1, x = x2)")                      \
  X(beta, 2, all, special_float, loom_beta(x0, x1), special, special_libm,                                         \
    "the beta function gamma(a) gamma(b) / gamma(a + b) (a = x1, b = x2)")                                         \
  X(betaln, 2, all, special_float, loom_betaln(x0, x1), special, special_libm, "log|beta(a, b)| (a = x1, b = x2)") \
  X(betainc, 3, all, special_float_first, loom_betainc(x0, x1, x2), special, special_libm,                         \
    "the regularized incomplete beta function I_x(a, b) (a = x1, b = x2, x = x3)")                                 \
  X(expit, 1, all, special_float, loom_expit(x0), special, special_libm, "the logistic sigmoid 1 / (1 + exp(-x))") \
  X(logit, 1, all, special_float, loom_logit(x0), special, special_libm, "log(x / (1 - x)), expit's inverse")      \
  X(log_expit, 1, all, special_float, loom_log_expit(x0), special, special_libm, "log(expit(x)) without overflow")  \
  X(xlogy, 2, all, special_float, loom_xlogy(x0, x1), special, special_libm,                                       \
    "x1 * log(x2), 0 where x1 is 0 and x2 is not NaN")                                                             \
  X(xlog1py, 2, all, special_float, loom_xlog1py(x0, x1), special, special_libm,                                   \
    "x1 * log1p(x2), 0 where x1 is 0 and x2 is not NaN")                                                           \
  X(entr, 1, all, special_float_first, loom_entr(x0), special, special_libm, "-x log(x) (0 at 0, -inf below)")     \
  X(rel_entr, 2, all, special_float_first, loom_rel_entr(x0, x1), special, special_libm,                           \
    "x1 log(x1 / x2) for positive arguments (0 where x1 = 0 <= x2, else inf)")                                     \
  X(kl_div, 2, all, special_float_first, loom_kl_div(x0, x1), special, special_libm,                               \
    "x1 log(x1 / x2) - x1 + x2 for positive arguments (x2 where x1 = 0 <= x2, else inf)")                          \
  X(i0e, 1, all, special_float, loom_i0e(x0), special, special_libm, "exp(-|x|) i0(x)")                            \
  X(i1e, 1, all, special_float, loom_i1e(x0), special, special_libm, "exp(-|x|) i1(x)")                            \
  X(j0, 1, all, special_float, loom_j0(x0), special, special_libm, "the Bessel function of the first kind, order 0") \
  X(j1, 1, all, special_float, loom_j1(x0), special, special_libm, "the Bessel function of the first kind, order 1") \
  X(y0, 1, all, special_float, loom_y0(x0), special, special_libm, "the Bessel function of the second kind, order 0") \
  X(y1, 1, all, special_float, loom_y1(x0), special, special_libm, "the Bessel function of the second kind, order 1")

/// The ops, in table order.
enum class OpId : uint8_t {
#define LOOM_OP_ENUM(name, arity, mask, rule, expr, api, traits, doc) name,
  LOOM_ELEMENTWISE_OPS(LOOM_OP_ENUM)
#undef LOOM_OP_ENUM
};

struct OpInfo {
  const char* name;
  int arity;
  uint16_t dtypes;  // dtype_mask of allowed promoted input dtypes
  DTypeRule rule;
  const char* expr;  // the C expression, for the CUDA codegen
  OpApi api;
  uint8_t traits;  // op_trait bits
  const char* doc;
};

inline constexpr OpInfo kOpTable[] = {
#define LOOM_OP_INFO(name, arity, mask, rule, expr, api, traits, doc) \
  {#name, arity, dtype_mask::mask, DTypeRule::rule, #expr, OpApi::api, op_trait::traits, doc},
    LOOM_ELEMENTWISE_OPS(LOOM_OP_INFO)
#undef LOOM_OP_INFO
};
constexpr int kNumOps = static_cast<int>(sizeof(kOpTable) / sizeof(kOpTable[0]));

constexpr const OpInfo& op_info(OpId op) { return kOpTable[static_cast<int>(op)]; }

// NumPy's other names of table ops (the Array API's among them), public as ufuncs too: X(alias, op, arity), where arity
// is the op's (checked below; the generated C++ declarations need it as a token).
#define LOOM_ELEMENTWISE_ALIASES(X) \
  X(true_divide, divide, 2)         \
  X(mod, remainder, 2)              \
  X(abs, absolute, 1)               \
  X(conj, conjugate, 1)             \
  X(pow, power, 2)                  \
  X(acos, arccos, 1)                \
  X(acosh, arccosh, 1)              \
  X(asin, arcsin, 1)                \
  X(asinh, arcsinh, 1)              \
  X(atan, arctan, 1)                \
  X(atan2, arctan2, 2)              \
  X(atanh, arctanh, 1)              \
  X(bitwise_not, invert, 1)         \
  X(bitwise_invert, invert, 1)      \
  X(bitwise_left_shift, left_shift, 2) \
  X(bitwise_right_shift, right_shift, 2)

struct OpAlias {
  const char* name;
  OpId op;
};

inline constexpr OpAlias kOpAliases[] = {
#define LOOM_OP_ALIAS(alias, op, arity) {#alias, OpId::op},
    LOOM_ELEMENTWISE_ALIASES(LOOM_OP_ALIAS)
#undef LOOM_OP_ALIAS
};

#define LOOM_OP_ALIAS_CHECK(alias, op, n) \
  static_assert(op_info(OpId::op).arity == n && op_info(OpId::op).api == OpApi::ufunc, #alias);
LOOM_ELEMENTWISE_ALIASES(LOOM_OP_ALIAS_CHECK)
#undef LOOM_OP_ALIAS_CHECK

// Expanders that generate code for the public ufuncs only (ops/elementwise.h and .cpp):
// LOOM_OP_IF_##api(tokens) keeps its tokens for `ufunc` rows and drops them otherwise.
#define LOOM_OP_IF_ufunc(...) __VA_ARGS__
#define LOOM_OP_IF_custom(...)
#define LOOM_OP_IF_internal(...)
#define LOOM_OP_IF_special(...)

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
    case DTypeRule::special_float:  // complex stays complex, for the dtype check to refuse it
      return p == DType::float32 || p == DType::complex64 || p == DType::complex128 ? p : DType::float64;
    case DTypeRule::special_float_first:
      switch (p) {
        case DType::bool_: case DType::int8: case DType::uint8: case DType::int16: case DType::uint16:
        case DType::float16: case DType::bfloat16: return DType::float32;
        case DType::float32: case DType::complex64: case DType::complex128: return p;
        default: return DType::float64;
      }
    default:
      return p;
  }
}

/// Float-only rules pick the loop each input fits on its own, then promote those loops.
constexpr bool per_input_loop(DTypeRule rule) {
  return rule == DTypeRule::floating || rule == DTypeRule::special_float || rule == DTypeRule::special_float_first;
}

/// The result dtype of a loop dtype.
constexpr DType result_dtype(DTypeRule rule, DType loop) {
  return rule == DTypeRule::to_bool ? DType::bool_ : rule == DTypeRule::modulus ? real_dtype(loop) : loop;
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
