// What the GPU decompositions share (backend/cuda/linalg_decomp.cpp, linalg_svd_qr.cpp):
// the per-device cuSOLVER handle, stream-ordered scratch from loom's pool, the small
// layout kernels of kernels/loom_solver.cuh, and the info check that turns cuSOLVER's
// per-matrix status into LinAlgError naming the batch index.
#pragma once
#include <cusolverDn.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "loom/array/array.h"
#include "loom/runtime/cuda/module_cache.h"
#include "loom/runtime/memory.h"

namespace loom::cuda {

/// Raises loom::CudaError ("[cusolver] <call> failed: ...") or OutOfMemoryError.
[[noreturn]] void raise_cusolver_error(cusolverStatus_t status, const char* call);

/// The device's cuSOLVER handle and 64-bit-API params (made on first use, never destroyed,
/// like cuBLAS's), set to `stream` and held under the device's mutex while the lock lives.
struct SolverLock {
  std::unique_lock<std::mutex> lock;
  cusolverDnHandle_t handle;
  cusolverDnParams_t params;
};
SolverLock lock_solver(int dev, void* stream);

/// What every GPU decomposition eval does around its calls: make `dev` current, order the
/// work after the operands' writers on the device's current stream, and afterwards mark
/// the outputs as written there.
struct SolverCall {
  int dev;
  void* stream;
  SolverCall(const Array& first, std::initializer_list<const Array*> others);
  void written(std::initializer_list<const Array*> outs) const;
  /// `nbytes` of device scratch from loom's pool, ordered on the stream (returned to the
  /// pool when the pointer dies, which the stream order makes safe).
  std::shared_ptr<Buffer> scratch(size_t nbytes) const;
  /// Device copy of `nbytes` (a D2D memcpy on the stream).
  void copy(void* dst, const void* src, size_t nbytes) const;
  /// Device array of the `count` pointers base + i * stride_bytes (the batched routines'
  /// pointer arrays).
  std::shared_ptr<Buffer> pointers(void* base, int64_t count, int64_t stride_bytes) const;
  /// Waits for the stream and raises LinAlgError(op, what, b) for the first b whose
  /// info[b] > 0; a negative info (a wrong argument: loom's bug) raises logic_error.
  void check_info(const char* op, const char* what, const int* info, int64_t batches) const;
  /// Waits for the stream and copies the per-matrix info into `host` (its size: the count).
  void download_info(const int* info, std::vector<int>& host) const;

  /// kernels/loom_solver.cuh on float32/float64 stacks (dtype of the arrays involved).
  /// dst (batches, cols, rows) = src (batches, rows, cols) transposed; tril: and the part
  /// above dst's diagonal zeroed.
  void transpose(DType dt, const void* src, void* dst, int64_t batches, int64_t rows, int64_t cols,
                 bool tril = false) const;
  void identity(DType dt, void* m, int64_t batches, int64_t n) const;
  /// pivots: int32 (cuBLAS's batched LU) when pivot_bytes == 4, int64 (cuSOLVER's X API) when 8.
  void slogdet_from_lu(DType dt, const void* lu, const void* pivots, size_t pivot_bytes, void* sign, void* logabs,
                       int64_t batches, int64_t n) const;
  /// Conjugates `count` complex values of dtype dt in place.
  void conj(DType dt, void* z, int64_t count) const;
  /// A real geev's packed right eigenvectors vr (real dtype dt) into complex v, row-major.
  void eig_unpack(DType dt, const void* vr, const void* w, void* v, int64_t batches, int64_t n) const;
};

/// dst (batches, cols, rows) = src (batches, rows, cols) transposed on `stream` (tiled, both
/// sides coalesced), for float32, float64, complex64 and complex128; tril zeroes what lands
/// above dst's diagonal.
void transpose_stack(int dev, void* stream, DType dt, const void* src, void* dst, int64_t batches, int64_t rows,
                     int64_t cols, bool tril = false);

/// kernels/loom_solver.cuh: the tiled transposes and identity for the four dtypes, slogdet,
/// conjugation and eig's unpacking over float and double parts, and the pointer arrays.
const Program& solver_program();

inline cudaDataType solver_type(DType dt) {
  switch (dt) {
    case DType::float32: return CUDA_R_32F;
    case DType::float64: return CUDA_R_64F;
    case DType::complex64: return CUDA_C_32F;
    default: return CUDA_C_64F;
  }
}
/// The type of real-valued results (eigenvalues of Hermitian matrices, singular values).
inline cudaDataType solver_real_type(DType dt) { return real_dtype(dt) == DType::float32 ? CUDA_R_32F : CUDA_R_64F; }

}  // namespace loom::cuda

#define LOOM_CUSOLVER_CHECK(call)                                                             \
  do {                                                                                        \
    const cusolverStatus_t loom_st_ = (call);                                                 \
    if (loom_st_ != CUSOLVER_STATUS_SUCCESS) ::loom::cuda::raise_cusolver_error(loom_st_, #call); \
  } while (0)
