// GPU eval of the sparse family (backend/sparse.h): cuSPARSE's generic SpMV (one column) and
// SpMM (several, x and out row-major), with a per-device handle made on first use and set to
// the arrays' current stream; the workspace comes from loom's stream-ordered pool.
#include "loom/backend/sparse.h"

#include <cusparse.h>

#include <mutex>
#include <string>

#include "loom/backend/cuda/linalg_solver.h"
#include "loom/core/error.h"
#include "loom/runtime/cuda/check.h"

namespace loom::gpu_backend {
namespace {

[[noreturn]] void raise_cusparse(cusparseStatus_t status, const char* call) {
  const std::string msg = std::string("[cusparse] ") + call + " failed: " + cusparseGetErrorName(status) + " (" +
                          std::to_string(static_cast<int>(status)) + ")";
  if (status == CUSPARSE_STATUS_ALLOC_FAILED)
    throw OutOfMemoryError(msg + ". Free arrays you no longer need, or multiply in column blocks.");
  throw CudaError(msg, static_cast<int>(status));
}
#define LOOM_CUSPARSE(call)                                        \
  do {                                                             \
    const cusparseStatus_t loom_status_ = (call);                  \
    if (loom_status_ != CUSPARSE_STATUS_SUCCESS) raise_cusparse(loom_status_, #call); \
  } while (0)

struct DeviceSparse {
  std::mutex mu;
  cusparseHandle_t handle = nullptr;
};
DeviceSparse& device_sparse(int dev) {
  static DeviceSparse* all = new DeviceSparse[cuda::kMaxDevices];  // never destroyed (exit races teardown)
  return all[dev];
}

cudaDataType value_type(DType d) {
  switch (d) {
    case DType::float32: return CUDA_R_32F;
    case DType::float64: return CUDA_R_64F;
    case DType::complex64: return CUDA_C_32F;
    default: return CUDA_C_64F;
  }
}

// The scalars alpha = 1 and beta = 0 in the computation's type, on the host.
struct Scalars {
  double one[2] = {1.0, 0.0}, zero[2] = {0.0, 0.0};
  float one_f[2] = {1.0f, 0.0f}, zero_f[2] = {0.0f, 0.0f};
  static bool single(DType d) { return d == DType::float32 || d == DType::complex64; }
  const void* alpha(DType d) const { return single(d) ? static_cast<const void*>(one_f) : one; }
  const void* beta(DType d) const { return single(d) ? static_cast<const void*>(zero_f) : zero; }
};

// Destroys the descriptors of one call, whatever raises in between.
struct Descriptors {
  cusparseSpMatDescr_t a = nullptr;
  cusparseDnVecDescr_t xv = nullptr, yv = nullptr;
  cusparseDnMatDescr_t xm = nullptr, ym = nullptr;
  ~Descriptors() {
    if (a) cusparseDestroySpMat(a);
    if (xv) cusparseDestroyDnVec(xv);
    if (yv) cusparseDestroyDnVec(yv);
    if (xm) cusparseDestroyDnMat(xm);
    if (ym) cusparseDestroyDnMat(ym);
  }
};

}  // namespace

void csr_matmul(const Array& data, const Array& indices, const Array& indptr, const Array& x, bool transpose,
                const Array& out) {
  cuda::SolverCall call(data, {&indices, &indptr, &x});
  DeviceSparse& ds = device_sparse(call.dev);
  std::lock_guard<std::mutex> lock(ds.mu);
  if (!ds.handle) LOOM_CUSPARSE(cusparseCreate(&ds.handle));
  LOOM_CUSPARSE(cusparseSetStream(ds.handle, static_cast<cudaStream_t>(call.stream)));
  const int64_t rows = transpose ? x.shape()[0] : out.shape()[0];
  const int64_t cols = transpose ? out.shape()[0] : x.shape()[0];
  const int64_t k = x.shape()[1], nnz = data.size();
  const cusparseIndexType_t index = indices.dtype() == DType::int32 ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I;
  const cudaDataType vt = value_type(data.dtype());
  const cusparseOperation_t op = transpose ? CUSPARSE_OPERATION_TRANSPOSE : CUSPARSE_OPERATION_NON_TRANSPOSE;
  const Scalars s;
  Descriptors d;
  LOOM_CUSPARSE(cusparseCreateCsr(&d.a, rows, cols, nnz, indptr.data(), indices.data(), data.data(), index, index,
                                  CUSPARSE_INDEX_BASE_ZERO, vt));
  size_t bytes = 0;
  if (k == 1) {
    LOOM_CUSPARSE(cusparseCreateDnVec(&d.xv, x.shape()[0], x.data(), vt));
    LOOM_CUSPARSE(cusparseCreateDnVec(&d.yv, out.shape()[0], out.data(), vt));
    LOOM_CUSPARSE(cusparseSpMV_bufferSize(ds.handle, op, s.alpha(data.dtype()), d.a, d.xv, s.beta(data.dtype()), d.yv,
                                          vt, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    const auto work = call.scratch(bytes);
    LOOM_CUSPARSE(cusparseSpMV(ds.handle, op, s.alpha(data.dtype()), d.a, d.xv, s.beta(data.dtype()), d.yv, vt,
                               CUSPARSE_SPMV_ALG_DEFAULT, work->data()));
  } else {
    LOOM_CUSPARSE(cusparseCreateDnMat(&d.xm, x.shape()[0], k, k, x.data(), vt, CUSPARSE_ORDER_ROW));
    LOOM_CUSPARSE(cusparseCreateDnMat(&d.ym, out.shape()[0], k, k, out.data(), vt, CUSPARSE_ORDER_ROW));
    LOOM_CUSPARSE(cusparseSpMM_bufferSize(ds.handle, op, CUSPARSE_OPERATION_NON_TRANSPOSE, s.alpha(data.dtype()), d.a,
                                          d.xm, s.beta(data.dtype()), d.ym, vt, CUSPARSE_SPMM_ALG_DEFAULT, &bytes));
    const auto work = call.scratch(bytes);
    LOOM_CUSPARSE(cusparseSpMM(ds.handle, op, CUSPARSE_OPERATION_NON_TRANSPOSE, s.alpha(data.dtype()), d.a, d.xm,
                               s.beta(data.dtype()), d.ym, vt, CUSPARSE_SPMM_ALG_DEFAULT, work->data()));
  }
  call.written({&out});
}

}  // namespace loom::gpu_backend
