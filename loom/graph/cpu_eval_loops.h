// The typed block loops of the CPU graph evaluator (graph/cpu_eval.cpp): one per
// (op, loop dtype) that the op table allows, over contiguous blocks of at most kEvalBlock
// elements stored in their dtypes, plus the casts between dtypes. The arithmetic is the
// op table's functors (graph/op_scalar.h), as in the eager CPU loops.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "loom/graph/op_scalar.h"

namespace loom::graph_cpu {

/// Elements per block: every value of a graph has one block buffer of this many elements.
constexpr int64_t kEvalBlock = 256;

/// out[0..n) = op(args[0][0..n), ...), each array contiguous in its loop dtype (the
/// condition of `where` in bool); out in the node's result dtype.
using NodeFn = void (*)(const char* const* args, char* out, int64_t n);
using NodeTable = NodeFn[kNumOps][kNumDTypes];
/// dst[0..n) = NumPy cast of src[0..n), both contiguous.
using CastFn = void (*)(const char* src, char* dst, int64_t n);

/// The parts fill the node loops of a range of ops (split over files for build time).
void register_nodes_part0(NodeTable& t);
void register_nodes_part1(NodeTable& t);
void register_nodes_part2(NodeTable& t);

namespace detail {
using namespace op_scalar;

// S0: input 0's storage (bool for `where`), S: the other inputs', O: the result's.
template <class F, class S0, class S, class O>
void node_loop(const char* const* args, char* out_bytes, int64_t n) {
  using V = value_t<S>;
  O* __restrict out = reinterpret_cast<O*>(out_bytes);
  const S0* __restrict a = reinterpret_cast<const S0*>(args[0]);
  if constexpr (std::is_same_v<F, op_where> && where_selects_bits<S, O>) {
    select_bits<S>(reinterpret_cast<const uint8_t*>(args[0]), args[1], args[2], out_bytes, n);
  } else if constexpr (F::arity == 1) {
    for (int64_t i = 0; i < n; ++i) out[i] = narrow<O>(F::apply(widen<V>(a[i]), V(), V()));
  } else if constexpr (F::arity == 2) {
    const S* __restrict b = reinterpret_cast<const S*>(args[1]);
    for (int64_t i = 0; i < n; ++i) out[i] = narrow<O>(F::apply(widen<V>(a[i]), widen<V>(b[i]), V()));
  } else {
    const S* __restrict b = reinterpret_cast<const S*>(args[1]);
    const S* __restrict c = reinterpret_cast<const S*>(args[2]);
    for (int64_t i = 0; i < n; ++i) out[i] = narrow<O>(F::apply(widen<V>(a[i]), widen<V>(b[i]), widen<V>(c[i])));
  }
}

// The loops as op_scalar::fill_loop_table makes them.
struct NodeTableMaker {
  template <class F, class S0, class S, class O>
  static auto make() { return &node_loop<F, S0, S, O>; }
};

/// Fills the loops of ops [B, E).
template <int B, int E>
inline void register_range(NodeTable& t) {
  fill_loop_table<NodeTableMaker, B, E>(t);
}

}  // namespace detail
}  // namespace loom::graph_cpu
