// The CPU reduction engine: a reduction is an Op (identity, combine, map, post) run by
//  - run_inner: rows reduced along contiguous memory, pairwise in blocks of 16 lanes that
//    the compiler vectorizes (as accurate as NumPy's pairwise sum or better), long rows in
//    fixed chunks reduced in parallel and combined as a tree;
//  - run_outer: reduced axis outside the contiguous one, rows accumulated into column tiles
//    (vectorized across columns), pairwise over rows, parallel over (outer, tile, row chunk).
// Chunking depends only on sizes, never on the thread count: results are deterministic.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "loom/array/array.h"
#include "loom/common/loom_argmax.cuh"
#include "loom/common/loom_complex.cuh"  // complex sum and prod
#include "loom/core/cast.h"
#include "loom/runtime/cpu/thread_pool.h"
#include "loom/backend/reduce_kinds.h"

namespace loom::cpu_backend::reduce_detail {

constexpr int kLanes = 16;            // independent accumulators per block
constexpr int64_t kBlock = 256;       // pairwise leaf: kLanes lanes of 16 elements
constexpr int64_t kChunk = 1 << 15;   // elements per parallel task of a long row
constexpr int64_t kTile = 256;        // columns per task of an outer reduction
constexpr int64_t kOuterLeaf = 32;    // rows accumulated naively before a pairwise split

/// The value an element is computed in: float for float16/bfloat16, bool for bool.
template <class T>
using value_t = std::conditional_t<is_f16<T>, float, T>;

template <class T>
inline value_t<T> load(const T* p) {
  if constexpr (is_f16<T>) return f16_to_float(*p);
  else if constexpr (std::is_same_v<T, bool>) return *reinterpret_cast<const uint8_t*>(p) != 0;
  else return *p;
}

// Scratch arrays of accumulators (std::vector<bool> has no data()).
template <class A>
std::unique_ptr<A[]> make_buf(int64_t n) {
  return std::unique_ptr<A[]>(new A[static_cast<size_t>(std::max<int64_t>(n, 1))]);
}

template <class V>
inline bool is_nan(V v) {
  if constexpr (std::is_floating_point_v<V>) return v != v;
  else return false;
}
template <class V>
constexpr V lowest() {
  if constexpr (std::is_floating_point_v<V>) return -std::numeric_limits<V>::infinity();
  else return std::numeric_limits<V>::lowest();
}
template <class V>
constexpr V highest() {
  if constexpr (std::is_floating_point_v<V>) return std::numeric_limits<V>::infinity();
  else return std::numeric_limits<V>::max();
}

// ---- combines (associative and commutative, so any grouping gives a valid result) ----
template <class A>
struct Add {
  static A identity() { return A(0); }
  static A combine(A a, A b) { return a + b; }
};
template <class A>
struct Mul {
  static A identity() { return A(1); }
  static A combine(A a, A b) { return a * b; }
};
// NaN wins: once an accumulator is NaN it stays NaN (common/loom_argmax.cuh). The vectorized loops use pick()
// (a plain compare-select the compiler turns into max/min instructions) and track NaNs in
// separate lanes (split_nan); combine() is the full rule.
template <class A>
struct Max {
  static constexpr bool split_nan = std::is_floating_point_v<A>;
  static A identity() { return lowest<A>(); }
  template <class T>
  static T pick(T a, T b) { return b > a ? b : a; }
  static A combine(A a, A b) { return loom_nanmax(a, b); }
};
template <class A>
struct Min {
  static constexpr bool split_nan = std::is_floating_point_v<A>;
  static A identity() { return highest<A>(); }
  template <class T>
  static T pick(T a, T b) { return b < a ? b : a; }
  static A combine(A a, A b) { return loom_nanmin(a, b); }
};
template <class C, class = void>
struct is_arg_op : std::false_type {};
template <class C>
struct is_arg_op<C, std::void_t<decltype(C::is_max)>> : std::true_type {};
template <class C, class = void>
struct has_split_nan : std::false_type {};
template <class C>
struct has_split_nan<C, std::void_t<decltype(C::split_nan)>> : std::bool_constant<C::split_nan> {};

struct Or {
  static bool identity() { return false; }
  static bool combine(bool a, bool b) { return a | b; }
};
struct And {
  static bool identity() { return true; }
  static bool combine(bool a, bool b) { return a & b; }
};

// (value, index) pairs and their rule (common/loom_argmax.cuh, shared with the GPU).
template <class V>
using ArgAcc = loom_argpair<V>;
template <class V, bool kMax>
struct ArgBest {
  using value = V;
  static constexpr bool is_max = kMax;
  static ArgAcc<V> identity() { return {kMax ? lowest<V>() : highest<V>(), INT64_MAX}; }
  static ArgAcc<V> combine(ArgAcc<V> a, ArgAcc<V> b) { return loom_argbest<V, kMax>(a, b); }
};

// An Op bundles a combine C with a map (element value, index along the reduction, output
// index) -> accumulator and a post (accumulator, output index) -> result value.
template <class C, class MapF, class PostF>
struct Op {
  using acc = decltype(C::identity());
  static constexpr bool split_nan = has_split_nan<C>::value;
  static constexpr bool is_arg = is_arg_op<C>::value;
  using combiner = C;
  MapF map_fn;
  PostF post_fn;
  static acc identity() { return C::identity(); }
  static acc combine(acc a, acc b) { return C::combine(a, b); }
  template <class T>
  static T pick(T a, T b) { return C::pick(a, b); }
  template <class V>
  acc map(V v, int64_t r, int64_t j) const { return map_fn(v, r, j); }
  auto post(acc a, int64_t j) const { return post_fn(a, j); }
};
template <class C, class MapF, class PostF>
Op<C, MapF, PostF> make_op(C, MapF m, PostF p) {
  return Op<C, MapF, PostF>{m, p};
}

// ---- inner: reduce n contiguous elements ---------------------------------------------
// Float min/max leaf: compare-selects in lanes (vectorized to max/min instructions), then
// a separate NaN scan of the same cached block (vectorized too); NaN wins.
template <class O, class In>
typename O::acc leaf_pick(const O& op, const In* x, int64_t n, int64_t r0, int64_t j) {
  using A = typename O::acc;
  // GCC's vector extension: the auto-vectorizer leaves compare-selects scalar here.
  typedef A vec __attribute__((vector_size(16)));
  constexpr int W = 16 / sizeof(A), Q = kLanes / W;
  vec lanes[Q];
  for (int q = 0; q < Q; ++q)
    for (int e = 0; e < W; ++e) lanes[q][e] = O::identity();
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int q = 0; q < Q; ++q) {
      vec v;
      for (int e = 0; e < W; ++e) v[e] = op.map(load(x + i + q * W + e), r0, j);
      lanes[q] = O::pick(lanes[q], v);
    }
  A r[kLanes];
  for (int q = 0; q < Q; ++q)
    for (int e = 0; e < W; ++e) r[q * W + e] = lanes[q][e];
  for (; i < n; ++i) r[0] = O::pick(r[0], op.map(load(x + i), r0 + i, j));
  A m = r[0];
  for (int k = 1; k < kLanes; ++k) m = O::pick(m, r[k]);
  int nan = 0;
  for (int64_t t = 0; t < n; ++t) {
    const A v = op.map(load(x + t), r0 + t, j);
    nan |= v != v;
  }
  return nan ? std::numeric_limits<A>::quiet_NaN() : m;
}

// argmin/argmax of contiguous elements, block by block: the extreme value with vectorized
// compare-selects (NaN tracked apart), then the first index holding it (or the first NaN).
template <class O, class In>
typename O::acc arg_blocked(const In* x, int64_t n, int64_t r0) {
  using C = typename O::combiner;
  using V = typename C::value;
  using Pick = std::conditional_t<C::is_max, Max<V>, Min<V>>;
  auto best = C::identity();
  constexpr int64_t kArgBlock = 4096;
  for (int64_t b = 0; b < n; b += kArgBlock) {
    const int64_t m = std::min(kArgBlock, n - b);
    const In* p = x + b;
    V lanes[kLanes];
    for (int k = 0; k < kLanes; ++k) lanes[k] = Pick::identity();
    int64_t i = 0;
    for (; i + kLanes <= m; i += kLanes)
      for (int k = 0; k < kLanes; ++k) lanes[k] = Pick::pick(lanes[k], static_cast<V>(load(p + i + k)));
    for (; i < m; ++i) lanes[0] = Pick::pick(lanes[0], static_cast<V>(load(p + i)));
    V e = lanes[0];
    for (int k = 1; k < kLanes; ++k) e = Pick::pick(e, lanes[k]);
    int nan = 0;
    if constexpr (std::is_floating_point_v<V>) {
      for (int64_t t = 0; t < m; ++t) {
        const V v = load(p + t);
        nan |= v != v;
      }
    }
    int64_t at = 0;
    for (; at < m; ++at) {
      const V v = load(p + at);
      if (nan ? is_nan(v) : v == e) break;
    }
    if (at < m) best = C::combine(best, {static_cast<V>(load(p + at)), r0 + b + at});
    if (nan) break;  // the first NaN wins over anything later
  }
  return best;
}

template <class O, class In>
typename O::acc reduce_pairwise(const O& op, const In* x, int64_t n, int64_t r0, int64_t j) {
  using A = typename O::acc;
  if constexpr (O::is_arg) return arg_blocked<O>(x, n, r0);
  if constexpr (O::split_nan) {  // min/max: exact in any order, so long leaves
    A m = O::identity();
    for (int64_t i = 0; i < n; i += 16 * kBlock)
      m = O::combine(m, leaf_pick(op, x + i, std::min(16 * kBlock, n - i), r0 + i, j));
    return m;
  }
  if (n <= kBlock) {
    A r[kLanes];
    for (int k = 0; k < kLanes; ++k) r[k] = O::identity();
    int64_t i = 0;
    {
      for (; i + kLanes <= n; i += kLanes)
        for (int k = 0; k < kLanes; ++k) r[k] = O::combine(r[k], op.map(load(x + i + k), r0 + i + k, j));
    }
    for (; i < n; ++i) r[0] = O::combine(r[0], op.map(load(x + i), r0 + i, j));
    for (int w = kLanes / 2; w > 0; w /= 2)
      for (int k = 0; k < w; ++k) r[k] = O::combine(r[k], r[k + w]);
    return r[0];
  }
  const int64_t h = n / 2 / kLanes * kLanes;
  return O::combine(reduce_pairwise(op, x, h, r0, j), reduce_pairwise(op, x + h, n - h, r0 + h, j));
}

// Tree combine of n accumulators (partials of chunks).
template <class O>
typename O::acc combine_tree(const typename O::acc* p, int64_t n) {
  if (n == 0) return O::identity();
  if (n == 1) return p[0];
  const int64_t h = n / 2;
  return O::combine(combine_tree<O>(p, h), combine_tree<O>(p + h, n - h));
}

// ---- sources: where the elements come from -------------------------------------------
// A dense input array (eager reductions): segments are read in place. A fused reduction
// (reduce_fused.cpp) uses a source that computes the segments it is asked for into the
// task's scratch, so the engine's segmentation, and with it the order of every combine,
// is the same either way: fused results equal unfused ones bit for bit.
template <class In>
struct DenseSource {
  static constexpr bool direct = true;
  const In* x;
  struct Scratch {};
  Scratch scratch() const { return {}; }
  /// Elements [k, k + n) of the input in memory order.
  const In* rows(int64_t k, int64_t, Scratch&) const { return x + k; }
  /// n rows of w elements, row r at k + r * stride; returns them with their row stride.
  const In* block(int64_t k, int64_t, int64_t stride, int64_t, Scratch&, int64_t& out_stride) const {
    out_stride = stride;
    return x + k;
  }
};

template <class O, class Src, class Out>
void run_inner(const O& op, const Src& src, Out* out, int64_t rows, int64_t len) {
  using A = typename O::acc;
  if (rows == 0) return;
  if (len >= 2 * kChunk) {
    const int64_t chunks = (len + kChunk - 1) / kChunk;
    auto partial = make_buf<A>(rows * chunks);
    cpu_runtime::parallel_for(rows * chunks, 1, [&](int64_t b, int64_t e) {
      auto scratch = src.scratch();
      for (int64_t t = b; t < e; ++t) {
        const int64_t row = t / chunks, c = t % chunks, start = c * kChunk, n = std::min(kChunk, len - start);
        partial[t] = reduce_pairwise(op, src.rows(row * len + start, n, scratch), n, start, row);
      }
    });
    for (int64_t row = 0; row < rows; ++row)
      out[row] = cast<Out>(op.post(combine_tree<O>(partial.get() + row * chunks, chunks), row));
    return;
  }
  const int64_t grain = std::max<int64_t>(1, kChunk / std::max<int64_t>(len, 1));
  cpu_runtime::parallel_for(rows, grain, [&](int64_t b, int64_t e) {
    auto scratch = src.scratch();
    // Computed sources fill up to 2 * kChunk elements (several short rows) at a time.
    const int64_t batch = Src::direct ? e - b : std::max<int64_t>(1, 2 * kChunk / std::max<int64_t>(len, 1));
    for (int64_t r0 = b; r0 < e; r0 += batch) {
      const int64_t r1 = std::min(e, r0 + batch);
      const auto* x = src.rows(r0 * len, (r1 - r0) * len, scratch);
      for (int64_t row = r0; row < r1; ++row)
        out[row] = cast<Out>(op.post(reduce_pairwise(op, x + (row - r0) * len, len, 0, row), row));
    }
  });
}

// ---- outer: acc[0..w) = reduction over n rows (stride `inner`) of w columns ---------------
template <class O, class In>
void accumulate_rows(const O& op, const In* x, int64_t n, int64_t inner, int64_t w, int64_t r0,
                     int64_t j0, typename O::acc* acc, typename O::acc* scratch) {
  if (n <= kOuterLeaf) {
    using A = typename O::acc;
    for (int64_t i = 0; i < w; ++i) acc[i] = O::identity();
    if constexpr (O::split_nan) {
      bool nan[kTile] = {};
      for (int64_t r = 0; r < n; ++r) {
        const In* row = x + r * inner;
        for (int64_t i = 0; i < w; ++i) {
          const A v = op.map(load(row + i), r0 + r, j0 + i);
          acc[i] = O::pick(acc[i], v);
          nan[i] |= v != v;
        }
      }
      for (int64_t i = 0; i < w; ++i)
        if (nan[i]) acc[i] = std::numeric_limits<A>::quiet_NaN();
    } else {
      for (int64_t r = 0; r < n; ++r) {
        const In* row = x + r * inner;
        for (int64_t i = 0; i < w; ++i) acc[i] = O::combine(acc[i], op.map(load(row + i), r0 + r, j0 + i));
      }
    }
    return;
  }
  const int64_t h = n / 2;
  accumulate_rows(op, x, h, inner, w, r0, j0, acc, scratch + w);
  accumulate_rows(op, x + h * inner, n - h, inner, w, r0 + h, j0, scratch, scratch + w);
  for (int64_t i = 0; i < w; ++i) acc[i] = O::combine(acc[i], scratch[i]);
}

template <class O, class Src, class Out>
void run_outer(const O& op, const Src& src, Out* out, int64_t outer, int64_t len, int64_t inner) {
  using A = typename O::acc;
  if (outer * inner == 0) return;
  const int64_t tiles = (inner + kTile - 1) / kTile;
  const int64_t width = std::min(inner, kTile);
  // Long reductions over few columns are split into row chunks too (combined as a tree).
  const int64_t rows_per_chunk = std::max<int64_t>(4 * kOuterLeaf, kChunk / width);
  const int64_t chunks = std::max<int64_t>(1, (len + rows_per_chunk - 1) / rows_per_chunk);
  int depth = 1;
  for (int64_t n = std::min(len, rows_per_chunk); n > kOuterLeaf; n = (n + 1) / 2) ++depth;
  auto partial = make_buf<A>(chunks > 1 ? outer * tiles * chunks * width : 0);
  const int64_t tasks = outer * tiles * chunks;
  const int64_t grain = std::max<int64_t>(1, kChunk / std::max<int64_t>(1, width * std::min(len, rows_per_chunk)));
  cpu_runtime::parallel_for(tasks, grain, [&](int64_t b, int64_t e) {
    auto acc = make_buf<A>(width * (depth + 1));
    auto scratch = src.scratch();
    for (int64_t t = b; t < e; ++t) {
      const int64_t c = t % chunks, tile = (t / chunks) % tiles, o = t / chunks / tiles;
      const int64_t c0 = tile * kTile, w = std::min(kTile, inner - c0);
      const int64_t r0 = c * rows_per_chunk, n = std::max<int64_t>(0, std::min(rows_per_chunk, len - r0));
      A* dst = chunks > 1 ? partial.get() + t * width : acc.get();
      int64_t stride = inner;
      const auto* x = src.block((o * len + r0) * inner + c0, n, inner, w, scratch, stride);
      accumulate_rows(op, x, n, stride, w, r0, o * inner + c0, dst, acc.get() + width);
      if (chunks == 1)
        for (int64_t i = 0; i < w; ++i) out[o * inner + c0 + i] = cast<Out>(op.post(dst[i], o * inner + c0 + i));
    }
  });
  if (chunks == 1) return;
  cpu_runtime::parallel_for(outer * tiles, 1, [&](int64_t b, int64_t e) {
    auto col = make_buf<A>(chunks);
    for (int64_t t = b; t < e; ++t) {
      const int64_t o = t / tiles, c0 = (t % tiles) * kTile, w = std::min(kTile, inner - c0);
      for (int64_t i = 0; i < w; ++i) {
        for (int64_t c = 0; c < chunks; ++c) col[c] = partial[(t * chunks + c) * width + i];
        out[o * inner + c0 + i] = cast<Out>(op.post(combine_tree<O>(col.get(), chunks), o * inner + c0 + i));
      }
    }
  });
}

/// Runs `op` over the geometry: the inner path when the reduced axis is the contiguous one.
/// `src` is a DenseSource or a computed one (reduce_fused.cpp).
template <class O, class Src, class Out>
void run_source(const O& op, const Src& src, Out* out, const ReduceGeometry& g) {
  if (g.inner == 1) run_inner(op, src, out, g.outer, g.len);
  else run_outer(op, src, out, g.outer, g.len, g.inner);
}
template <class O, class In, class Out>
void run(const O& op, const In* x, Out* out, const ReduceGeometry& g) {
  run_source(op, DenseSource<In>{x}, out, g);
}

template <class T>
constexpr bool is_float_storage = is_f16<T> || std::is_floating_point_v<T> || is_complex_v<T>;
/// Accumulator of sum/prod (reduce_acc_dtype): int64, uint64, float, double or the complex type itself.
template <class T>
using sum_acc_t = std::conditional_t<
    is_complex_v<T> || std::is_same_v<T, double>, T,
    std::conditional_t<is_float_storage<T>, float,
                       std::conditional_t<std::is_unsigned_v<T> && !std::is_same_v<T, bool>, uint64_t, int64_t>>>;
/// Accumulator of the float-valued kinds (mean, var, norms): float or double.
template <class T>
using float_acc_t = std::conditional_t<is_f16<T> || std::is_same_v<T, float>, float, double>;

}  // namespace loom::cpu_backend::reduce_detail
