// The other triangle after a symmetric or Hermitian rank-k update (?syrk, ?herk), which
// writes one triangle only. Matrices are n x n, row-major, `batch` of them back to back, of
// elements of `kParts` values T (1 real, 2 complex). The update wrote the upper triangle;
// kMode says what the lower one is: 0 its transpose (symmetric), 1 its conjugate transpose
// (Hermitian), 2 its transpose, where the upper triangle holds the conjugate of the result
// and is conjugated too. Hermitian diagonals are made exactly real. One thread per element of
// the lower triangle and diagonal, which alone reads and writes its mirror element.
// Self-contained: NVRTC gets no include path.
#pragma once

template <typename T, int kParts, int kMode>
__global__ void loom_mirror_upper(T* c, long long n, long long batch) {
  const long long per = n * n, total = batch * per;
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const long long z = t / per, r = t % per, i = r / n, j = r % n;
    if (j > i) continue;
    T* m = c + z * per * kParts;
    if (i == j) {
      if (kParts == 2 && kMode != 0) m[(i * n + i) * 2 + 1] = T(0);
      continue;
    }
    const long long lo = (i * n + j) * kParts, up = (j * n + i) * kParts;
    m[lo] = m[up];
    if (kParts == 2) {
      const T im = m[up + 1];
      m[lo + 1] = kMode == 1 ? -im : im;
      if (kMode == 2) m[up + 1] = -im;
    }
  }
}
