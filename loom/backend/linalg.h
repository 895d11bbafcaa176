// The linalg family's contract (DESIGN.md §2): the batched matrix product behind matmul,
// dot, einsum and the other products, and its primitive record. loom/ops/linalg*.cpp and
// einsum.cpp own the rules and hand the backends 3-d operands that have a BLAS layout
// (gemm_operand(x).ok, backend/linalg_gemm_layout.h). CPU: backend/cpu/linalg*.cpp (a CBLAS for
// float32/float64 when the build found one); GPU: backend/cuda/linalg*.cpp (cuBLAS and an
// NVRTC kernel), enqueued on the current stream of out's device; stub in
// backend/no_cuda/evals.cpp.
#pragma once
#include "loom/array/array.h"
#include "loom/backend/eval_list.h"

namespace loom {

/// out[i] = a[i] @ b[i] for a (B, m, k), b (B, k, n), out contiguous (B, m, n), all of one
/// dtype, k >= 1. Integers wrap around, bool is or-of-ands, float16/bfloat16 accumulate in
/// float32 (tensor cores on the GPU), complex64/complex128 through cgemm/zgemm. float32 uses
/// TF32 tensor cores on the GPU only when `allow_tf32`; the CPU ignores it.
using GemmFn = void(const Array& a, const Array& b, const Array& out, bool allow_tf32);

/// out[i] = p[i] @ p[i]^H, or p[i]^H @ p[i] when `adjoint_first`, for complex64/complex128 p
/// (B, n, k) with a BLAS layout: the Hermitian rank-k update (?herk, the other triangle
/// filled with the conjugate, the diagonal exactly real) that matmul runs for x @ x.conj().T
/// and x.conj().T @ x. `q` is the other operand as matmul got it, which holds p^H: an eval
/// may run the plain product (p @ q, or q @ p) where that is faster (many small matrices).
using HermitianGemmFn = void(const Array& p, const Array& q, const Array& out, bool adjoint_first);

// Its evals, declared in cpu_backend and gpu_backend (backend/eval_list.h); without CUDA
// backend/no_cuda/evals.cpp defines the GPU ones as stubs from this list.
#define LOOM_LINALG_EVALS(X)  \
  X(GemmFn, gemm, 4)          \
  X(HermitianGemmFn, herk, 4)
LOOM_DECLARE_EVALS(LOOM_LINALG_EVALS)

/// The CPU's BLAS: "openblas", "blas" (the library CMake found) or "none" (loom's own
/// loops). A build query of the CPU backend, not an eval.
const char* cpu_blas_name();

}  // namespace loom
