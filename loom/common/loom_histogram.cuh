// NumPy's histogram with equal bins (numpy/lib/_histograms_impl.py), written once for the
// CPU evals, the GPU kernels (backend/cuda/kernels/loom_counting.cuh) and ops/counting.cpp,
// which computes the edges on the host. NumPy works in the "bin type" T (float16, float32
// or float64: the edges' dtype) and divides either in T or in float64, by the dtypes of
// the scalars it holds; loom_hist_arith<T> reproduces each of its operations, rounded as
// NumPy rounds it. Self-contained and host-compilable (no include path under NVRTC).
#pragma once
#include "loom_cast.cuh"

// T's arithmetic on its value type: float and double natively; float16 as NumPy's half
// loops compute (each operation in float, the result rounded to half), held in a float.
template <typename T> struct loom_hist_arith {
  typedef T value;
  static LOOM_DEV T round(T v) { return v; }
  static LOOM_DEV T from_double(double d) { return static_cast<T>(d); }
  static LOOM_DEV T from_index(long long k) { return static_cast<T>(k); }
  static LOOM_DEV T load(T e) { return e; }
  static LOOM_DEV T store(T v) { return v; }
};
template <> struct loom_hist_arith<loom_f16> {
  typedef float value;
  static LOOM_DEV float round(float v) { return loom_f16_to_float(loom_float_to_f16(v)); }
  static LOOM_DEV float from_double(double d) { return loom_f16_to_float(loom_double_to_f16(d)); }
  static LOOM_DEV float from_index(long long k) { return round(static_cast<float>(k)); }
  static LOOM_DEV float load(loom_f16 e) { return loom_f16_to_float(e); }
  static LOOM_DEV loom_f16 store(float v) { return loom_float_to_f16(v); }
};

// An element of the histogrammed array as bin type T (NumPy's tmp_a.astype(bin_type)):
// floats are already T; integers become float64.
template <typename T, typename E>
LOOM_DEV typename loom_hist_arith<T>::value loom_hist_value(E x) {
  if constexpr (loom_same<E, loom_f16>::value) return loom_f16_to_float(x);
  else return static_cast<typename loom_hist_arith<T>::value>(x);
}

// numpy.linspace(start, stop, n + 1)[k] computed in D as NumPy computes it for a scalar
// step (function_base.py): y = arange(n + 1) * step + start, or (arange / n) * delta where
// step underflowed to 0, each operation rounded to D; the last value is stop itself.
// delta = D(stop - start), div = D(n), step = D(delta / div).
template <typename D>
LOOM_DEV typename loom_hist_arith<D>::value loom_hist_linspace(long long k, long long n,
                                                               typename loom_hist_arith<D>::value start,
                                                               typename loom_hist_arith<D>::value stop,
                                                               typename loom_hist_arith<D>::value delta,
                                                               typename loom_hist_arith<D>::value div,
                                                               typename loom_hist_arith<D>::value step) {
  typedef loom_hist_arith<D> A;
  if (k == n) return stop;
  typename A::value y = A::from_index(k);
  y = step == 0 ? A::round(A::round(y / div) * delta) : A::round(y * step);
  return A::round(y + start);
}

// The bin of x (a value of bin type T) among n equal bins with edges e[0] = lo ... e[n] = hi
// (edge(k) gives e[k] as T's value), or -1 when x is outside [lo, hi] (NaN too): NumPy's
//   f = (x - lo) / denom * n   (x - lo in T; the rest in T, or in float64 when `wide`)
//   i = int(f), n - 1 when i == n; i -= x < e[i]; i += x >= e[i + 1] and i != n - 1.
// denom is NumPy's norm_denom (hi - lo as NumPy computes it) and cn is n in the division's
// type (rounded to it, as NumPy's weak Python int is). f >= n (only where NumPy's own
// index would be out of its edges' bounds) gives the last bin.
template <typename T, bool WIDE, typename Edge>
LOOM_DEV long long loom_hist_bin(typename loom_hist_arith<T>::value x, typename loom_hist_arith<T>::value lo,
                                 typename loom_hist_arith<T>::value hi, double denom, double cn, long long n,
                                 const Edge& edge) {
  typedef loom_hist_arith<T> A;
  typedef typename A::value V;
  if (!(x >= lo && x <= hi)) return -1;
  const V diff = A::round(x - lo);
  long long i = n - 1;
  if constexpr (WIDE) {
    const double f = (static_cast<double>(diff) / denom) * cn;
    if (f < static_cast<double>(n)) i = static_cast<long long>(f);
  } else {
    const V f = A::round(A::round(diff / static_cast<V>(denom)) * static_cast<V>(cn));
    if (f < static_cast<V>(n)) i = static_cast<long long>(f);
  }
  if (i > 0 && x < edge(i)) --i;
  if (i != n - 1 && x >= edge(i + 1)) ++i;
  return i;
}
