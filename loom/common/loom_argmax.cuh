// The NaN and tie rules of max/min and argmax/argmin, written once for both backends:
// the CPU reduction engine (backend/cpu/reduce_engine.h) combines with these functions,
// and the generated GPU reductions (backend/cuda/reduce_codegen.cpp) name them in their
// Op. NaN wins (NumPy propagates it; argmax/argmin return the first NaN), then the larger
// (smaller) value, then the smaller index, so any grouping gives the first occurrence.
// Host+device, self-contained (NVRTC gets no include path).
#pragma once
#include "loom_cast.cuh"

/// An argmax/argmin accumulator: the best value so far and its index along the axis.
template <typename V>
struct loom_argpair {
  V v;
  long long i;
};

/// NaN test of a value type (float, double; integers and bool are never NaN).
template <typename V>
LOOM_DEV bool loom_value_isnan(V v) {
  if constexpr (loom_kind<V>::value == loom_float) return v != v;
  else return false;
}

/// NaN-propagating maximum and minimum: once an accumulator is NaN it stays NaN.
template <typename V>
LOOM_DEV V loom_nanmax(V a, V b) { return (b > a || loom_value_isnan(b)) ? b : a; }
template <typename V>
LOOM_DEV V loom_nanmin(V a, V b) { return (b < a || loom_value_isnan(b)) ? b : a; }

/// The better of two (value, index) pairs for argmax (MAX) or argmin.
template <typename V, bool MAX>
LOOM_DEV loom_argpair<V> loom_argbest(const loom_argpair<V>& a, const loom_argpair<V>& b) {
  const bool an = loom_value_isnan(a.v), bn = loom_value_isnan(b.v);
  if (an || bn) {
    if (an && bn) return a.i <= b.i ? a : b;
    return an ? a : b;
  }
  if (MAX ? a.v > b.v : a.v < b.v) return a;
  if (MAX ? b.v > a.v : b.v < a.v) return b;
  return a.i <= b.i ? a : b;
}
