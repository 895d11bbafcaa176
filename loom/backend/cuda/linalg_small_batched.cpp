// The batched small-matrix routines of linalg_small_batched.h, by element type.
#include "loom/backend/cuda/linalg_small_batched.h"

#include <cuComplex.h>

#include <algorithm>
#include <climits>
#include <string>

#include "loom/core/error.h"

namespace loom::cuda {
namespace {

int batch_count(int64_t batches, const char* op) {
  if (batches > INT_MAX) throw UnsupportedError(std::string("[linalg.") + op + "] more than 2^31-1 matrices on a GPU");
  return static_cast<int>(batches);
}

struct SyevjParams {
  syevjInfo_t p = nullptr;
  SyevjParams() { LOOM_CUSOLVER_CHECK(cusolverDnCreateSyevjInfo(&p)); }
  ~SyevjParams() { cusolverDnDestroySyevjInfo(p); }
  SyevjParams(const SyevjParams&) = delete;
  SyevjParams& operator=(const SyevjParams&) = delete;
};

struct GesvdjBatchedParams {
  gesvdjInfo_t p = nullptr;
  GesvdjBatchedParams() { LOOM_CUSOLVER_CHECK(cusolverDnCreateGesvdjInfo(&p)); }
  ~GesvdjBatchedParams() { cusolverDnDestroyGesvdjInfo(p); }
  GesvdjBatchedParams(const GesvdjBatchedParams&) = delete;
  GesvdjBatchedParams& operator=(const GesvdjBatchedParams&) = delete;
};

}  // namespace

void potrf_batched(const SolverCall& c, DType dt, void* m, int64_t batches, int n, int* info) {
  const int count = batch_count(batches, "cholesky");
  const std::shared_ptr<Buffer> ptrs = c.pointers(m, batches, int64_t{n} * n * static_cast<int64_t>(itemsize(dt)));
  void* p = ptrs->data();
  const SolverLock s = lock_solver(c.dev, c.stream);
  const cublasFillMode_t lo = CUBLAS_FILL_MODE_LOWER;
  switch (dt) {
    case DType::float32:
      LOOM_CUSOLVER_CHECK(cusolverDnSpotrfBatched(s.handle, lo, n, static_cast<float**>(p), n, info, count));
      break;
    case DType::float64:
      LOOM_CUSOLVER_CHECK(cusolverDnDpotrfBatched(s.handle, lo, n, static_cast<double**>(p), n, info, count));
      break;
    case DType::complex64:
      LOOM_CUSOLVER_CHECK(cusolverDnCpotrfBatched(s.handle, lo, n, static_cast<cuComplex**>(p), n, info, count));
      break;
    default:
      LOOM_CUSOLVER_CHECK(cusolverDnZpotrfBatched(s.handle, lo, n, static_cast<cuDoubleComplex**>(p), n, info, count));
      break;
  }
}

void syevj_batched(const SolverCall& c, DType dt, cusolverEigMode_t jobz, cublasFillMode_t fill, void* m, void* w,
                   int64_t batches, int n, int* info) {
  const int count = batch_count(batches, "eigh");
  const SolverLock s = lock_solver(c.dev, c.stream);
  const SyevjParams params;  // defaults: tolerance of the dtype's eps, eigenvalues sorted ascending
  int lwork = 0;
  switch (dt) {
    case DType::float32:
      LOOM_CUSOLVER_CHECK(cusolverDnSsyevjBatched_bufferSize(s.handle, jobz, fill, n, static_cast<float*>(m), n,
                                                             static_cast<float*>(w), &lwork, params.p, count));
      break;
    case DType::float64:
      LOOM_CUSOLVER_CHECK(cusolverDnDsyevjBatched_bufferSize(s.handle, jobz, fill, n, static_cast<double*>(m), n,
                                                             static_cast<double*>(w), &lwork, params.p, count));
      break;
    case DType::complex64:
      LOOM_CUSOLVER_CHECK(cusolverDnCheevjBatched_bufferSize(s.handle, jobz, fill, n, static_cast<cuComplex*>(m), n,
                                                             static_cast<float*>(w), &lwork, params.p, count));
      break;
    default:
      LOOM_CUSOLVER_CHECK(cusolverDnZheevjBatched_bufferSize(s.handle, jobz, fill, n,
                                                             static_cast<cuDoubleComplex*>(m), n,
                                                             static_cast<double*>(w), &lwork, params.p, count));
      break;
  }
  const std::shared_ptr<Buffer> work = c.scratch(static_cast<size_t>(std::max(lwork, 1)) * itemsize(dt));
  void* wk = work->data();
  switch (dt) {
    case DType::float32:
      LOOM_CUSOLVER_CHECK(cusolverDnSsyevjBatched(s.handle, jobz, fill, n, static_cast<float*>(m), n,
                                                  static_cast<float*>(w), static_cast<float*>(wk), lwork, info,
                                                  params.p, count));
      break;
    case DType::float64:
      LOOM_CUSOLVER_CHECK(cusolverDnDsyevjBatched(s.handle, jobz, fill, n, static_cast<double*>(m), n,
                                                  static_cast<double*>(w), static_cast<double*>(wk), lwork, info,
                                                  params.p, count));
      break;
    case DType::complex64:
      LOOM_CUSOLVER_CHECK(cusolverDnCheevjBatched(s.handle, jobz, fill, n, static_cast<cuComplex*>(m), n,
                                                  static_cast<float*>(w), static_cast<cuComplex*>(wk), lwork, info,
                                                  params.p, count));
      break;
    default:
      LOOM_CUSOLVER_CHECK(cusolverDnZheevjBatched(s.handle, jobz, fill, n, static_cast<cuDoubleComplex*>(m), n,
                                                  static_cast<double*>(w), static_cast<cuDoubleComplex*>(wk), lwork,
                                                  info, params.p, count));
      break;
  }
}

void gesvdj_batched(const SolverCall& c, DType dt, cusolverEigMode_t jobz, void* m, void* s, void* u, void* v,
                    int64_t batches, int rows, int cols, int* info) {
  const int count = batch_count(batches, "svd");
  const SolverLock h = lock_solver(c.dev, c.stream);
  const GesvdjBatchedParams params;  // defaults: tolerance of the dtype's eps, values sorted descending
  const int r = rows, q = cols;
  int lwork = 0;
  switch (dt) {
    case DType::float32:
      LOOM_CUSOLVER_CHECK(cusolverDnSgesvdjBatched_bufferSize(h.handle, jobz, r, q, static_cast<float*>(m), r,
                                                              static_cast<float*>(s), static_cast<float*>(u), r,
                                                              static_cast<float*>(v), q, &lwork, params.p, count));
      break;
    case DType::float64:
      LOOM_CUSOLVER_CHECK(cusolverDnDgesvdjBatched_bufferSize(h.handle, jobz, r, q, static_cast<double*>(m), r,
                                                              static_cast<double*>(s), static_cast<double*>(u), r,
                                                              static_cast<double*>(v), q, &lwork, params.p, count));
      break;
    case DType::complex64:
      LOOM_CUSOLVER_CHECK(cusolverDnCgesvdjBatched_bufferSize(h.handle, jobz, r, q, static_cast<cuComplex*>(m), r,
                                                              static_cast<float*>(s), static_cast<cuComplex*>(u), r,
                                                              static_cast<cuComplex*>(v), q, &lwork, params.p, count));
      break;
    default:
      LOOM_CUSOLVER_CHECK(cusolverDnZgesvdjBatched_bufferSize(
          h.handle, jobz, r, q, static_cast<cuDoubleComplex*>(m), r, static_cast<double*>(s),
          static_cast<cuDoubleComplex*>(u), r, static_cast<cuDoubleComplex*>(v), q, &lwork, params.p, count));
      break;
  }
  const std::shared_ptr<Buffer> work = c.scratch(static_cast<size_t>(std::max(lwork, 1)) * itemsize(dt));
  void* wk = work->data();
  switch (dt) {
    case DType::float32:
      LOOM_CUSOLVER_CHECK(cusolverDnSgesvdjBatched(h.handle, jobz, r, q, static_cast<float*>(m), r,
                                                   static_cast<float*>(s), static_cast<float*>(u), r,
                                                   static_cast<float*>(v), q, static_cast<float*>(wk), lwork, info,
                                                   params.p, count));
      break;
    case DType::float64:
      LOOM_CUSOLVER_CHECK(cusolverDnDgesvdjBatched(h.handle, jobz, r, q, static_cast<double*>(m), r,
                                                   static_cast<double*>(s), static_cast<double*>(u), r,
                                                   static_cast<double*>(v), q, static_cast<double*>(wk), lwork, info,
                                                   params.p, count));
      break;
    case DType::complex64:
      LOOM_CUSOLVER_CHECK(cusolverDnCgesvdjBatched(h.handle, jobz, r, q, static_cast<cuComplex*>(m), r,
                                                   static_cast<float*>(s), static_cast<cuComplex*>(u), r,
                                                   static_cast<cuComplex*>(v), q, static_cast<cuComplex*>(wk), lwork,
                                                   info, params.p, count));
      break;
    default:
      LOOM_CUSOLVER_CHECK(cusolverDnZgesvdjBatched(h.handle, jobz, r, q, static_cast<cuDoubleComplex*>(m), r,
                                                   static_cast<double*>(s), static_cast<cuDoubleComplex*>(u), r,
                                                   static_cast<cuDoubleComplex*>(v), q,
                                                   static_cast<cuDoubleComplex*>(wk), lwork, info, params.p, count));
      break;
  }
}

}  // namespace loom::cuda
