// GPU matrix products: cuBLAS for float16/bfloat16/float32/float64 (row-major through the
// transposition trick, one strided-batched call per batch, transposed operands passed
// with op 'T' instead of copies) and the tiled NVRTC kernel of linalg_tiled.cpp for the
// integers, bool and small float32/float64 products; x @ x.T as a syrk (linalg_rank_k.cpp);
// long dot products (vdot, 1-D dot and matmul) as cuBLAS's dot.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <mutex>
#include <string>

#include "loom/core/scalar.h"
#include "loom/runtime/cuda/check.h"
#include "loom/backend/cuda/linalg_programs.h"
#include "loom/backend/cuda/programs.h"
#include "loom/runtime/cuda/context.h"
#include "loom/backend/linalg_gemm_layout.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/backend/linalg.h"
#include "loom/core/error.h"

namespace loom::cuda {

void raise_cublas_error(cublasStatus_t status, const char* call) {
  const std::string msg = std::string("[cublas] ") + call + " failed: " + cublasGetStatusName(status) +
                          " (" + std::to_string(static_cast<int>(status)) + "): " +
                          cublasGetStatusString(status);
  if (status == CUBLAS_STATUS_ALLOC_FAILED)
    throw OutOfMemoryError(msg + ". Process the data in batches or free arrays you no longer need.");
  throw CudaError(msg, static_cast<int>(status));
}

namespace {

// One cuBLAS handle per device, created on first use and never destroyed (destroying it at
// exit races the runtime's own teardown). The mutex keeps set-stream + call atomic.
struct DeviceBlas {
  std::mutex mu;
  cublasHandle_t handle = nullptr;
};

DeviceBlas& blas(int dev) {
  static DeviceBlas* all = new DeviceBlas[kMaxDevices];
  return all[dev];
}

// Host mirror of loom_mm_params (kernels/loom_linalg.cuh).
struct MatmulParams {
  long long m, n, k, batch;
  long long a_sb, a_sr, a_sc;
  long long b_sb, b_sr, b_sc;
};

void tiled_gemm(int dev, const Array& a, const Array& b, const Array& out, void* stream) {
  const int64_t item = static_cast<int64_t>(a.itemsize());
  // Element strides; a size-1 dimension's stride is never used and may be anything.
  auto el = [item](const Array& x, int d) -> long long {
    if (x.shape()[d] == 1) return 0;
    if (x.strides()[d] % item != 0)
      throw UnsupportedError("[matmul] GPU operands with strides that are not a multiple of the itemsize");
    return x.strides()[d] / item;
  };
  MatmulParams p{out.shape()[1], out.shape()[2], a.shape()[2], out.shape()[0],
                 el(a, 0), el(a, 1), el(a, 2), el(b, 0), el(b, 1), el(b, 2)};
  const void* pa = a.data();
  const void* pb = b.data();
  void* pc = out.data();
  void* args[] = {&pa, &pb, &pc, &p};
  constexpr unsigned kTile = 16, kBlock = kTile * kTile;
  const int64_t tiles = p.batch * ((p.m + kTile - 1) / kTile) * ((p.n + kTile - 1) / kTile);
  const int64_t cap = static_cast<int64_t>(multiprocessor_count(dev)) * 16;
  const unsigned grid = static_cast<unsigned>(std::max<int64_t>(1, std::min(tiles, cap)));
  const std::string& name = matmul_tiled_name(out.dtype());
  CUfunction fn = get_function(dev, matmul_tiled_program(out.dtype()), name);
  launch(dev, fn, name.c_str(), grid, kBlock, 0, stream, args);
}

// Products of at most this many multiply-adds (batch * m * n * k) run in the tiled kernel.
// Measured on an H200 with CUDA 13 (float32, per call with dispatch): cuBLAS takes 54 us for
// (10 x 100) @ (100 x 150), in CuPy and PyTorch alike, and 15-21 us for every product up to
// 512^3; the tiled kernel takes 6 us up to 1e6 multiply-adds, 9 us at 256^3 (1.7e7), 16 us at
// (128 x 512) @ (512 x 512) against cuBLAS's 17.5, and 50 us at 512^3 against 21.
constexpr int64_t kTiledGemmMaxMacs = int64_t{1} << 24;
// Each block of the tiled kernel walks all of k in steps of 16: past this depth a product of
// few output tiles (a dot product is one) leaves the GPU idle, where cuBLAS splits k.
constexpr int64_t kTiledGemmMaxK = 4096;

bool use_tiled(const Array& a, const Array& out) {
  if (is_complex(out.dtype())) return false;  // cuBLAS only
  if (!is_floating(out.dtype())) return true;
  if (!has_tiled_matmul(out.dtype())) return false;
  const int64_t k = a.shape()[2];  // divided, not multiplied: huge shapes must not overflow
  return k == 0 || (k <= kTiledGemmMaxK && out.size() <= kTiledGemmMaxMacs / k);
}

// The element stride of x along dimension d, or 0 where no BLAS increment fits it.
int64_t blas_increment(const Array& x, int d) {
  const int64_t item = static_cast<int64_t>(x.itemsize()), s = x.strides()[d];
  return s > 0 && s % item == 0 && s / item <= INT_MAX ? s / item : 0;
}

// x @ x.T, x.T @ x over one buffer: a syrk (half the multiply-adds) where the matrices are
// large enough. TF32 products stay GEMMs (tensor cores), as do 16-bit floats (no syrk).
bool symmetric(const Array& a, const Array& b, const Array& out, bool allow_tf32) {
  const DType dt = out.dtype();
  if (dt != DType::float32 && dt != DType::float64 && !is_complex(dt)) return false;
  if (dt == DType::float32 && allow_tf32) return false;
  return is_transpose_pair(a, b) && rank_k_pays(a, out, a.shape()[2]);
}

struct BlasTypes {
  cudaDataType data;
  cublasComputeType_t compute;
  DType scalar;  // the dtype of alpha and beta
};

BlasTypes blas_types(DType dt, bool allow_tf32) {
  switch (dt) {
    case DType::float16: return {CUDA_R_16F, CUBLAS_COMPUTE_32F, float32};
    case DType::bfloat16: return {CUDA_R_16BF, CUBLAS_COMPUTE_32F, float32};
    case DType::float32:
      return {CUDA_R_32F, allow_tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F, float32};
    case DType::float64: return {CUDA_R_64F, CUBLAS_COMPUTE_64F, float64};
    // Complex: cgemm/zgemm's own arithmetic (no TF32: NumPy's results, as for float32 by default).
    case DType::complex64: return {CUDA_C_32F, CUBLAS_COMPUTE_32F, complex64};
    case DType::complex128: return {CUDA_C_64F, CUBLAS_COMPUTE_64F, complex128};
    default: throw_dtype_error("matmul", "no cuBLAS type");
  }
}

void check_int(int64_t v, const char* what) {
  if (v > INT_MAX)
    throw UnsupportedError(std::string("[matmul] ") + what + " larger than 2^31-1 is not supported on the GPU");
}

// One dot product (a 1 x k @ k x 1 product of a float or complex dtype, k past the tiled
// kernel's reach): cuBLAS's dot, a reduction over the whole GPU, its result written on the
// device (pointer mode device for this call: no wait for the host). False where the
// operands' strides give no BLAS increments.
bool blas_dot(int dev, const Array& a, const Array& b, const Array& out, void* stream) {
  const int64_t k = a.shape()[2], inc_a = blas_increment(a, 2), inc_b = blas_increment(b, 1);
  if (k > INT_MAX || inc_a == 0 || inc_b == 0) return false;
  const DType dt = out.dtype();
  const BlasTypes t = blas_types(dt, false);
  const cudaDataType exec = dt == DType::float16 || dt == DType::bfloat16 ? CUDA_R_32F : t.data;
  const BlasLock d = lock_blas(dev, stream);
  LOOM_CUBLAS_CHECK(cublasSetPointerMode(d.handle, CUBLAS_POINTER_MODE_DEVICE));
  const cublasStatus_t status =
      cublasDotEx(d.handle, static_cast<int>(k), a.data(), t.data, static_cast<int>(inc_a), b.data(), t.data,
                  static_cast<int>(inc_b), out.data(), t.data, exec);
  LOOM_CUBLAS_CHECK(cublasSetPointerMode(d.handle, CUBLAS_POINTER_MODE_HOST));  // every other call's mode
  if (status != CUBLAS_STATUS_SUCCESS) raise_cublas_error(status, "cublasDotEx");
  return true;
}

bool is_dot(const Array& a, const Array& out) {
  return out.size() == 1 && a.shape()[2] > kTiledGemmMaxK && (is_floating(out.dtype()) || is_complex(out.dtype()));
}

void blas_gemm(int dev, const Array& a, const Array& b, const Array& out, bool allow_tf32, void* stream) {
  const GemmOperand ga = gemm_operand(a), gb = gemm_operand(b);
  if (!ga.ok || !gb.ok) throw std::logic_error("[matmul] operand without a BLAS layout reached cuBLAS");
  const int64_t nb = out.shape()[0], m = out.shape()[1], n = out.shape()[2], k = a.shape()[2];
  check_int(m, "matrix dimensions");
  check_int(n, "matrix dimensions");
  check_int(k, "matrix dimensions");
  const BlasTypes t = blas_types(out.dtype(), allow_tf32);
  alignas(16) unsigned char one[16], zero[16];  // alpha = 1, beta = 0 in the scalar dtype
  scalar_to_bytes(Scalar(1), t.scalar, one);
  scalar_to_bytes(Scalar(0), t.scalar, zero);
  const void* alpha = one;
  const void* beta = zero;
  // Row-major C = A @ B is column-major C^T = B^T @ A^T: B goes first, m and n swap, and a
  // transposed (column-major) operand becomes op 'T' on the same memory.
  const cublasOperation_t op_b = gb.transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_a = ga.transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  const int mi = static_cast<int>(n), ni = static_cast<int>(m), ki = static_cast<int>(k);
  const int lda = static_cast<int>(gb.ld), ldb = static_cast<int>(ga.ld), ldc = static_cast<int>(n);
  const int64_t item = static_cast<int64_t>(out.itemsize());

  const BlasLock d = lock_blas(dev, stream);
  if (nb == 1) {
    LOOM_CUBLAS_CHECK(cublasGemmEx(d.handle, op_b, op_a, mi, ni, ki, alpha, b.data(), t.data, lda,
                                   a.data(), t.data, ldb, beta, out.data(), t.data, ldc, t.compute,
                                   CUBLAS_GEMM_DEFAULT_TENSOR_OP));
    return;
  }
  constexpr int64_t kMaxBatch = int64_t{1} << 30;
  for (int64_t b0 = 0; b0 < nb; b0 += kMaxBatch) {
    const int count = static_cast<int>(std::min(kMaxBatch, nb - b0));
    const char* pb = static_cast<const char*>(b.data()) + b0 * gb.batch_stride * item;
    const char* pa = static_cast<const char*>(a.data()) + b0 * ga.batch_stride * item;
    char* pc = static_cast<char*>(out.data()) + b0 * m * n * item;
    LOOM_CUBLAS_CHECK(cublasGemmStridedBatchedEx(
        d.handle, op_b, op_a, mi, ni, ki, alpha, pb, t.data, lda, gb.batch_stride, pa, t.data, ldb,
        ga.batch_stride, beta, pc, t.data, ldc, m * n, count, t.compute, CUBLAS_GEMM_DEFAULT_TENSOR_OP));
  }
}

}  // namespace

BlasLock lock_blas(int dev, void* stream) {
  DeviceBlas& d = blas(dev);
  BlasLock out{std::unique_lock<std::mutex>(d.mu), nullptr};
  if (!d.handle) LOOM_CUBLAS_CHECK(cublasCreate(&d.handle));
  // Every call: a cached stream handle could name a destroyed and recreated stream.
  LOOM_CUBLAS_CHECK(cublasSetStream(d.handle, static_cast<cudaStream_t>(stream)));
  out.handle = d.handle;
  return out;
}

}  // namespace loom::cuda

namespace loom::gpu_backend {

void gemm(const Array& a, const Array& b, const Array& out, bool allow_tf32) {
  if (out.size() == 0) return;
  const int dev = out.device().index;
  cuda::activate(dev);
  gpu_runtime::wait_for_writer(a);
  gpu_runtime::wait_for_writer(b);
  gpu_runtime::wait_for_writer(out);
  void* stream = cuda::current_stream(dev);
  const bool dotted = cuda::is_dot(a, out) && cuda::blas_dot(dev, a, b, out, stream);
  if (dotted) {
    // done
  } else if (cuda::use_tiled(a, out)) {
    cuda::tiled_gemm(dev, a, b, out, stream);
  } else if (cuda::symmetric(a, b, out, allow_tf32)) {
    cuda::rank_k_update(dev, a, out, false, false, stream);
  } else {
    cuda::blas_gemm(dev, a, b, out, allow_tf32, stream);
  }
  out.buffer()->set_last_stream(stream);
}

}  // namespace loom::gpu_backend
