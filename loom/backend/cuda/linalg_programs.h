// The NVRTC program of the tiled matrix product (kernels/loom_linalg.cuh), the per-device
// cuBLAS handle and the cuBLAS checking macro of the linear algebra family.
#pragma once
#include <cublas_v2.h>

#include <mutex>
#include <string>

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

/// Raises loom::CudaError ("[cublas] <call> failed: CUBLAS_STATUS_...") or OutOfMemoryError.
[[noreturn]] void raise_cublas_error(cublasStatus_t status, const char* call);

}  // namespace loom::cuda

#define LOOM_CUBLAS_CHECK(call)                                                          \
  do {                                                                                   \
    const cublasStatus_t loom_st_ = (call);                                              \
    if (loom_st_ != CUBLAS_STATUS_SUCCESS) ::loom::cuda::raise_cublas_error(loom_st_, #call); \
  } while (0)
