// Row gather of the shape family (repeat with unequal counts). T is an opaque element of
// 1, 2, 4, 8 or 16 bytes: the caller picks the widest width that divides a row's bytes and
// both base addresses, so long rows move in 16-byte loads.
#pragma once

struct alignas(16) loom_b128 {
  unsigned long long lo, hi;
};

// dst[o, j, k] = src[o, idx[j], k] with dst (outer, m, inner) and src (outer, n, inner),
// both contiguous; total = outer * m * inner.
template <typename T>
__global__ void loom_take_rows(const T* __restrict__ src, T* __restrict__ dst,
                               const long long* __restrict__ idx, long long total, long long n,
                               long long m, long long inner) {
  const unsigned long long un = static_cast<unsigned long long>(n);
  const unsigned long long um = static_cast<unsigned long long>(m);
  const unsigned long long ui = static_cast<unsigned long long>(inner);
#pragma unroll 1
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < static_cast<unsigned long long>(total);
       i += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    const unsigned long long t = i / ui, k = i - t * ui;
    const unsigned long long o = t / um, j = t - o * um;
    dst[i] = src[(o * un + static_cast<unsigned long long>(idx[j])) * ui + k];
  }
}
