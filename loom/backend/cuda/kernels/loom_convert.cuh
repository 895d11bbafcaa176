// dtype conversion kernels: contiguous (grid-stride) and strided source (collapsed
// layout passed by value). Instantiated by name expression, e.g.
// "loom_convert<float, unsigned char>", "loom_convert_strided<loom_f16, double>".
#pragma once
#include "loom_cast.cuh"

template <typename S, typename D>
__global__ void loom_convert(const S* __restrict__ src, D* __restrict__ dst, long long n) {
#pragma unroll 1  // unrolled loops triple the NVRTC time of the family for no gain here
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    dst[i] = loom_convert_element<D, S>(loom_load<S>(src + i));
}

// The source's layout with dims collapsed (shape.h), strides in bytes, innermost last.
template <typename I>
struct loom_strided_layout {
  int ndim;
  I shape[LOOM_MAX_DIMS];
  I strides[LOOM_MAX_DIMS];
};

// Byte offset of element i (C order) in `layout`. Unsigned division: cheaper to run and
// to compile than signed.
template <typename I, typename U>
LOOM_DEV I loom_strided_offset(U i, const loom_strided_layout<I>& layout) {
  I offset = 0;
#pragma unroll 1
  for (int d = layout.ndim - 1; d > 0; --d) {
    const U extent = static_cast<U>(layout.shape[d]);
    const U q = i / extent;
    offset += static_cast<I>(i - q * extent) * layout.strides[d];
    i = q;
  }
  return layout.ndim > 0 ? offset + static_cast<I>(i) * layout.strides[0] : offset;
}

// Strided source with 32-bit indexing: every index and byte offset fits in an int.
template <typename S, typename D>
__global__ void loom_convert_strided(const char* __restrict__ src, D* __restrict__ dst, int n,
                                     const loom_strided_layout<int> layout) {
#pragma unroll 1
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < static_cast<unsigned>(n);
       i += gridDim.x * blockDim.x) {
    const S* p = reinterpret_cast<const S*>(src + loom_strided_offset(i, layout));
    dst[i] = loom_convert_element<D, S>(loom_load<S>(p));
  }
}

// Larger arrays: a dtype-agnostic gather into contiguous memory (T: an unsigned integer of
// the element's size), followed by a contiguous convert when the dtype changes.
template <typename T>
__global__ void loom_gather(const char* __restrict__ src, T* __restrict__ dst, long long n,
                            const loom_strided_layout<long long> layout) {
#pragma unroll 1
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < static_cast<unsigned long long>(n); i += static_cast<unsigned long long>(gridDim.x) * blockDim.x)
    dst[i] = *reinterpret_cast<const T*>(src + loom_strided_offset(i, layout));
}
