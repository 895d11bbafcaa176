// The typed inner loops of the CPU elementwise engine, generated from the op table:
// one function per (op, loop dtype) that the table allows, nothing else. A loop walks
// one row: args[0..nin) are the inputs (stored in their loop dtypes), args[nin] the
// output (the result dtype), steps[] their byte strides. Contiguous rows (and rows with
// one broadcast scalar) get tight loops the compiler vectorizes.
#pragma once
#include <cstdint>
#include <cstring>

#include "loom/graph/op_scalar.h"

namespace loom::cpu_backend {

using LoopFn = void (*)(char* const* args, const int64_t* steps, int64_t n);
using LoopTable = LoopFn[kNumOps][kNumDTypes];

/// Each part registers the loops of a range of ops (split over files for build time).
void register_loops_part0(LoopTable& t);
void register_loops_part1(LoopTable& t);
void register_loops_part2(LoopTable& t);
void register_loops_part3(LoopTable& t);
void register_loops_part4(LoopTable& t);

namespace ew {

// Storage types, widen/narrow and the op functors (graph/op_scalar.h).
using namespace op_scalar;

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
  if constexpr (std::is_same_v<F, op_where> && where_selects_bits<S, O>) {
    constexpr int64_t sz = sizeof(S);
    if (out_contig && steps[0] == 1 && steps[1] == sz && steps[2] == sz) {
      select_bits<S>(reinterpret_cast<const uint8_t*>(args[0]), args[1], args[2], args[3], n);
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

// The loops as op_scalar::fill_loop_table makes them.
struct LoopTableMaker {
  template <class F, class S0, class S, class O>
  static auto make() { return &loop<F, S0, S, O>; }
};

/// Fills the loops of ops [B, E).
template <int B, int E>
inline void register_range(LoopTable& t) {
  fill_loop_table<LoopTableMaker, B, E>(t);
}

}  // namespace ew
}  // namespace loom::cpu_backend
