// Tiled batched matrix product for integer and bool dtypes (cuBLAS has no integer GEMM
// with NumPy's wraparound), and for small float32/float64 products, where one launch of
// this kernel beats cuBLAS's heuristics (see backend/cuda/linalg.cpp). Integers accumulate
// in unsigned 32/64-bit arithmetic, where overflow wraps as NumPy's does; bool is the or of
// ands; floats accumulate in their own type, in order of k. Operands are read through
// element strides, so transposed and broadcast (stride 0) operands need no copy.
// Self-contained: NVRTC gets no include path.
#pragma once

#define LOOM_MM_TILE 16

template <typename T> struct loom_mm_acc { typedef unsigned int type; };
template <> struct loom_mm_acc<long long> { typedef unsigned long long type; };
template <> struct loom_mm_acc<unsigned long long> { typedef unsigned long long type; };
template <> struct loom_mm_acc<float> { typedef float type; };
template <> struct loom_mm_acc<double> { typedef double type; };

template <typename T, typename Acc>
__device__ __forceinline__ Acc loom_mm_load(T v) { return (Acc)v; }
template <typename T, typename Acc>
__device__ __forceinline__ Acc loom_mm_step(Acc acc, Acc x, Acc y) { return acc + x * y; }
template <>
__device__ __forceinline__ unsigned int loom_mm_step<bool, unsigned int>(unsigned int acc,
                                                                         unsigned int x, unsigned int y) {
  return acc | (x & y);
}
template <typename T, typename Acc>
__device__ __forceinline__ T loom_mm_store(Acc acc) { return (T)acc; }
template <>
__device__ __forceinline__ bool loom_mm_store<bool, unsigned int>(unsigned int acc) { return acc != 0; }

// Sizes and element strides (host mirror: MatmulParams in backend/cuda/linalg.cpp).
struct loom_mm_params {
  long long m, n, k, batch;
  long long a_sb, a_sr, a_sc;
  long long b_sb, b_sr, b_sc;
};

// c (batch, m, n) contiguous. 1-d blocks of TILE*TILE threads, each block computing
// TILE x TILE output tiles in a grid-stride loop over (batch, tile row, tile column).
template <typename T>
__global__ void __launch_bounds__(LOOM_MM_TILE * LOOM_MM_TILE)
loom_matmul_tiled(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c, loom_mm_params p) {
  typedef typename loom_mm_acc<T>::type Acc;
  __shared__ Acc ta[LOOM_MM_TILE][LOOM_MM_TILE + 1];
  __shared__ Acc tb[LOOM_MM_TILE][LOOM_MM_TILE + 1];
  const int tx = threadIdx.x % LOOM_MM_TILE, ty = threadIdx.x / LOOM_MM_TILE;
  const long long tiles_m = (p.m + LOOM_MM_TILE - 1) / LOOM_MM_TILE;
  const long long tiles_n = (p.n + LOOM_MM_TILE - 1) / LOOM_MM_TILE;
  const long long total = p.batch * tiles_m * tiles_n;
  for (long long t = blockIdx.x; t < total; t += gridDim.x) {
    const long long z = t / (tiles_m * tiles_n), rem = t % (tiles_m * tiles_n);
    const long long row = (rem / tiles_n) * LOOM_MM_TILE + ty;
    const long long col = (rem % tiles_n) * LOOM_MM_TILE + tx;
    const T* A = a + z * p.a_sb;
    const T* B = b + z * p.b_sb;
    Acc acc = 0;
    for (long long k0 = 0; k0 < p.k; k0 += LOOM_MM_TILE) {
      const long long ka = k0 + tx, kb = k0 + ty;
      ta[ty][tx] = (row < p.m && ka < p.k) ? loom_mm_load<T, Acc>(A[row * p.a_sr + ka * p.a_sc]) : Acc(0);
      tb[ty][tx] = (kb < p.k && col < p.n) ? loom_mm_load<T, Acc>(B[kb * p.b_sr + col * p.b_sc]) : Acc(0);
      __syncthreads();
#pragma unroll
      for (int q = 0; q < LOOM_MM_TILE; ++q) acc = loom_mm_step<T, Acc>(acc, ta[ty][q], tb[q][tx]);
      __syncthreads();
    }
    if (row < p.m && col < p.n) c[(z * p.m + row) * p.n + col] = loom_mm_store<T, Acc>(acc);
  }
}
