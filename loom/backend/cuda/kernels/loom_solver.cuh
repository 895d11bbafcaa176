// The small kernels around cuSOLVER's factorizations (backend/cuda/linalg_decomp*.cpp):
// cuSOLVER works on column-major matrices, loom's are row-major, and these move between
// the two where the transposition trick alone cannot. Self-contained: NVRTC gets no
// include path.
#pragma once

// Complex elements as plain pairs (real part first, the layout of cuComplex and loom's
// complex dtypes): trivially constructible, so they can live in shared memory.
struct __align__(8) loom_solver_c64 {
  float re, im;
};
struct __align__(16) loom_solver_c128 {
  double re, im;
};
template <typename T>
__device__ __forceinline__ T loom_solver_value(double v) {
  return T(v);
}
template <>
__device__ __forceinline__ loom_solver_c64 loom_solver_value<loom_solver_c64>(double v) {
  loom_solver_c64 r;
  r.re = (float)v;
  r.im = 0.f;
  return r;
}
template <>
__device__ __forceinline__ loom_solver_c128 loom_solver_value<loom_solver_c128>(double v) {
  loom_solver_c128 r;
  r.re = v;
  r.im = 0.0;
  return r;
}

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
      if (r < rows && c < cols) d[c * rows + r] = (Tril && r > c) ? loom_solver_value<T>(0) : tile[tx][k];
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
    m[i] = loom_solver_value<T>(rem / n == rem % n ? 1 : 0);
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

// The complex counterpart over interleaved (re, im) parts R: sign = the product of the
// units d / |d| of U's diagonal, negated per row swap; log|det| = sum log|d|.
template <typename R, typename P>
__global__ void loom_slogdet_lu_complex(const R* __restrict__ lu, const P* __restrict__ pivots, R* sign, R* logabs,
                                        long long n, long long batches) {
  for (long long b = blockIdx.x * (long long)blockDim.x + threadIdx.x; b < batches;
       b += (long long)gridDim.x * blockDim.x) {
    const R* m = lu + 2 * b * n * n;
    const P* p = pivots + b * n;
    R sr = R(1), si = R(0), l = R(0);
    bool zero = false;
    for (long long i = 0; i < n; ++i) {
      const R dr = m[2 * (i * n + i)], di = m[2 * (i * n + i) + 1];
      const R a = hypot(dr, di);
      if (a == R(0)) {
        zero = true;
        continue;
      }
      const R ur = dr / a, ui = di / a, nr = sr * ur - si * ui;
      si = sr * ui + si * ur;
      sr = nr;
      if ((long long)p[i] != i + 1) {
        sr = -sr;
        si = -si;
      }
      l += log(a);
    }
    sign[2 * b] = zero ? R(0) : sr;
    sign[2 * b + 1] = zero ? R(0) : si;
    logabs[b] = zero ? -(R)__longlong_as_double(0x7ff0000000000000LL) : l;  // -inf
  }
}

// Negates every imaginary part of `count` interleaved complex values in place.
template <typename R>
__global__ void loom_conj_inplace(R* z, long long count) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count;
       i += (long long)gridDim.x * blockDim.x)
    z[2 * i + 1] = -z[2 * i + 1];
}

// A real geev's right eigenvectors vr (batch, n x n, column-major, a conjugate pair j, j+1
// packed as vr(:, j) +- i vr(:, j + 1)) into complex v (batch, n, n) row-major with
// eigenvector j as column j; w (batch, n) complex tells the pairs (Im w_j > 0: first of one).
template <typename R>
__global__ void loom_eig_unpack(const R* __restrict__ vr, const R* __restrict__ w, R* __restrict__ v, long long n,
                                long long total) {
  for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total;
       e += (long long)gridDim.x * blockDim.x) {
    const long long b = e / (n * n), rem = e - b * n * n, i = rem / n, j = rem - i * n;
    const R* col = vr + b * n * n;
    const R wim = w[2 * (b * n + j) + 1];
    R re = col[j * n + i], im = R(0);
    if (wim > R(0) && j + 1 < n) {
      im = col[(j + 1) * n + i];
    } else if (wim < R(0) && j > 0) {
      re = col[(j - 1) * n + i];
      im = -col[j * n + i];
    }
    v[2 * e] = re;
    v[2 * e + 1] = im;
  }
}
