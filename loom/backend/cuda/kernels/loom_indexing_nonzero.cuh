// nonzero on the GPU in three launches: each block counts the nonzero elements of its tile,
// one block scans the tile counts into starting positions (and the total), and each block
// writes the indices of its tile's nonzero elements in C order. T is an unsigned integer of
// the element's size; F marks float types, whose sign bit is ignored (-0.0 is zero).
#pragma once
#include "loom_cast.cuh"

#define LOOM_NZ_THREADS 256
#define LOOM_NZ_ITEMS 16
#define LOOM_NZ_TILE (LOOM_NZ_THREADS * LOOM_NZ_ITEMS)
#define LOOM_NZ_SCAN_THREADS 1024

template <typename T, bool F>
LOOM_DEV bool loom_nz(T v) {
  if constexpr (F) return (v & static_cast<T>(~(static_cast<T>(1) << (sizeof(T) * 8 - 1)))) != 0;
  else return v != 0;
}

// Exclusive prefix sum over the block (blockDim.x a multiple of 32, every thread calls it);
// *total gets the block's sum.
template <typename I>
LOOM_DEV I loom_block_exclusive_scan(I v, I* total) {
  __shared__ I sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
  I x = v;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const I y = __shfl_up_sync(0xffffffffu, x, o);
    if (lane >= o) x += y;
  }
  if (lane == 31) sums[warp] = x;
  __syncthreads();
  if (warp == 0) {
    I s = lane < nwarps ? sums[lane] : I(0);
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
      const I y = __shfl_up_sync(0xffffffffu, s, o);
      if (lane >= o) s += y;
    }
    sums[lane] = s;
  }
  __syncthreads();
  const I before = warp > 0 ? sums[warp - 1] : I(0);
  *total = sums[nwarps - 1];
  __syncthreads();  // sums is reused by the next call
  return before + x - v;
}

// Launched with LOOM_NZ_THREADS threads and ceil(n / LOOM_NZ_TILE) blocks.
template <typename T, bool F>
__global__ void loom_nonzero_count(const T* __restrict__ x, long long n, long long* __restrict__ counts) {
  const long long tile = static_cast<long long>(blockIdx.x) * LOOM_NZ_TILE;
  int c = 0;
#pragma unroll 4
  for (int r = 0; r < LOOM_NZ_ITEMS; ++r) {
    const long long i = tile + r * LOOM_NZ_THREADS + threadIdx.x;
    if (i < n && loom_nz<T, F>(x[i])) ++c;
  }
  int total;
  loom_block_exclusive_scan<int>(c, &total);
  if (threadIdx.x == 0) counts[blockIdx.x] = total;
}

// One block of LOOM_NZ_SCAN_THREADS: counts[i] becomes the exclusive prefix sum; *total the sum.
__global__ void loom_nonzero_scan(long long* __restrict__ counts, long long nblocks, long long* __restrict__ total) {
  long long carry = 0;
#pragma unroll 1
  for (long long base = 0; base < nblocks; base += blockDim.x) {
    const long long i = base + threadIdx.x;
    const long long v = i < nblocks ? counts[i] : 0;
    long long t;
    const long long ex = loom_block_exclusive_scan<long long>(v, &t);
    if (i < nblocks) counts[i] = carry + ex;
    carry += t;
  }
  if (threadIdx.x == 0) *total = carry;
}

struct loom_nz_shape {  // mirrors NzShape of backend/cuda/indexing_nonzero.cpp
  int ndim;
  long long shape[LOOM_MAX_DIMS];
};

// Same grid as loom_nonzero_count; out is (ndim, count) int64, row d holds axis d's indices.
template <typename T, bool F>
__global__ void loom_nonzero_write(const T* __restrict__ x, long long n, const long long* __restrict__ starts,
                                   long long* __restrict__ out, long long count, const loom_nz_shape s) {
  const long long tile = static_cast<long long>(blockIdx.x) * LOOM_NZ_TILE;
  long long pos = starts[blockIdx.x];
#pragma unroll 1
  for (int r = 0; r < LOOM_NZ_ITEMS; ++r) {
    const long long i = tile + r * LOOM_NZ_THREADS + threadIdx.x;
    const int f = (i < n && loom_nz<T, F>(x[i])) ? 1 : 0;
    int t;
    const int ex = loom_block_exclusive_scan<int>(f, &t);
    if (f) {
      unsigned long long q = static_cast<unsigned long long>(i);
      const long long p = pos + ex;
#pragma unroll 1
      for (int d = s.ndim - 1; d >= 0; --d) {
        const unsigned long long extent = static_cast<unsigned long long>(s.shape[d]);
        const unsigned long long nq = q / extent;
        out[d * count + p] = static_cast<long long>(q - nq * extent);
        q = nq;
      }
    }
    pos += t;
  }
}
