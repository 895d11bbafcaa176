// Array creation kernels: fill, arange, linspace, eye. Instantiated by NVRTC name
// expressions (module_cache), e.g. "loom_arange<float>". Grid-stride loops.
#pragma once
#include "loom_cast.cuh"

// Not unrolled: unrolling multiplies NVRTC time and buys nothing for memory-bound loops.
#define LOOM_GRID_STRIDE(i, n)                                                                 \
  _Pragma("unroll 1") for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); \
       i += static_cast<long long>(gridDim.x) * blockDim.x)

// `value` holds the element's bytes (T is an unsigned integer of the dtype's size).
template <typename T>
__global__ void loom_fill(T* out, T value, long long n) {
  LOOM_GRID_STRIDE(i, n) out[i] = value;
}

// out[0] = first, out[1] = second, out[i] = first + i * (second - first) in T's
// arithmetic (float16/bfloat16 in float), as NumPy's arange fill functions.
template <typename T>
__global__ void loom_arange(T* out, T first, T second, long long n) {
  LOOM_GRID_STRIDE(i, n) {
    if (i < 2) {
      out[i] = i == 0 ? first : second;
    } else if constexpr (loom_kind<T>::value == loom_half) {
      const float a = loom_widen<T>(first), d = loom_widen<T>(second) - a;
      out[i] = loom_cast<T>(a + static_cast<float>(i) * d);
    } else if constexpr (loom_kind<T>::value == loom_float) {
      const T d = second - first;
      out[i] = first + static_cast<T>(i) * d;
    } else if constexpr (loom_kind<T>::value == loom_boolean) {
      const long long a = first ? 1 : 0, d = (second ? 1 : 0) - a;
      out[i] = (a + i * d) != 0;
    } else {  // two's-complement wrap, done unsigned to stay defined
      const unsigned long long a = static_cast<unsigned long long>(first);
      const unsigned long long d = static_cast<unsigned long long>(second) - a;
      out[i] = static_cast<T>(a + static_cast<unsigned long long>(i) * d);
    }
  }
}

// start + i * step in double; the last one `stop` when endpoint; integers take the floor.
template <typename T>
__global__ void loom_linspace(T* out, double start, double step, double stop, int endpoint,
                              long long n) {
  LOOM_GRID_STRIDE(i, n) {
    double v = start + static_cast<double>(i) * step;
    if (endpoint && n > 1 && i == n - 1) v = stop;
    if constexpr (loom_kind<T>::value == loom_int) v = floor(v);
    out[i] = loom_cast<T>(v);
  }
}

// rows x cols, ones on diagonal k. `one` holds the bytes of 1 in the dtype.
template <typename T>
__global__ void loom_eye(T* out, long long rows, long long cols, long long k, T one) {
  const long long n = rows * cols;
  LOOM_GRID_STRIDE(i, n) {
    const long long r = i / cols, c = i - r * cols;
    out[i] = c - r == k ? one : T(0);
  }
}
