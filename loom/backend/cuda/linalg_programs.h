// The NVRTC program of the tiled matrix product (kernels/loom_linalg.cuh), the per-device
// cuBLAS handle and the cuBLAS checking macro of the linear algebra family.
#pragma once
#include <cublas_v2.h>

#include <mutex>
#include <string>

#include "loom/array/array.h"
#include "loom/runtime/cuda/module_cache.h"
#include "loom/core/dtype.h"

namespace loom::cuda {

/// Whether the tiled kernel runs `dt`: every dtype but float16 and bfloat16.
inline bool has_tiled_matmul(DType dt) { return dt != DType::float16 && dt != DType::bfloat16 && !is_complex(dt); }
/// One small program per such dtype: "loom_matmul_tiled<T>".
const Program& matmul_tiled_program(DType dt);
const std::string& matmul_tiled_name(DType dt);

/// The device's cuBLAS handle (one per device, made on first use) set to `stream`, held
/// under its mutex for as long as the lock lives: set-stream and the calls stay atomic.
struct BlasLock {
  std::unique_lock<std::mutex> lock;
  cublasHandle_t handle;
};
BlasLock lock_blas(int dev, void* stream);

/// The kernel that fills the other triangle after ?syrk/?herk (kernels/loom_rank_k.cuh):
/// loom_mirror_upper<T, parts, mode> for float and double parts.
const Program& rank_k_program();
/// Fills the lower triangle of each n x n matrix of out (B, n, n) from its upper one, on
/// `stream`: mode 0 symmetric, 1 Hermitian (the diagonal made real), 2 Hermitian from an
/// upper triangle that holds the conjugate (which is conjugated too).
void mirror_upper(int dev, const Array& out, int mode, void* stream);
/// Whether out = p @ p^T (or ^H) runs as rank-k updates, one cuBLAS call per matrix, rather
/// than one batched GEMM: each matrix must do enough work (k: the inner dimension).
bool rank_k_pays(const Array& p, const Array& out, int64_t k);
/// out (B, n, n) = p @ p^T, or with `hermitian` p @ p^H (p^H @ p when `adjoint_first`), through
/// ?syrk/?herk and a kernel filling the other triangle (linalg_rank_k.cpp), on `stream`.
/// float32, float64, complex64, complex128; p has a BLAS layout.
void rank_k_update(int dev, const Array& p, const Array& out, bool hermitian, bool adjoint_first, void* stream);

/// Raises loom::CudaError ("[cublas] <call> failed: CUBLAS_STATUS_...") or OutOfMemoryError.
[[noreturn]] void raise_cublas_error(cublasStatus_t status, const char* call);

}  // namespace loom::cuda

#define LOOM_CUBLAS_CHECK(call)                                                          \
  do {                                                                                   \
    const cublasStatus_t loom_st_ = (call);                                              \
    if (loom_st_ != CUBLAS_STATUS_SUCCESS) ::loom::cuda::raise_cublas_error(loom_st_, #call); \
  } while (0)
