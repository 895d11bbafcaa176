// Device code of select_ranks (backend/sorting.h): the elements at given ranks of the
// stable ascending order (NaN last) of a 1-d array, found by radix selection instead of a
// sort. MSB first over the keys of loom_sorting.cuh, 8 bits a pass:
//   loom_select_init    one block: each rank's state (empty prefix, remaining rank = rank);
//   loom_select_hist    grid-stride: the 256-bin histogram of the next digit of the elements
//                       whose key matches a group's prefix (shared memory, then atomics into
//                       the global histogram);
//   loom_select_scan    one block: per rank, the digit bucket holding its remaining rank;
//                       its prefix gains the digit and the rank drops by the elements of
//                       smaller digits; ranks whose prefixes agree form one group (one
//                       histogram); the histogram is zeroed for the next pass;
//   loom_select_finish  one block: out = the element each full key stands for;
// so the passes need no host synchronisation. A float key that several bit patterns share
// (+-0.0, the NaNs) leaves rank j among its holders, which a stable sort orders by index:
// loom_select_chunk_counts counts them per chunk of the array and loom_select_resolve (one
// block per rank) walks to the j-th in index order and copies it, so out is bit for bit
// what a stable sort puts at each rank.
#pragma once
#include "loom_sorting.cuh"

#define LOOM_SELECT_MAX_RANKS 32
#define LOOM_SELECT_BINS 256

// The selection's state in device memory (host code sizes it, hence outside the guard).
struct loom_select_state {
  unsigned long long prefix[LOOM_SELECT_MAX_RANKS];   // key bits found so far (the top ones)
  unsigned long long rem[LOOM_SELECT_MAX_RANKS];      // rank among the elements matching prefix
  unsigned long long gprefix[LOOM_SELECT_MAX_RANKS];  // each group's prefix (all distinct)
  int group[LOOM_SELECT_MAX_RANKS];                   // each rank's group
  int resolve[LOOM_SELECT_MAX_RANKS];                 // 1: its key is shared, see above
  int groups;
  int any_resolve;
};

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

// Inclusive prefix sum of v over the block (blockDim.x a multiple of 32, at most 1024;
// sh: 32 entries); *total gets the block's sum. Every thread of the block must call it;
// sh is free again on return.
__device__ __forceinline__ unsigned long long loom_block_scan(unsigned long long v, unsigned long long* sh,
                                                              unsigned long long* total) {
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
#pragma unroll
  for (unsigned off = 1; off < 32; off <<= 1) {
    const unsigned long long y = __shfl_up_sync(0xffffffffu, v, off);
    if (lane >= off) v += y;
  }
  if (lane == 31) sh[warp] = v;  // each warp's sum
  __syncthreads();
  unsigned long long before = 0, all = 0;
  for (unsigned w = 0; w < warps; ++w) {
    const unsigned long long s = sh[w];
    if (w < warp) before += s;
    all += s;
  }
  *total = all;
  __syncthreads();
  return v + before;
}

// One block of >= LOOM_SELECT_MAX_RANKS threads. Ranks are clamped to [0, n).
__global__ void loom_select_init(const long long* __restrict__ ranks, int m, long long n,
                                 loom_select_state* st, unsigned long long* hist) {
  const int t = threadIdx.x;
  if (t < m) {
    long long r = ranks[t];
    r = r < 0 ? 0 : (r >= n ? n - 1 : r);
    st->prefix[t] = 0;
    st->rem[t] = static_cast<unsigned long long>(r);
    st->gprefix[t] = 0;
    st->group[t] = 0;
    st->resolve[t] = 0;
  }
  if (t == 0) {
    st->groups = 1;
    st->any_resolve = 0;
  }
  for (int i = t; i < m * LOOM_SELECT_BINS; i += blockDim.x) hist[i] = 0;
}

// hist[g * 256 + d] += #{i : key(x[i]) & mask == gprefix[g], digit d = (key >> shift) & 255}.
// Dynamic shared memory: groups * 256 unsigned counts (the host gives room for m groups).
// A thread adds runs of equal bins at once, so data with few distinct keys (every element
// in one bucket) costs few shared atomics.
template <typename T>
__global__ void loom_select_hist(const typename loom_key_traits<T>::bits* __restrict__ x, long long n,
                                 const loom_select_state* __restrict__ st, unsigned long long* __restrict__ hist,
                                 unsigned long long mask, int shift) {
  typedef typename loom_key_traits<T>::bits U;
  extern __shared__ unsigned int loom_select_counts[];
  __shared__ U gp[LOOM_SELECT_MAX_RANKS];
  const int groups = st->groups;
  const int bins = groups * LOOM_SELECT_BINS;
  for (int i = threadIdx.x; i < bins; i += blockDim.x) loom_select_counts[i] = 0;
  if (threadIdx.x < groups) gp[threadIdx.x] = static_cast<U>(st->gprefix[threadIdx.x]);
  __syncthreads();

  const U msk = static_cast<U>(mask);
  const unsigned kNone = 0xffffffffu;
  unsigned run_bin = kNone, run = 0;
  const unsigned long long count = static_cast<unsigned long long>(n);
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  // Four loads in flight per thread, each coalesced across the warp.
#pragma unroll 1
  for (unsigned long long base = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
       base < count; base += 4 * stride) {
    U v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      const unsigned long long i = base + u * stride;
      v[u] = i < count ? x[i] : U(0);
    }
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      unsigned bin = kNone;
      if (base + u * stride < count) {
        const U k = loom_key_traits<T>::key(v[u]);
        for (int g = 0; g < groups; ++g)
          if (static_cast<U>(k & msk) == gp[g]) {
            bin = static_cast<unsigned>(g) * LOOM_SELECT_BINS + static_cast<unsigned>((k >> shift) & 255u);
            break;
          }
      }
      if (bin != run_bin) {
        if (run != 0) atomicAdd(&loom_select_counts[run_bin], run);
        run_bin = bin;
        run = 0;
      }
      if (bin != kNone) ++run;
    }
  }
  if (run != 0) atomicAdd(&loom_select_counts[run_bin], run);
  __syncthreads();
  for (int i = threadIdx.x; i < bins; i += blockDim.x)
    if (loom_select_counts[i] != 0) atomicAdd(&hist[i], static_cast<unsigned long long>(loom_select_counts[i]));
}

// One block of LOOM_SELECT_BINS threads (thread d reads bin d). `shift`: the pass's digit.
// Each group's histogram is scanned once; each of its ranks moves to the bucket holding it.
// The ranks' state is staged in shared memory, so the one block waits on few global loads.
__global__ void loom_select_scan(loom_select_state* st, unsigned long long* hist, int m, int shift) {
  __shared__ unsigned long long sh[32];
  __shared__ unsigned long long prefix[LOOM_SELECT_MAX_RANKS], rem[LOOM_SELECT_MAX_RANKS],
      next_rem[LOOM_SELECT_MAX_RANKS];  // rem[] stays as read: every thread tests it
  __shared__ int group[LOOM_SELECT_MAX_RANKS];
  const int t = threadIdx.x;
  const int groups = st->groups;
  if (t < m) {
    prefix[t] = st->prefix[t];
    rem[t] = st->rem[t];
    group[t] = st->group[t];
  }
  __syncthreads();
  for (int g = 0; g < groups; ++g) {
    const unsigned long long c = hist[g * LOOM_SELECT_BINS + t];
    unsigned long long total;
    const unsigned long long incl = loom_block_scan(c, sh, &total);
    const unsigned long long excl = incl - c;
    for (int r = 0; r < m; ++r) {
      const unsigned long long j = rem[r];
      // exactly one thread per rank of the group: j < the group's count
      if (group[r] == g && excl <= j && j < incl) {
        prefix[r] |= static_cast<unsigned long long>(t) << shift;
        next_rem[r] = j - excl;
      }
    }
  }
  __syncthreads();  // every rank found its bucket
  if (t == 0) {  // ranks with equal prefixes share a group (and a histogram)
    unsigned long long gprefix[LOOM_SELECT_MAX_RANKS];
    int count = 0;
    for (int r = 0; r < m; ++r) {
      int g = -1;
      for (int q = 0; q < count; ++q)
        if (gprefix[q] == prefix[r]) {
          g = q;
          break;
        }
      if (g < 0) {
        g = count++;
        gprefix[g] = prefix[r];
        st->gprefix[g] = prefix[r];
      }
      st->group[r] = g;
      st->prefix[r] = prefix[r];
      st->rem[r] = next_rem[r];
    }
    st->groups = count;
  }
  for (int i = t; i < m * LOOM_SELECT_BINS; i += blockDim.x) hist[i] = 0;  // every read is done
}

// One block. out[r] = the element key prefix[r] stands for, unless that key is shared.
template <typename T>
__global__ void loom_select_finish(loom_select_state* st, int m, typename loom_key_traits<T>::bits* __restrict__ out) {
  typedef typename loom_key_traits<T>::bits U;
  const U zero_key = static_cast<U>(U(1) << (8 * sizeof(U) - 1)), nan_key = static_cast<U>(~U(0));
  for (int r = threadIdx.x; r < m; r += blockDim.x) {
    const U k = static_cast<U>(st->prefix[r]);
    if (loom_key_traits<T>::floating && (k == zero_key || k == nan_key)) {
      st->resolve[r] = 1;
      st->any_resolve = 1;
    } else {
      out[r] = loom_key_traits<T>::bits_of(k);
    }
  }
}

// Block b counts the zeros (counts[b]) and NaNs (counts[chunks + b]) of
// x[b * chunk, (b + 1) * chunk); chunks = gridDim.x, chunk < 2^32. Nothing to do unless a
// rank needs resolving.
template <typename T>
__global__ void loom_select_chunk_counts(const typename loom_key_traits<T>::bits* __restrict__ x, long long n,
                                         const loom_select_state* __restrict__ st, long long chunk,
                                         unsigned long long* __restrict__ counts) {
  typedef typename loom_key_traits<T>::bits U;
  if (!st->any_resolve) return;
  __shared__ unsigned int c[2];
  if (threadIdx.x < 2) c[threadIdx.x] = 0;
  __syncthreads();
  const U zero_key = static_cast<U>(U(1) << (8 * sizeof(U) - 1)), nan_key = static_cast<U>(~U(0));
  const long long begin = static_cast<long long>(blockIdx.x) * chunk;
  const long long end = begin + chunk < n ? begin + chunk : n;
  unsigned zeros = 0, nans = 0;
  for (long long i = begin + threadIdx.x; i < end; i += blockDim.x) {
    const U k = loom_key_traits<T>::key(x[i]);
    zeros += k == zero_key ? 1u : 0u;
    nans += k == nan_key ? 1u : 0u;
  }
  atomicAdd(&c[0], zeros);
  atomicAdd(&c[1], nans);
  __syncthreads();
  if (threadIdx.x == 0) {
    counts[blockIdx.x] = c[0];
    counts[gridDim.x + blockIdx.x] = c[1];
  }
}

// Block r (blockDim.x <= 1024): when rank r's key is shared, out[r] = the rem[r]-th element
// (0-based, in index order) holding that key: first the chunk that holds it (a scan of
// the chunk counts), then the element (a scan of that chunk's flags).
template <typename T>
__global__ void loom_select_resolve(const typename loom_key_traits<T>::bits* __restrict__ x, long long n,
                                    const loom_select_state* __restrict__ st, const unsigned long long* __restrict__ counts,
                                    int chunks, long long chunk, typename loom_key_traits<T>::bits* __restrict__ out) {
  typedef typename loom_key_traits<T>::bits U;
  __shared__ unsigned long long sh[32];
  __shared__ long long found_chunk;
  __shared__ unsigned long long found_rank;
  const int r = blockIdx.x;
  if (!st->resolve[r]) return;
  const U k = static_cast<U>(st->prefix[r]);
  const unsigned long long* cnt = counts + (k == static_cast<U>(~U(0)) ? chunks : 0);
  unsigned long long j = st->rem[r];
  if (threadIdx.x == 0) found_chunk = -1;
  __syncthreads();
  for (int base = 0; base < chunks; base += blockDim.x) {
    const int b = base + static_cast<int>(threadIdx.x);
    const unsigned long long c = b < chunks ? cnt[b] : 0ull;
    unsigned long long total;
    const unsigned long long incl = loom_block_scan(c, sh, &total);
    if (incl - c <= j && j < incl) {
      found_chunk = b;
      found_rank = j - (incl - c);
    }
    __syncthreads();
    if (found_chunk >= 0) break;  // the same value in every thread
    j -= total;
  }
  if (found_chunk < 0) return;  // not reached: the counts hold rem[r] + 1 such elements
  j = found_rank;
  const long long begin = found_chunk * chunk;
  const long long end = begin + chunk < n ? begin + chunk : n;
  for (long long base = begin; base < end; base += blockDim.x) {
    const long long i = base + threadIdx.x;
    const unsigned long long f = (i < end && loom_key_traits<T>::key(x[i]) == k) ? 1ull : 0ull;
    unsigned long long total;
    const unsigned long long incl = loom_block_scan(f, sh, &total);
    if (f != 0 && incl - 1 == j) out[r] = x[i];
    if (j < total) break;  // the same in every thread
    j -= total;
  }
}

#endif  // __CUDACC__ || __CUDACC_RTC__
