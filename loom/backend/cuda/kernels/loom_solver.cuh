// The small kernels around cuSOLVER's factorizations (backend/cuda/linalg_decomp*.cpp):
// cuSOLVER works on column-major matrices, loom's are row-major, and these move between
// the two where the transposition trick alone cannot. Self-contained: NVRTC gets no
// include path.
#pragma once

// dst (batch, cols, rows) = src (batch, rows, cols) transposed, through 32 x 32 tiles in
// shared memory so that reads and writes are both coalesced. Tril: also zero what lands
// above dst's diagonal (a Cholesky factor's unused triangle). 256 threads: 32 columns x 8
// rows of a tile, 4 elements each; blocks stride over (batch, tile row, tile column).
template <typename T, bool Tril>
__global__ void loom_transpose_tiles(const T* __restrict__ src, T* __restrict__ dst, long long rows, long long cols,
                                     long long batches) {
  __shared__ T tile[32][33];  // +1: no bank conflicts on the column reads
  const int tx = threadIdx.x & 31, ty = threadIdx.x >> 5;
  const long long tr = (rows + 31) / 32, tc = (cols + 31) / 32, per = tr * tc;
  for (long long t = blockIdx.x; t < per * batches; t += gridDim.x) {
    const long long b = t / per, rem = t - b * per, r0 = rem / tc * 32, c0 = rem % tc * 32;
    const T* s = src + b * rows * cols;
    T* d = dst + b * rows * cols;
    for (int k = ty; k < 32; k += 8) {
      const long long r = r0 + k, c = c0 + tx;
      if (r < rows && c < cols) tile[k][tx] = s[r * cols + c];
    }
    __syncthreads();
    for (int k = ty; k < 32; k += 8) {
      const long long c = c0 + k, r = r0 + tx;  // d[c][r] = s[r][c]
      if (r < rows && c < cols) d[c * rows + r] = (Tril && r > c) ? T(0) : tile[tx][k];
    }
    __syncthreads();
  }
}

// Each n x n matrix of the stack set to the identity (the right-hand sides of an inverse).
template <typename T>
__global__ void loom_identity_stack(T* m, long long n, long long total) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total;
       i += (long long)gridDim.x * blockDim.x) {
    const long long rem = i % (n * n);
    m[i] = rem / n == rem % n ? T(1) : T(0);
  }
}

// out[i] = base + i * stride: the pointer arrays of cuBLAS's and cuSOLVER's batched calls.
__global__ void loom_pointer_stack(char* base, long long stride, long long count, char** out) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count;
       i += (long long)gridDim.x * blockDim.x)
    out[i] = base + i * stride;
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
