// The typed inner loops of the CPU elementwise engine, generated from the op table:
// one function per (op, loop dtype) that the table allows, nothing else. A loop walks
// one row: args[0..nin) are the inputs (stored in their loop dtypes), args[nin] the
// output (the result dtype), steps[] their byte strides. Contiguous rows (and rows with
// one broadcast scalar) get tight loops the compiler vectorizes.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "loom/core/cast.h"
#include "loom/common/loom_math.cuh"
#include "loom/graph/op_table.h"

namespace loom::cpu_backend {

using LoopFn = void (*)(char* const* args, const int64_t* steps, int64_t n);
using LoopTable = LoopFn[kNumOps][kNumDTypes];

/// Each part registers the loops of a range of ops (split over files for build time).
void register_loops_part0(LoopTable& t);
void register_loops_part1(LoopTable& t);
void register_loops_part2(LoopTable& t);
void register_loops_part3(LoopTable& t);

namespace ew {

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

// int64_t is `long` on LP64 but the device helpers are written for `long long`.
template <class S> struct value_of { using type = S; };
template <> struct value_of<half_bits> { using type = float; };
template <> struct value_of<bfloat16_bits> { using type = float; };
template <> struct value_of<int64_t> { using type = long long; };
template <> struct value_of<uint64_t> { using type = unsigned long long; };
template <class S> using value_t = typename value_of<S>::type;

template <class V, class S>
inline V widen(S x) {
  if constexpr (is_f16<S>) return static_cast<V>(f16_to_float(x));
  else return static_cast<V>(x);
}
template <class O, class R>
inline O narrow(R r) {
  if constexpr (std::is_same_v<O, R>) return r;
  else if constexpr (is_f16<O>) return cast<O>(static_cast<float>(r));
  else return static_cast<O>(r);
}

// The functors: F::apply(x0, x1, x2) is the table's expression.
#define LOOM_CPU_FUNCTOR(name, arity_, mask, rule, expr, ...)          \
  struct op_##name {                                                   \
    static constexpr int arity = arity_;                               \
    template <class T>                                                 \
    static inline auto apply(T x0, T x1, T x2) { return expr; }        \
  };
LOOM_ELEMENTWISE_OPS(LOOM_CPU_FUNCTOR)
#undef LOOM_CPU_FUNCTOR

template <int I> struct functor_of;
#define LOOM_CPU_FUNCTOR_OF(name, arity, mask, rule, expr, ...) \
  template <> struct functor_of<static_cast<int>(OpId::name)> { using type = op_##name; };
LOOM_ELEMENTWISE_OPS(LOOM_CPU_FUNCTOR_OF)
#undef LOOM_CPU_FUNCTOR_OF

template <class S>
inline S load(const char* p) {
  S v;
  std::memcpy(&v, p, sizeof(S));
  return v;
}

// S0: input 0's storage (bool for `where`), S: the other inputs', O: the output's.
template <class F, class S0, class S, class O>
void loop(char* const* args, const int64_t* steps, int64_t n) {
  using V = value_t<S>;
  constexpr int N = F::arity;
  O* __restrict out = reinterpret_cast<O*>(args[N]);
  const bool out_contig = steps[N] == static_cast<int64_t>(sizeof(O));
  if constexpr (N == 1) {
    const S0* __restrict a = reinterpret_cast<const S0*>(args[0]);
    if (out_contig && steps[0] == static_cast<int64_t>(sizeof(S0))) {
      for (int64_t i = 0; i < n; ++i) out[i] = narrow<O>(F::apply(widen<V>(a[i]), V(), V()));
      return;
    }
  } else if constexpr (N == 2) {
    const S* __restrict a = reinterpret_cast<const S*>(args[0]);
    const S* __restrict b = reinterpret_cast<const S*>(args[1]);
    constexpr int64_t sz = sizeof(S);
    if (out_contig && steps[0] == sz && steps[1] == sz) {
      for (int64_t i = 0; i < n; ++i) out[i] = narrow<O>(F::apply(widen<V>(a[i]), widen<V>(b[i]), V()));
      return;
    }
    if (out_contig && steps[0] == sz && steps[1] == 0) {
      const V y = widen<V>(b[0]);
      for (int64_t i = 0; i < n; ++i) out[i] = narrow<O>(F::apply(widen<V>(a[i]), y, V()));
      return;
    }
    if (out_contig && steps[0] == 0 && steps[1] == sz) {
      const V x = widen<V>(a[0]);
      for (int64_t i = 0; i < n; ++i) out[i] = narrow<O>(F::apply(x, widen<V>(b[i]), V()));
      return;
    }
  }
  // Any strides (negative, zero, unaligned): byte pointers and memcpy loads.
  const char* p0 = args[0];
  const char* p1 = N > 1 ? args[1] : nullptr;
  const char* p2 = N > 2 ? args[2] : nullptr;
  char* po = args[N];
  for (int64_t i = 0; i < n; ++i) {
    const V x0 = widen<V>(load<S0>(p0));
    const V x1 = N > 1 ? widen<V>(load<S>(p1)) : V();
    const V x2 = N > 2 ? widen<V>(load<S>(p2)) : V();
    const O r = narrow<O>(F::apply(x0, x1, x2));
    std::memcpy(po, &r, sizeof(O));
    p0 += steps[0];
    if (N > 1) p1 += steps[1];
    if (N > 2) p2 += steps[2];
    po += steps[N];
  }
}

template <int I, int D>
inline void register_one(LoopTable& t) {
  constexpr OpId op = static_cast<OpId>(I);
  constexpr DType L = static_cast<DType>(D);
  if constexpr (loop_exists(op, L)) {
    using S = typename storage<L>::type;
    using S0 = typename storage<input_loop_dtype(op, 0, L)>::type;
    using O = typename storage<result_dtype(op_info(op).rule, L)>::type;
    t[I][D] = &loop<typename functor_of<I>::type, S0, S, O>;
  }
}

template <int I, int... D>
inline void register_op(LoopTable& t, std::integer_sequence<int, D...>) {
  (register_one<I, D>(t), ...);
}

/// Registers the loops of ops [B, E).
template <int B, int E>
inline void register_range(LoopTable& t) {
  if constexpr (B < E) {
    register_op<B>(t, std::make_integer_sequence<int, kNumDTypes>{});
    register_range<B + 1, E>(t);
  }
}

}  // namespace ew
}  // namespace loom::cpu_backend
