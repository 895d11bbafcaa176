// Device code of the sorting family. Every dtype maps to an unsigned key of its width
// whose unsigned order is NumPy's order (backend/cpu/sorting_keys.h holds the host twin):
// floats send NaN to the all-ones key and -0.0 to +0.0, then flip all bits of negatives
// and the sign bit of positives; signed integers flip the sign bit; bool is 0/1. CUB
// then sorts only 4 key widths. Host-compilable, so tests can check the keys on a CPU.
#pragma once
#include "loom_cast.cuh"

// A float's key from its bits (`inf_bits`: +inf's).
template <typename U>
LOOM_DEV U loom_float_key(U u, U inf_bits) {
  const U sign = static_cast<U>(U(1) << (8 * sizeof(U) - 1));
  const U mag = static_cast<U>(u & static_cast<U>(~sign));
  if (mag > inf_bits) return static_cast<U>(~U(0));
  if (mag == 0) u = 0;
  return (u & sign) ? static_cast<U>(~u) : static_cast<U>(u | sign);
}
template <typename U>
LOOM_DEV U loom_signed_key(U u) {
  return static_cast<U>(u ^ static_cast<U>(U(1) << (8 * sizeof(U) - 1)));
}
// The inverse of loom_float_key, except that the NaN key gives `default_nan` and the zero
// key +0.0 (sorting_keys.h's float_bits_from_key).
template <typename U>
LOOM_DEV U loom_float_bits(U k, U default_nan) {
  const U sign = static_cast<U>(U(1) << (8 * sizeof(U) - 1));
  if (k == static_cast<U>(~U(0))) return default_nan;
  return (k & sign) ? static_cast<U>(k & static_cast<U>(~sign)) : static_cast<U>(~k);
}

// loom_key_traits<T>: `bits`, the unsigned type of T's width; key(bits); bits_of(key), the
// element a key stands for (value_from_key of sorting_keys.h); `floating`: 1 when several
// elements share a key (+-0.0, the NaNs).
template <typename T> struct loom_key_traits;
#define LOOM_KEY_TRAITS(T, U, EXPR, INV, FLOATING)               \
  template <> struct loom_key_traits<T> {                        \
    typedef U bits;                                              \
    enum { floating = FLOATING };                                \
    static LOOM_DEV U key(U b) { return EXPR; }                  \
    static LOOM_DEV U bits_of(U k) { return INV; }               \
  };
LOOM_KEY_TRAITS(bool, unsigned char, static_cast<unsigned char>(b != 0), k, 0)
LOOM_KEY_TRAITS(signed char, unsigned char, loom_signed_key(b), loom_signed_key(k), 0)
LOOM_KEY_TRAITS(short, unsigned short, loom_signed_key(b), loom_signed_key(k), 0)
LOOM_KEY_TRAITS(int, unsigned int, loom_signed_key(b), loom_signed_key(k), 0)
LOOM_KEY_TRAITS(long long, unsigned long long, loom_signed_key(b), loom_signed_key(k), 0)
LOOM_KEY_TRAITS(unsigned char, unsigned char, b, k, 0)
LOOM_KEY_TRAITS(unsigned short, unsigned short, b, k, 0)
LOOM_KEY_TRAITS(unsigned int, unsigned int, b, k, 0)
LOOM_KEY_TRAITS(unsigned long long, unsigned long long, b, k, 0)
LOOM_KEY_TRAITS(loom_f16, unsigned short, loom_float_key<unsigned short>(b, 0x7c00u),
                loom_float_bits<unsigned short>(k, 0x7e00u), 1)
LOOM_KEY_TRAITS(loom_bf16, unsigned short, loom_float_key<unsigned short>(b, 0x7f80u),
                loom_float_bits<unsigned short>(k, 0x7fc0u), 1)
LOOM_KEY_TRAITS(float, unsigned int, loom_float_key<unsigned int>(b, 0x7f800000u),
                loom_float_bits<unsigned int>(k, 0x7fc00000u), 1)
LOOM_KEY_TRAITS(double, unsigned long long, loom_float_key<unsigned long long>(b, 0x7ff0000000000000ull),
                loom_float_bits<unsigned long long>(k, 0x7ff8000000000000ull), 1)
#undef LOOM_KEY_TRAITS

// NumPy's sort order of complex values as a key: the NaN class first (none, NaN imaginary
// part only, NaN real part only, both: [R + Rj, R + nanj, nan + Rj, nan + nanj]), then the
// real part's key, then the imaginary part's (a NaN part's key is the all-ones key, which no
// other value has). U: the parts' key type.
template <typename U> struct loom_cplx_key {
  U re, im;
  LOOM_DEV int nan_class() const {
    return (re == static_cast<U>(~U(0)) ? 2 : 0) + (im == static_cast<U>(~U(0)) ? 1 : 0);
  }
};
template <typename U>
LOOM_DEV bool operator<(const loom_cplx_key<U>& a, const loom_cplx_key<U>& b) {
  const int ca = a.nan_class(), cb = b.nan_class();
  if (ca != cb) return ca < cb;
  return a.re < b.re || (a.re == b.re && a.im < b.im);
}
// A complex element's bits (two parts of P's width), as the searchsorted kernel reads them.
template <typename P> struct alignas(2 * sizeof(P)) loom_cplx_bits { P re, im; };

// loom_search_traits<T>: `elem`, how searchsorted reads an element of T; `key`, what it
// compares (operator<); key_of(elem).
template <typename T> struct loom_search_traits {
  typedef typename loom_key_traits<T>::bits elem;
  typedef typename loom_key_traits<T>::bits key;
  static LOOM_DEV key key_of(elem b) { return loom_key_traits<T>::key(b); }
};
template <typename T> struct loom_search_traits<loom_complex<T> > {
  typedef typename loom_key_traits<T>::bits U;
  typedef loom_cplx_bits<U> elem;
  typedef loom_cplx_key<U> key;
  static LOOM_DEV key key_of(elem b) {
    key k;
    k.re = loom_key_traits<T>::key(b.re);
    k.im = loom_key_traits<T>::key(b.im);
    return k;
  }
};

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

#define LOOM_GRID_LOOP(i, n)                                                                  \
  _Pragma("unroll 1") for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * \
                                                  blockDim.x + threadIdx.x;                   \
                           i < static_cast<unsigned long long>(n);                            \
                           i += static_cast<unsigned long long>(gridDim.x) * blockDim.x)

// keys[i] = key(x[i]), idx[i] = i: the input of the radix sort (V: the index type).
template <typename T, typename V>
__global__ void loom_sort_keys(const typename loom_key_traits<T>::bits* __restrict__ x,
                               typename loom_key_traits<T>::bits* __restrict__ keys,
                               V* __restrict__ idx, long long n) {
  LOOM_GRID_LOOP(i, n) {
    keys[i] = loom_key_traits<T>::key(x[i]);
    idx[i] = static_cast<V>(i);
  }
}

// Insertion points of v[i] in a (sorted, or sorted through `sorter` when not null).
template <typename T>
__global__ void loom_searchsorted(const typename loom_search_traits<T>::elem* __restrict__ a, long long n,
                                  const long long* __restrict__ sorter,
                                  const typename loom_search_traits<T>::elem* __restrict__ v,
                                  long long* __restrict__ out, long long m, int right) {
  typedef loom_search_traits<T> S;
  LOOM_GRID_LOOP(i, m) {
    const typename S::key kv = S::key_of(v[i]);
    long long lo = 0, hi = n;
    while (lo < hi) {
      const long long mid = lo + ((hi - lo) >> 1);
      const typename S::key ka = S::key_of(a[sorter ? sorter[mid] : mid]);
      if (right ? !(kv < ka) : ka < kv) lo = mid + 1;
      else hi = mid;
    }
    out[i] = lo;
  }
}

// ---- index-width kernels (V: unsigned int or unsigned long long) ----------------------

// seg[i] = idx[i] / n: the row of each element after the key sort (second, stable pass).
template <typename V>
__global__ void loom_sort_rows(const V* __restrict__ idx, V* __restrict__ seg, V n, long long total) {
  LOOM_GRID_LOOP(i, total) seg[i] = idx[i] / n;
}

// out[i] = x[idx[i]]: sorted values (E: an unsigned type of the element's size).
template <typename E, typename V>
__global__ void loom_sort_gather(const E* __restrict__ x, const V* __restrict__ idx,
                                 E* __restrict__ out, long long total) {
  LOOM_GRID_LOOP(i, total) out[i] = x[idx[i]];
}

// out[i] = idx[i] % n: argsort's indices within each row.
template <typename V>
__global__ void loom_sort_local(const V* __restrict__ idx, long long* __restrict__ out, V n,
                                long long total) {
  LOOM_GRID_LOOP(i, total) out[i] = static_cast<long long>(idx[i] % n);
}

// flags[i] = 1 where sorted key i starts a group of equal keys (each NaN its own group
// when nan_distinct), else 0.
template <typename K, typename V>
__global__ void loom_unique_flags(const K* __restrict__ keys, V* __restrict__ flags, long long n,
                                  int nan_distinct) {
  LOOM_GRID_LOOP(i, n) {
    const K k = keys[i];
    flags[i] = (i == 0 || k != keys[i - 1] || (nan_distinct && k == static_cast<K>(~K(0)))) ? 1 : 0;
  }
}

// group[i] (inclusive scan of the flags) is 1 + the unique index of sorted element i.
// Writes each group's value, first index and start, and every element's inverse.
// index/inverse may be null when not asked for.
template <typename E, typename V>
__global__ void loom_unique_scatter(const E* __restrict__ x, const V* __restrict__ perm,
                                    const V* __restrict__ group, E* __restrict__ values,
                                    long long* __restrict__ index, long long* __restrict__ inverse,
                                    long long* __restrict__ starts, long long n) {
  LOOM_GRID_LOOP(i, n) {
    const V g = group[i] - 1;
    const V p = perm[i];
    if (i == 0 || group[i - 1] != group[i]) {
      values[g] = x[p];
      if (index) index[g] = static_cast<long long>(p);
      starts[g] = static_cast<long long>(i);
    }
    if (inverse) inverse[p] = static_cast<long long>(g);
  }
}

// counts[g] = starts[g + 1] - starts[g] (n - starts[g] for the last group).
__global__ void loom_unique_counts(const long long* __restrict__ starts, long long* __restrict__ counts,
                                   long long count, long long n) {
  LOOM_GRID_LOOP(g, count) counts[g] = (g + 1 < static_cast<unsigned long long>(count) ? starts[g + 1] : n) - starts[g];
}

// *bad = 1 when any sorter index is outside [0, n).
__global__ void loom_check_sorter(const long long* __restrict__ sorter, long long n, int* bad) {
  LOOM_GRID_LOOP(i, n) if (sorter[i] < 0 || sorter[i] >= n) *bad = 1;
}

#endif  // __CUDACC__ || __CUDACC_RTC__
