// Device code of the counting family (backend/counting.h): min/max in two launches (per
// block, then one block), and bincount and the equal-bin histogram in one launch each.
// A block reads its share of the input over a grid-stride loop, 16 bytes per load where
// aligned. With `shared` set, it counts into sums of its own in shared memory (32-bit
// counters, or doubles for weights; the histogram's edges beside them) and adds them into
// the zeroed output once at its end; otherwise every element is a global atomic. The
// histogram's rule is NumPy's (common/loom_histogram.cuh, also run by the CPU evals).
#pragma once
#include "loom_histogram.cuh"

#define LOOM_COUNT_THREADS 256

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

// Calls f(i, x[i]) for every i < n, spread over the grid: the 16-byte aligned middle of x
// as 16-byte loads, U of them in flight per thread, the ends one element at a time.
template <typename E, typename F>
__device__ __forceinline__ void loom_count_each(const E* __restrict__ x, long long n, F& f) {
  constexpr int S = sizeof(E), VEC = 16 / S, U = VEC >= 8 ? 1 : 8 / VEC;
  const long long tid = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;
  const unsigned long long addr = reinterpret_cast<unsigned long long>(x);
  long long head = (addr % S) ? n : static_cast<long long>(((16 - (addr & 15)) & 15) / S);
  if (head > n) head = n;
  for (long long i = tid; i < head; i += step) f(i, x[i]);
  const uint4* __restrict__ vp = reinterpret_cast<const uint4*>(x + head);
  const long long nvec = (n - head) / VEC;
  long long v = tid;
  for (; v + (U - 1) * step < nvec; v += U * step) {
    uint4 raw[U];
#pragma unroll
    for (int u = 0; u < U; ++u) raw[u] = vp[v + u * step];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const E* e = reinterpret_cast<const E*>(&raw[u]);
      const long long at = head + (v + u * step) * VEC;
#pragma unroll
      for (int k = 0; k < VEC; ++k) f(at + k, e[k]);
    }
  }
  for (; v < nvec; v += step) {
    const uint4 raw = vp[v];
    const E* e = reinterpret_cast<const E*>(&raw);
#pragma unroll
    for (int k = 0; k < VEC; ++k) f(head + v * VEC + k, e[k]);
  }
  for (long long i = head + nvec * VEC + tid; i < n; i += step) f(i, x[i]);
}

// ---- min and max -----------------------------------------------------------------------

template <typename V>
__device__ __forceinline__ bool loom_count_isnan(V v) {
  if constexpr (loom_kind<V>::value == loom_float) return v != v;
  else return false;
}

// NumPy's min/max fold: a NaN wins and stays, then the smaller / larger value.
template <typename V>
__device__ __forceinline__ void loom_minmax_fold(V& lo, V& hi, V v) {
  const bool nan = loom_count_isnan(v);
  if (nan || v < lo) lo = v;
  if (nan || v > hi) hi = v;
}

// Folds every thread's (lo, hi) into thread 0's (LOOM_COUNT_THREADS threads).
template <typename V>
__device__ __forceinline__ void loom_minmax_block(V& lo, V& hi) {
  __shared__ V slo[LOOM_COUNT_THREADS], shi[LOOM_COUNT_THREADS];
  slo[threadIdx.x] = lo;
  shi[threadIdx.x] = hi;
  __syncthreads();
  for (int w = LOOM_COUNT_THREADS / 2; w > 0; w >>= 1) {
    if (static_cast<int>(threadIdx.x) < w) {
      V l = slo[threadIdx.x], h = shi[threadIdx.x];
      loom_minmax_fold(l, h, slo[threadIdx.x + w]);
      loom_minmax_fold(l, h, shi[threadIdx.x + w]);
      slo[threadIdx.x] = l;
      shi[threadIdx.x] = h;
    }
    __syncthreads();
  }
  lo = slo[0];
  hi = shi[0];
}

// partial[2b], partial[2b + 1] = min and max of block b's share of x (n > 0; every thread
// starts from x[0], which is one of the values).
template <typename E>
__global__ void __launch_bounds__(LOOM_COUNT_THREADS) loom_minmax_partial(const E* __restrict__ x, long long n,
                                                                           typename loom_value<E>::type* partial) {
  typedef typename loom_value<E>::type V;
  V lo = loom_widen<E>(x[0]), hi = lo;
  auto f = [&](long long, E e) { loom_minmax_fold(lo, hi, loom_widen<E>(e)); };
  loom_count_each(x, n, f);
  loom_minmax_block(lo, hi);
  if (threadIdx.x == 0) {
    partial[2 * blockIdx.x] = lo;
    partial[2 * blockIdx.x + 1] = hi;
  }
}

// One block: out[0], out[1] = min and max over the `count` partial pairs.
template <typename E>
__global__ void __launch_bounds__(LOOM_COUNT_THREADS) loom_minmax_final(const typename loom_value<E>::type* partial,
                                                                         long long count, E* out) {
  typedef typename loom_value<E>::type V;
  V lo = partial[0], hi = partial[1];
  for (long long b = threadIdx.x; b < count; b += blockDim.x) {
    loom_minmax_fold(lo, hi, partial[2 * b]);
    loom_minmax_fold(lo, hi, partial[2 * b + 1]);
  }
  loom_minmax_block(lo, hi);
  if (threadIdx.x == 0) {
    out[0] = loom_cast<E>(lo);
    out[1] = loom_cast<E>(hi);
  }
}

// ---- bincount and histogram --------------------------------------------------------------

// W: what is summed per bin. 0: counts (int64 out), 1: float64 weights, 2: complex128
// weights (float64 pairs), 3 (histogram only): no sums, out[i] = the bin of element i.
template <int W> struct loom_count_sum { typedef unsigned int type; static constexpr int per_bin = 1; };
template <> struct loom_count_sum<1> { typedef double type; static constexpr int per_bin = 1; };
template <> struct loom_count_sum<2> { typedef double type; static constexpr int per_bin = 2; };
template <> struct loom_count_sum<3> { typedef double type; static constexpr int per_bin = 0; };

extern __shared__ double loom_count_smem[];  // 8-byte aligned: the sums, then the edges

// Adds element i (bin b >= 0) to the block's sums (s, shared) or to out (global).
template <int W>
__device__ __forceinline__ void loom_count_add(typename loom_count_sum<W>::type* s, void* out, int shared,
                                               long long b, const void* weights, long long i) {
  if constexpr (W == 0) {
    if (shared) atomicAdd(s + b, 1u);
    else atomicAdd(static_cast<unsigned long long*>(out) + b, 1ull);
  } else if constexpr (W == 1) {
    const double w = static_cast<const double*>(weights)[i];
    atomicAdd((shared ? s : static_cast<double*>(out)) + b, w);
  } else if constexpr (W == 2) {
    const loom_complex128 w = static_cast<const loom_complex128*>(weights)[i];
    double* p = (shared ? s : static_cast<double*>(out)) + 2 * b;
    atomicAdd(p, w.re);
    atomicAdd(p + 1, w.im);
  }
}

// The block's sums into the output (after a barrier); nothing to add is skipped.
template <int W>
__device__ __forceinline__ void loom_count_flush(const typename loom_count_sum<W>::type* s, void* out, long long bins) {
  __syncthreads();
  const long long m = bins * loom_count_sum<W>::per_bin;
  for (long long k = threadIdx.x; k < m; k += blockDim.x) {
    if (s[k] == 0) continue;
    if constexpr (W == 0) atomicAdd(static_cast<unsigned long long*>(out) + k, static_cast<unsigned long long>(s[k]));
    else atomicAdd(static_cast<double*>(out) + k, s[k]);
  }
}

template <int W>
__device__ __forceinline__ typename loom_count_sum<W>::type* loom_count_zero(long long bins) {
  typedef typename loom_count_sum<W>::type S;
  S* s = reinterpret_cast<S*>(loom_count_smem);
  for (long long k = threadIdx.x; k < bins * loom_count_sum<W>::per_bin; k += blockDim.x) s[k] = S(0);
  return s;
}

// out[v] += 1 (or weights[i]) for each value v = x[i] in [0, bins).
template <typename E, int W>
__global__ void __launch_bounds__(LOOM_COUNT_THREADS) loom_bincount(const E* __restrict__ x, long long n,
                                                                     const void* __restrict__ weights,
                                                                     void* __restrict__ out, long long bins, int shared) {
  typedef typename loom_count_sum<W>::type S;
  S* s = shared ? loom_count_zero<W>(bins) : nullptr;
  if (shared) __syncthreads();
  auto f = [&](long long i, E v) {
    const unsigned long long u = static_cast<unsigned long long>(v);  // a negative value: huge
    if (u < static_cast<unsigned long long>(bins)) loom_count_add<W>(s, out, shared, static_cast<long long>(u), weights, i);
  };
  loom_count_each(x, n, f);
  if (shared) loom_count_flush<W>(s, out, bins);
}

// NumPy's histogram of x over `bins` equal bins with edges[0..bins] (bin type T; WIDE:
// divide in float64): counts or sums (W 0-2) into out, or each element's bin (W 3).
// `denom` and `cn`: loom_hist_bin's. With `shared`, the edges are read from shared memory.
template <typename E, typename T, bool WIDE, int W>
__global__ void __launch_bounds__(LOOM_COUNT_THREADS) loom_histogram(const E* __restrict__ x, long long n,
                                                                      const T* __restrict__ edges, long long bins,
                                                                      double denom, double cn,
                                                                      const void* __restrict__ weights,
                                                                      void* __restrict__ out, int shared) {
  typedef loom_hist_arith<T> A;
  typedef typename A::value V;
  typedef typename loom_count_sum<W>::type S;
  S* s = nullptr;
  V* se = nullptr;
  if (shared) {
    s = loom_count_zero<W>(bins);
    const long long sum_bytes = bins * loom_count_sum<W>::per_bin * static_cast<long long>(sizeof(S));
    se = reinterpret_cast<V*>(reinterpret_cast<char*>(loom_count_smem) + ((sum_bytes + 7) & ~7ll));
    for (long long k = threadIdx.x; k <= bins; k += blockDim.x) se[k] = A::load(edges[k]);
    __syncthreads();
  }
  auto edge = [&](long long k) -> V { return shared ? se[k] : A::load(edges[k]); };
  const V lo = edge(0), hi = edge(bins);
  auto f = [&](long long i, E v) {
    const long long b = loom_hist_bin<T, WIDE>(loom_hist_value<T>(v), lo, hi, denom, cn, bins, edge);
    if constexpr (W == 3) static_cast<long long*>(out)[i] = b;
    else if (b >= 0) loom_count_add<W>(s, out, shared, b, weights, i);
  };
  loom_count_each(x, n, f);
  if constexpr (W != 3)
    if (shared) loom_count_flush<W>(s, out, bins);
}

#endif  // __CUDACC__ || __CUDACC_RTC__
