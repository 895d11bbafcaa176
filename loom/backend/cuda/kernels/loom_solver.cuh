// The small kernels around cuSOLVER's factorizations (backend/cuda/linalg_decomp*.cpp):
// cuSOLVER works on column-major matrices, loom's are row-major, and these move between
// the two where the transposition trick alone cannot. Self-contained: NVRTC gets no
// include path.
#pragma once

// dst (batch, cols, rows) = src (batch, rows, cols) transposed; `total` = batch*rows*cols.
// One thread per destination element (coalesced writes; the reads stride, which is cheap
// next to the factorization these serve).
template <typename T>
__global__ void loom_transpose_stack(const T* __restrict__ src, T* __restrict__ dst, long long rows, long long cols,
                                     long long total) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total;
       i += (long long)gridDim.x * blockDim.x) {
    const long long per = rows * cols, b = i / per, rem = i - b * per;
    const long long c = rem / rows, r = rem - c * rows;  // dst[b][c][r]
    dst[i] = src[b * per + r * cols + c];
  }
}

// Zeroes the strict upper triangle of each row-major n x n matrix (what potrf leaves of the
// input above a Cholesky factor L).
template <typename T>
__global__ void loom_zero_upper(T* m, long long n, long long total) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total;
       i += (long long)gridDim.x * blockDim.x) {
    const long long rem = i % (n * n), r = rem / n, c = rem - r * n;
    if (c > r) m[i] = T(0);
  }
}

// sign and log|det| of each matrix from its LU factors (getrf's, 1-based pivots P): the
// product of U's diagonal, one sign flip per row swap; an exact zero pivot gives NumPy's
// (0, -inf). One thread per matrix: the loop is short next to the factorization.
template <typename T, typename P>
__global__ void loom_slogdet_lu(const T* __restrict__ lu, const P* __restrict__ pivots, T* sign, T* logabs,
                                long long n, long long batches) {
  for (long long b = blockIdx.x * (long long)blockDim.x + threadIdx.x; b < batches;
       b += (long long)gridDim.x * blockDim.x) {
    const T* m = lu + b * n * n;
    const P* p = pivots + b * n;
    T s = T(1), l = T(0);
    bool zero = false;
    for (long long i = 0; i < n; ++i) {
      const T d = m[i * n + i];
      if (d == T(0)) zero = true;
      if (d < T(0)) s = -s;
      if ((long long)p[i] != i + 1) s = -s;
      l += log(fabs(d));
    }
    sign[b] = zero ? T(0) : s;
    logabs[b] = zero ? -(T)__longlong_as_double(0x7ff0000000000000LL) : l;  // -inf
  }
}
