// GPU eval of the batched matrix product behind matmul/dot/einsum (ops/linalg.h owns the
// rules). Implemented with cuBLAS and an NVRTC kernel in backend/cuda/linalg*.cpp; stubs
// in backend/no_cuda/linalg_stubs.cpp.
#pragma once
#include "loom/array/array.h"

namespace loom::gpu_backend {

/// out[i] = a[i] @ b[i] on out's GPU, enqueued on its current stream: a (B, m, k),
/// b (B, k, n), out contiguous (B, m, n), one dtype, k >= 1; a and b have a BLAS layout
/// (gemm_operand(x).ok, backend/gemm_layout.h). float32 uses TF32 tensor cores only when
/// `allow_tf32`; float16/bfloat16 use tensor cores with float32 accumulation; integers and
/// bool use a tiled NVRTC kernel (wrapping, or-of-ands).
void gemm(const Array& a, const Array& b, const Array& out, bool allow_tf32);

}  // namespace loom::gpu_backend
