// Reduction and scan kernels, templated on an Op that a generated program defines from a
// ReductionSpec (backend/cuda/reduce_codegen.h), like CuPy's ReductionKernel:
//   struct Op { typedef in_t, acc_t, out_t;
//     static acc_t identity(); static acc_t reduce(acc_t a, acc_t b);
//     static acc_t map(value x, long long i, long long j, const params_t& p);
//     static out_t post(acc_t a, long long j, const params_t& p); };
// i is the element's index along the reduction, j the output's index. Op::params_t is
// loom_reduce_params or a struct derived from it (jit's fused reductions). With Op::fused,
// Op::element(k, p) computes element k (memory order) from the params' arrays instead of
// loading it: the kernels pass a null `in`, so a segment's "address" is its element
// offset times sizeof(in_t), and the segmentation (and the order of combines) is the one
// a stored, 16-byte aligned input gets. Inputs are dense:
// element (o, r, c) of [outer][len][inner] at ((o * len + r) * inner + c). With MAP false a
// kernel reads accumulators (partials of an earlier pass) instead of mapped elements, with
// POST false it writes accumulators. No float atomics anywhere: results are deterministic.
#pragma once
#include "loom_argmax.cuh"  // max/min/argmax rules, shared with the CPU
#include "loom_cast.cuh"

struct loom_reduce_params {
  double d0;        // divisor (mean, var)
  double d1;        // count (var's first pass)
  double d2;        // p (norm_p)
  const void* aux;  // var: the mean of each output, acc_t[outputs]
};

// A scalar kernel parameter stored in the low bytes of a 64-bit slot.
template <typename T>
__device__ __forceinline__ T loom_scalar_bits(unsigned long long w) {
  T t;
  memcpy(&t, &w, sizeof(T));
  return t;
}

template <bool C, typename A, typename B> struct loom_if { typedef A type; };
template <typename A, typename B> struct loom_if<false, A, B> { typedef B type; };

// Shuffles of any trivially copyable accumulator, one 32-bit word at a time. The union has
// its own (empty) constructor: a member with a default constructor (loom_complex) would
// delete the implicit one.
template <typename T>
__device__ __forceinline__ T loom_shfl_down(T v, int delta) {
  union U { T t; unsigned w[(sizeof(T) + 3) / 4]; __device__ U() {} } u;
  u.t = v;
#pragma unroll
  for (int k = 0; k < (int)((sizeof(T) + 3) / 4); ++k) u.w[k] = __shfl_down_sync(0xffffffffu, u.w[k], delta);
  return u.t;
}
template <typename T>
__device__ __forceinline__ T loom_shfl_up(T v, int delta) {
  union U { T t; unsigned w[(sizeof(T) + 3) / 4]; __device__ U() {} } u;
  u.t = v;
#pragma unroll
  for (int k = 0; k < (int)((sizeof(T) + 3) / 4); ++k) u.w[k] = __shfl_up_sync(0xffffffffu, u.w[k], delta);
  return u.t;
}

// Block-wide reduction (blockDim.x a multiple of 32); the result is valid in thread 0.
template <typename Op>
__device__ __forceinline__ typename Op::acc_t loom_block_reduce(typename Op::acc_t v) {
  typedef typename Op::acc_t A;
  __shared__ A warp_vals[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) v = Op::reduce(v, loom_shfl_down(v, d));
  __syncthreads();  // warp_vals may still be read by a previous call
  if (lane == 0) warp_vals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < nwarps ? warp_vals[lane] : Op::identity();
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) v = Op::reduce(v, loom_shfl_down(v, d));
  }
  return v;
}

// Element k of `base`: a mapped input element (MAP) or an accumulator of an earlier pass.
template <typename Op, bool MAP>
__device__ __forceinline__ typename Op::acc_t loom_fetch(const char* base, long long k, long long i, long long j,
                                                         const typename Op::params_t& p) {
  if constexpr (MAP) {
    typedef typename Op::in_t T;
    if constexpr (Op::fused) {
      const long long at = static_cast<long long>(reinterpret_cast<unsigned long long>(base) / sizeof(T)) + k;
      return Op::map(loom_widen<T>(Op::element(at, p)), i, j, p);
    }
    else return Op::map(loom_widen<T>(loom_load<T>(reinterpret_cast<const T*>(base) + k)), i, j, p);
  } else {
    return reinterpret_cast<const typename Op::acc_t*>(base)[k];
  }
}

// Fused: the VEC elements at segment offset k computed into a 16-byte vector's place.
template <typename Op, int VEC>
__device__ __forceinline__ void loom_elements(uint4& raw, const char* seg, long long k,
                                              const typename Op::params_t& p) {
  typedef typename Op::in_t T;
  T* e = reinterpret_cast<T*>(&raw);
  const long long at = static_cast<long long>(reinterpret_cast<unsigned long long>(seg) / sizeof(T)) + k;
#pragma unroll
  for (int q = 0; q < VEC; ++q) e[q] = Op::element(at + q, p);
}

template <typename Op, bool MAP>
struct loom_elem {
  typedef typename loom_if<MAP, typename Op::in_t, typename Op::acc_t>::type type;
};

// This thread's share of a block's contiguous segment of n elements (i0: index of its
// first element along the reduction). Mapped inputs use 16-byte loads, several in flight,
// each lane of them into its own accumulator (16 in all: accuracy and ILP).
template <typename Op, bool MAP>
__device__ __forceinline__ typename Op::acc_t loom_segment(const char* seg, long long n, long long i0, long long j,
                                                           const typename Op::params_t& p) {
  typedef typename Op::acc_t A;
  A acc = Op::identity();
  const long long tid = threadIdx.x, step = blockDim.x;
  if constexpr (MAP) {
    typedef typename Op::in_t T;
    constexpr int S = sizeof(T), VEC = 16 / S, U = VEC >= 16 ? 1 : 16 / VEC;
    const unsigned long long addr = reinterpret_cast<unsigned long long>(seg);
    long long head = (addr % S) ? n : static_cast<long long>(((16 - (addr & 15)) & 15) / S);
    if (head > n) head = n;
    for (long long k = tid; k < head; k += step) acc = Op::reduce(acc, loom_fetch<Op, true>(seg, k, i0 + k, j, p));
    const uint4* __restrict__ vp = reinterpret_cast<const uint4*>(seg + head * S);
    const long long nvec = (n - head) / VEC;
    A lanes[U * VEC];
#pragma unroll
    for (int k = 0; k < U * VEC; ++k) lanes[k] = Op::identity();
    long long v = tid;
    for (; v + (U - 1) * step < nvec; v += U * step) {
      uint4 raw[U];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        if constexpr (Op::fused) loom_elements<Op, VEC>(raw[u], seg, head + (v + u * step) * VEC, p);
        else raw[u] = vp[v + u * step];
      }
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const T* e = reinterpret_cast<const T*>(&raw[u]);
        const long long idx = i0 + head + (v + u * step) * VEC;
#pragma unroll
        for (int k = 0; k < VEC; ++k)
          lanes[u * VEC + k] = Op::reduce(lanes[u * VEC + k], Op::map(loom_widen<T>(loom_load<T>(e + k)), idx + k, j, p));
      }
    }
    for (; v < nvec; v += step) {
      uint4 raw;
      if constexpr (Op::fused) loom_elements<Op, VEC>(raw, seg, head + v * VEC, p);
      else raw = vp[v];
      const T* e = reinterpret_cast<const T*>(&raw);
      const long long idx = i0 + head + v * VEC;
#pragma unroll
      for (int k = 0; k < VEC; ++k) lanes[k] = Op::reduce(lanes[k], Op::map(loom_widen<T>(loom_load<T>(e + k)), idx + k, j, p));
    }
    for (long long k = head + nvec * VEC + tid; k < n; k += step)
      acc = Op::reduce(acc, loom_fetch<Op, true>(seg, k, i0 + k, j, p));
#pragma unroll
    for (int w = U * VEC / 2; w > 0; w /= 2)
#pragma unroll
      for (int k = 0; k < w; ++k) lanes[k] = Op::reduce(lanes[k], lanes[k + w]);
    acc = Op::reduce(acc, lanes[0]);
  } else {
    for (long long k = tid; k < n; k += step) acc = Op::reduce(acc, loom_fetch<Op, false>(seg, k, i0 + k, j, p));
  }
  return acc;
}

// One block per segment (row r, chunk c of chunk_len elements), grid-stride over the
// rows * chunks segments. POST: out[row] = post(row's value) (chunks must be 1); else
// out[row * chunks + c] = the chunk's accumulator.
template <typename Op, bool MAP, bool POST>
__global__ void __launch_bounds__(256) loom_reduce_block(const char* __restrict__ in, void* __restrict__ out,
                                                          long long rows, long long len, long long chunks,
                                                          long long chunk_len, typename Op::params_t p) {
  typedef typename Op::acc_t A;
  typedef typename loom_elem<Op, MAP>::type E;
  for (long long seg = blockIdx.x; seg < rows * chunks; seg += gridDim.x) {
    const long long row = seg / chunks, start = (seg - row * chunks) * chunk_len;
    long long n = len - start;
    if (n > chunk_len) n = chunk_len;
    if (n < 0) n = 0;
    const char* base = in + (row * len + start) * static_cast<long long>(sizeof(E));
    A v = loom_block_reduce<Op>(loom_segment<Op, MAP>(base, n, start, row, p));
    if (threadIdx.x == 0) {
      if constexpr (POST) reinterpret_cast<typename Op::out_t*>(out)[row] = Op::post(v, row, p);
      else reinterpret_cast<A*>(out)[seg] = v;
    }
  }
}

// One warp per row for short rows (mapped input, final values).
template <typename Op>
__global__ void __launch_bounds__(256) loom_reduce_warp(const char* __restrict__ in, void* __restrict__ out,
                                                         long long rows, long long len, typename Op::params_t p) {
  typedef typename Op::acc_t A;
  const int lane = threadIdx.x & 31;
  const long long nwarps = (static_cast<long long>(gridDim.x) * blockDim.x) >> 5;
  for (long long row = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; row < rows; row += nwarps) {
    const char* base = in + row * len * static_cast<long long>(sizeof(typename Op::in_t));
    A acc = Op::identity();
    for (long long k = lane; k < len; k += 32) acc = Op::reduce(acc, loom_fetch<Op, true>(base, k, k, row, p));
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) acc = Op::reduce(acc, loom_shfl_down(acc, d));
    if (lane == 0) reinterpret_cast<typename Op::out_t*>(out)[row] = Op::post(acc, row, p);
  }
}

// Reduction over a strided axis: one thread per (outer o, chunk c, column i), columns
// fastest so that a warp's loads are coalesced; four accumulators per thread. POST: out[o *
// inner + i] (chunks must be 1); else out[(o * chunks + c) * inner + i] = accumulator.
template <typename Op, bool MAP, bool POST>
__global__ void __launch_bounds__(256) loom_reduce_cols(const char* __restrict__ in, void* __restrict__ out,
                                                         long long outer, long long len, long long inner,
                                                         long long chunks, long long chunk_len, typename Op::params_t p) {
  typedef typename Op::acc_t A;
  const long long total = outer * chunks * inner;
  for (long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; t < total;
       t += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long i = t % inner, oc = t / inner, c = oc % chunks, o = oc / chunks;
    const long long r0 = c * chunk_len, j = o * inner + i;
    long long r1 = r0 + chunk_len;
    if (r1 > len) r1 = len;
    A a0 = Op::identity(), a1 = a0, a2 = a0, a3 = a0;
    long long r = r0;
    for (; r + 3 < r1; r += 4) {
      const long long k = (o * len + r) * inner + i;
      a0 = Op::reduce(a0, loom_fetch<Op, MAP>(in, k, r, j, p));
      a1 = Op::reduce(a1, loom_fetch<Op, MAP>(in, k + inner, r + 1, j, p));
      a2 = Op::reduce(a2, loom_fetch<Op, MAP>(in, k + 2 * inner, r + 2, j, p));
      a3 = Op::reduce(a3, loom_fetch<Op, MAP>(in, k + 3 * inner, r + 3, j, p));
    }
    for (; r < r1; ++r) a0 = Op::reduce(a0, loom_fetch<Op, MAP>(in, (o * len + r) * inner + i, r, j, p));
    const A acc = Op::reduce(Op::reduce(a0, a1), Op::reduce(a2, a3));
    if constexpr (POST) reinterpret_cast<typename Op::out_t*>(out)[j] = Op::post(acc, j, p);
    else reinterpret_cast<A*>(out)[t] = acc;
  }
}

// ---- scans (cumsum, cumprod) -------------------------------------------------------------
#define LOOM_SCAN_ITEMS 4

// Inclusive scan along contiguous rows: one block per (row, chunk) segment, tiles of
// blockDim.x * LOOM_SCAN_ITEMS elements (each thread a run of consecutive ones), a
// warp-shuffle scan of the threads' totals, and a carry across tiles. `carries` (may be
// null) holds the inclusive prefix of chunk totals: chunk c starts from carries[seg - 1].
// POST writes out_t values, else accumulators (the pass that scans chunk totals in place).
template <typename Op, bool MAP, bool POST>
__global__ void __launch_bounds__(256) loom_scan_rows(const char* in, void* out, long long rows, long long len,
                                                       long long chunks, long long chunk_len, const void* carries,
                                                       typename Op::params_t p) {
  typedef typename Op::acc_t A;
  __shared__ A warp_tot[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
  for (long long seg = blockIdx.x; seg < rows * chunks; seg += gridDim.x) {
    const long long row = seg / chunks, c = seg - row * chunks, start = c * chunk_len;
    long long n = len - start;
    if (n > chunk_len) n = chunk_len;
    A carry = (carries && c > 0) ? reinterpret_cast<const A*>(carries)[seg - 1] : Op::identity();
    const long long base = row * len + start;
    for (long long tile = 0; tile < n; tile += static_cast<long long>(blockDim.x) * LOOM_SCAN_ITEMS) {
      const long long first = tile + static_cast<long long>(threadIdx.x) * LOOM_SCAN_ITEMS;
      A v[LOOM_SCAN_ITEMS];
      A run = Op::identity();
#pragma unroll
      for (int m = 0; m < LOOM_SCAN_ITEMS; ++m) {
        if (first + m < n) run = Op::reduce(run, loom_fetch<Op, MAP>(in, base + first + m, start + first + m, row, p));
        v[m] = run;
      }
      A s = run;  // inclusive scan of the thread totals within the warp
#pragma unroll
      for (int d = 1; d < 32; d <<= 1) {
        const A y = loom_shfl_up(s, d);
        if (lane >= d) s = Op::reduce(y, s);
      }
      A excl = loom_shfl_up(s, 1);
      if (lane == 0) excl = Op::identity();
      if (lane == 31) warp_tot[warp] = s;
      __syncthreads();
      if (warp == 0) {
        A w = lane < nwarps ? warp_tot[lane] : Op::identity();
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
          const A y = loom_shfl_up(w, d);
          if (lane >= d) w = Op::reduce(y, w);
        }
        if (lane < nwarps) warp_tot[lane] = w;
      }
      __syncthreads();
      A prefix = carry;
      if (warp > 0) prefix = Op::reduce(prefix, warp_tot[warp - 1]);
      prefix = Op::reduce(prefix, excl);
#pragma unroll
      for (int m = 0; m < LOOM_SCAN_ITEMS; ++m) {
        if (first + m < n) {
          const A r = Op::reduce(prefix, v[m]);
          if constexpr (POST) reinterpret_cast<typename Op::out_t*>(out)[base + first + m] = Op::post(r, row, p);
          else reinterpret_cast<A*>(out)[base + first + m] = r;
        }
      }
      carry = Op::reduce(carry, warp_tot[nwarps - 1]);
      __syncthreads();  // warp_tot is rewritten by the next tile
    }
  }
}

// Inclusive scan along a strided axis: one thread per (outer, column), coalesced across columns.
template <typename Op>
__global__ void __launch_bounds__(256) loom_scan_cols(const char* __restrict__ in, void* __restrict__ out,
                                                       long long outer, long long len, long long inner,
                                                       typename Op::params_t p) {
  typedef typename Op::acc_t A;
  for (long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; t < outer * inner;
       t += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long o = t / inner, i = t - o * inner;
    A acc = Op::identity();
    for (long long r = 0; r < len; ++r) {
      const long long k = (o * len + r) * inner + i;
      acc = Op::reduce(acc, loom_fetch<Op, true>(in, k, r, t, p));
      reinterpret_cast<typename Op::out_t*>(out)[k] = Op::post(acc, t, p);
    }
  }
}
