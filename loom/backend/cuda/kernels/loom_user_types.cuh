// float16 and bfloat16 as the element types of user kernels (ElementwiseKernel,
// ReductionKernel): 16-bit storage that reads as float and takes any arithmetic value
// (rounded to nearest even, as NumPy casts), so `y = x * x + 1` works as in CuPy, computing
// in float. Included only by generated kernels that use these types.
#pragma once
#include "loom_cast.cuh"

#define LOOM_USER_HALF(NAME, TO_FLOAT, FROM_FLOAT, FROM_DOUBLE, RAW)                        \
  struct NAME {                                                                               \
    unsigned short bits;                                                                      \
    NAME() = default;                                                                         \
    __device__ NAME(float f) : bits(FROM_FLOAT(f).bits) {}                                    \
    __device__ NAME(double d) : bits(FROM_DOUBLE(d).bits) {}                                  \
    template <typename V> __device__ NAME(V v) : bits(FROM_FLOAT(static_cast<float>(v)).bits) {} \
    __device__ operator float() const { return TO_FLOAT(RAW{bits}); }                         \
    template <typename V> __device__ NAME& operator+=(V v) { return *this = float(*this) + v; } \
    template <typename V> __device__ NAME& operator-=(V v) { return *this = float(*this) - v; } \
    template <typename V> __device__ NAME& operator*=(V v) { return *this = float(*this) * v; } \
    template <typename V> __device__ NAME& operator/=(V v) { return *this = float(*this) / v; } \
  };
LOOM_USER_HALF(loom_float16, loom_f16_to_float, loom_float_to_f16, loom_double_to_f16, loom_f16)
LOOM_USER_HALF(loom_bfloat16, loom_bf16_to_float, loom_float_to_bf16, loom_double_to_bf16, loom_bf16)
#undef LOOM_USER_HALF

