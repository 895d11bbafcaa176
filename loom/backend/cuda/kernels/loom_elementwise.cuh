// Support code for generated elementwise kernels (graph/cuda_codegen.cpp):
// aligned vectors for 16-byte loads and stores. The op expressions themselves come
// from loom_math.cuh; kernels stay small so that a never-seen one compiles quickly.
#pragma once
#include "loom_math.cuh"

// N elements of T moved as one aligned access (ld.global.v4 for 16 bytes).
template <typename T, int N>
struct alignas(sizeof(T) * N) loom_vec {
  T v[N];
};
