// The op table's expressions as host C++ functors, over the scalar helpers of
// common/loom_math.cuh and the casts of core/cast.h: the CPU elementwise loops
// (backend/cpu/elementwise_loops.h) and the CPU graph evaluator (graph/cpu_eval.h) both
// compute through these, so an op's CPU arithmetic is written once.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "loom/common/loom_complex.cuh"  // loom_math.cuh and the complex overloads
#include "loom/common/loom_special.cuh"  // the special rows (scipy.special)
#include "loom/core/cast.h"
#include "loom/graph/op_table.h"

namespace loom::op_scalar {

/// The storage type of a dtype (half_bits/bfloat16_bits for the 16-bit floats).
template <DType D> struct storage;
template <> struct storage<DType::bool_> { using type = bool; };
template <> struct storage<DType::int8> { using type = int8_t; };
template <> struct storage<DType::int16> { using type = int16_t; };
template <> struct storage<DType::int32> { using type = int32_t; };
template <> struct storage<DType::int64> { using type = int64_t; };
template <> struct storage<DType::uint8> { using type = uint8_t; };
template <> struct storage<DType::uint16> { using type = uint16_t; };
template <> struct storage<DType::uint32> { using type = uint32_t; };
template <> struct storage<DType::uint64> { using type = uint64_t; };
template <> struct storage<DType::float16> { using type = half_bits; };
template <> struct storage<DType::bfloat16> { using type = bfloat16_bits; };
template <> struct storage<DType::float32> { using type = float; };
template <> struct storage<DType::float64> { using type = double; };
template <> struct storage<DType::complex64> { using type = complex64_t; };
template <> struct storage<DType::complex128> { using type = complex128_t; };

/// The type a stored element computes in: float for the 16-bit floats. int64_t is `long`
/// on LP64 but the device helpers are written for `long long`.
template <class S> struct value_of { using type = S; };
template <> struct value_of<half_bits> { using type = float; };
template <> struct value_of<bfloat16_bits> { using type = float; };
template <> struct value_of<int64_t> { using type = long long; };
template <> struct value_of<uint64_t> { using type = unsigned long long; };
template <class S> using value_t = typename value_of<S>::type;

/// A stored element as a value of type V.
template <class V, class S>
inline V widen(S x) {
  if constexpr (is_f16<S>) return static_cast<V>(f16_to_float(x));
  else return static_cast<V>(x);
}
/// An expression's result (its C++ arithmetic type) as storage O: wrapped to the integer
/// width, rounded to a 16-bit float.
template <class O, class R>
inline O narrow(R r) {
  if constexpr (std::is_same_v<O, R>) return r;
  else if constexpr (is_f16<O>) return cast<O>(static_cast<float>(r));
  else return static_cast<O>(r);
}

// The functors: F::apply(x0, x1, x2) is the table's expression.
#define LOOM_CPU_FUNCTOR(name, arity_, mask, rule, expr, ...)             \
  struct op_##name {                                                   \
    static constexpr int arity = arity_;                               \
    template <class T>                                                 \
    static inline auto apply(T x0, T x1, T x2) { return expr; }        \
  };
LOOM_ELEMENTWISE_OPS(LOOM_CPU_FUNCTOR)
#undef LOOM_CPU_FUNCTOR

/// An element of storage type S at an address of any alignment.
template <class S>
inline S load(const char* p) {
  S v;
  std::memcpy(&v, p, sizeof(S));
  return v;
}

/// functor_of<int(OpId)>::type is the op's functor.
template <int I> struct functor_of;
#define LOOM_CPU_FUNCTOR_OF(name, arity, mask, rule, expr, ...) \
  template <> struct functor_of<static_cast<int>(OpId::name)> { using type = op_##name; };
LOOM_ELEMENTWISE_OPS(LOOM_CPU_FUNCTOR_OF)
#undef LOOM_CPU_FUNCTOR_OF

// Fills t[op][loop dtype] for ops [B, E) and every loop dtype the op table allows with
// Maker::template make<F, S0, S, O>(): F the op's functor, S0 its first input's storage
// type (where's condition is bool), S the loop dtype's, O the result's. The CPU's eager
// loops (backend/cpu/elementwise_loops.h) and the graph evaluator's node loops
// (graph/cpu_eval_loops.h) both register through it.
template <class Maker, int I, int D, class Table>
inline void fill_loop(Table& t) {
  constexpr OpId op = static_cast<OpId>(I);
  constexpr DType L = static_cast<DType>(D);
  if constexpr (loop_exists(op, L)) {
    using S = typename storage<L>::type;
    using S0 = typename storage<input_loop_dtype(op, 0, L)>::type;
    using O = typename storage<result_dtype(op_info(op).rule, L)>::type;
    t[I][D] = Maker::template make<typename functor_of<I>::type, S0, S, O>();
  }
}

template <class Maker, int I, class Table, int... D>
inline void fill_op_loops(Table& t, std::integer_sequence<int, D...>) {
  (fill_loop<Maker, I, D>(t), ...);
}

template <class Maker, int B, int E, class Table>
inline void fill_loop_table(Table& t) {
  if constexpr (B < E) {
    fill_op_loops<Maker, B>(t, std::make_integer_sequence<int, kNumDTypes>{});
    fill_loop_table<Maker, B + 1, E>(t);
  }
}

/// Whether `where` over storage S is a select of bits (widening is the identity: not
/// float16 or bfloat16; at most 8 bytes, so not complex128), which select_bits computes
/// without a branch per element.
template <class S, class O>
constexpr bool where_selects_bits = std::is_same_v<S, O> && sizeof(value_t<S>) == sizeof(S) && sizeof(S) <= 8;

/// out[i] = cond[i] ? x[i] : y[i] over contiguous n elements of S, by mask: random
/// conditions would mispredict half the time. The condition is read as bytes and the
/// pointers are restrict locals, or GCC does not vectorize the loop.
template <class S>
inline void select_bits(const uint8_t* __restrict cond, const char* __restrict xs, const char* __restrict ys,
                        char* __restrict out, int64_t n) {
  using U = std::conditional_t<sizeof(S) == 1, uint8_t,
            std::conditional_t<sizeof(S) == 2, uint16_t, std::conditional_t<sizeof(S) == 4, uint32_t, uint64_t>>>;
  for (int64_t i = 0; i < n; ++i) {
    U x, y;
    std::memcpy(&x, xs + i * sizeof(S), sizeof(S));
    std::memcpy(&y, ys + i * sizeof(S), sizeof(S));
    const U m = static_cast<U>(U(0) - static_cast<U>(cond[i] != 0));
    const U r = static_cast<U>((x & m) | (y & static_cast<U>(~m)));
    std::memcpy(out + i * sizeof(S), &r, sizeof(S));
  }
}

}  // namespace loom::op_scalar
