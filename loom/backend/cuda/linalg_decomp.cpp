// GPU solve, inv, slogdet, cholesky and eigh through cuSOLVER's 64-bit API, one matrix of the
// stack at a time, and for stacks of small matrices through one batched call for all of
// them (cuBLAS's batched LU, cuSOLVER's potrfBatched and syevjBatched). cuSOLVER is
// column-major, so a row-major A is, to it, M = A.T; the calls account for that as the CPU's
// LAPACK calls do (backend/cpu/linalg_decomp.cpp). Each eval
// reads cuSOLVER's per-matrix info once at the end (one sync) and raises LinAlgError naming
// the batch index, as NumPy and every other loom device do.
#include <cublas_v2.h>
#include <cuComplex.h>

#include <cstdint>
#include <vector>

#include "loom/backend/cuda/linalg_programs.h"
#include "loom/backend/cuda/linalg_small_batched.h"
#include "loom/backend/cuda/linalg_solver.h"
#include "loom/backend/linalg_decomp.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {
namespace {

using cuda::SolverCall;

// Stacks of matrices up to this size factor in one cuBLAS batched call: cuSOLVER's
// per-matrix calls cost a launch sequence each, which dominates small matrices.
constexpr int64_t kBatchedLuMaxN = 32;

int checked_int(int64_t v, const char* op) {
  if (v > INT32_MAX) throw UnsupportedError(std::string("[linalg.") + op + "] a dimension over 2^31-1 on a GPU");
  return static_cast<int>(v);
}

bool use_batched_lu(int64_t batches, int64_t n) { return batches > 1 && n <= kBatchedLuMaxN; }

// cuBLAS's batched LU by element type (cuComplex and cuDoubleComplex share loom's layout).
cublasStatus_t getrf_batched(cublasHandle_t h, int n, void* a, int* piv, int* info, int batches, DType dt) {
  switch (dt) {
    case DType::float32: return cublasSgetrfBatched(h, n, static_cast<float* const*>(a), n, piv, info, batches);
    case DType::float64: return cublasDgetrfBatched(h, n, static_cast<double* const*>(a), n, piv, info, batches);
    case DType::complex64: return cublasCgetrfBatched(h, n, static_cast<cuComplex* const*>(a), n, piv, info, batches);
    default: return cublasZgetrfBatched(h, n, static_cast<cuDoubleComplex* const*>(a), n, piv, info, batches);
  }
}

cublasStatus_t getrs_batched(cublasHandle_t h, int n, int k, const void* a, const int* piv, void* b, int* info,
                             int batches, DType dt) {
  switch (dt) {
    case DType::float32:
      return cublasSgetrsBatched(h, CUBLAS_OP_T, n, k, static_cast<const float* const*>(a), n, piv,
                                 static_cast<float* const*>(b), n, info, batches);
    case DType::float64:
      return cublasDgetrsBatched(h, CUBLAS_OP_T, n, k, static_cast<const double* const*>(a), n, piv,
                                 static_cast<double* const*>(b), n, info, batches);
    case DType::complex64:
      return cublasCgetrsBatched(h, CUBLAS_OP_T, n, k, static_cast<const cuComplex* const*>(a), n, piv,
                                 static_cast<cuComplex* const*>(b), n, info, batches);
    default:
      return cublasZgetrsBatched(h, CUBLAS_OP_T, n, k, static_cast<const cuDoubleComplex* const*>(a), n, piv,
                                 static_cast<cuDoubleComplex* const*>(b), n, info, batches);
  }
}

cublasStatus_t getri_batched(cublasHandle_t h, int n, const void* a, const int* piv, void* c, int* info, int batches,
                             DType dt) {
  switch (dt) {
    case DType::float32:
      return cublasSgetriBatched(h, n, static_cast<const float* const*>(a), n, piv, static_cast<float* const*>(c), n,
                                 info, batches);
    case DType::float64:
      return cublasDgetriBatched(h, n, static_cast<const double* const*>(a), n, piv, static_cast<double* const*>(c),
                                 n, info, batches);
    case DType::complex64:
      return cublasCgetriBatched(h, n, static_cast<const cuComplex* const*>(a), n, piv,
                                 static_cast<cuComplex* const*>(c), n, info, batches);
    default:
      return cublasZgetriBatched(h, n, static_cast<const cuDoubleComplex* const*>(a), n, piv,
                                 static_cast<cuDoubleComplex* const*>(c), n, info, batches);
  }
}

// The LU factors of each matrix of `lu` (a copy of the input, factored in place) with their
// pivots (int32 from cuBLAS's batched LU, int64 from cuSOLVER) and per-matrix info.
struct LuFactors {
  std::shared_ptr<Buffer> pivots, info, lu_pointers, work;
  std::vector<char> host_work;  // cuSOLVER's host workspace lives as long as the factors
  size_t pivot_bytes = 8;
};

LuFactors lu_factor(const SolverCall& c, const char* op, DType dt, void* lu, int64_t batches, int64_t n_) {
  const int n = checked_int(n_, op);
  const size_t item = itemsize(dt);
  LuFactors f;
  f.info = c.scratch(static_cast<size_t>(batches) * sizeof(int));
  if (use_batched_lu(batches, n)) {
    f.pivot_bytes = 4;
    f.pivots = c.scratch(static_cast<size_t>(batches) * n * 4);
    f.lu_pointers = c.pointers(lu, batches, static_cast<int64_t>(n) * n * item);
    const cuda::BlasLock b = cuda::lock_blas(c.dev, c.stream);
    const int count = checked_int(batches, op);
    LOOM_CUBLAS_CHECK(getrf_batched(b.handle, n, f.lu_pointers->data(), static_cast<int*>(f.pivots->data()),
                                    static_cast<int*>(f.info->data()), count, dt));
    return f;
  }
  f.pivots = c.scratch(static_cast<size_t>(batches) * n * 8);
  const cuda::SolverLock s = cuda::lock_solver(c.dev, c.stream);
  const cudaDataType t = cuda::solver_type(dt);
  size_t dev_bytes = 0, host_bytes = 0;
  LOOM_CUSOLVER_CHECK(cusolverDnXgetrf_bufferSize(s.handle, s.params, n, n, t, lu, n, t, &dev_bytes, &host_bytes));
  f.work = c.scratch(dev_bytes);
  f.host_work.resize(host_bytes + 1);
  for (int64_t b = 0; b < batches; ++b)
    LOOM_CUSOLVER_CHECK(cusolverDnXgetrf(s.handle, s.params, n, n, t, static_cast<char*>(lu) + b * n * n * item, n,
                                         static_cast<int64_t*>(f.pivots->data()) + b * n, t, f.work->data(), dev_bytes,
                                         f.host_work.data(), host_bytes, static_cast<int*>(f.info->data()) + b));
  return f;
}

}  // namespace

// A X = B with A row-major: factor M = A.T, then solve with M.T (op 'T'). The right-hand
// sides come transposed (bt: each row one b), which is the column-major n x k matrix B.
void solve(const Array& a, const Array& bt, const Array& xt) {
  const char* op = "solve";
  SolverCall c(a, {&bt, &xt});
  const DType dt = a.dtype();
  const int64_t batches = a.shape()[0], n = a.shape()[1];
  const int k = checked_int(bt.shape()[1], op), ni = checked_int(n, op);
  const std::shared_ptr<Buffer> lu = c.scratch(a.nbytes());
  c.copy(lu->data(), a.data(), a.nbytes());
  c.copy(xt.data(), bt.data(), bt.nbytes());
  const LuFactors f = lu_factor(c, op, dt, lu->data(), batches, n);
  const size_t item = a.itemsize();
  if (f.pivot_bytes == 4) {
    const std::shared_ptr<Buffer> xp = c.pointers(xt.data(), batches, static_cast<int64_t>(k) * n * item);
    const cuda::BlasLock b = cuda::lock_blas(c.dev, c.stream);
    int arg_info = 0;  // getrsBatched reports only argument errors, on the host
    LOOM_CUBLAS_CHECK(getrs_batched(b.handle, ni, k, f.lu_pointers->data(), static_cast<const int*>(f.pivots->data()),
                                    xp->data(), &arg_info, checked_int(batches, op), dt));
  } else {
    const cuda::SolverLock s = cuda::lock_solver(c.dev, c.stream);
    const cudaDataType t = cuda::solver_type(dt);
    const std::shared_ptr<Buffer> rs_info = c.scratch(sizeof(int));
    for (int64_t b = 0; b < batches; ++b)
      LOOM_CUSOLVER_CHECK(cusolverDnXgetrs(s.handle, s.params, CUBLAS_OP_T, ni, k, t,
                                           static_cast<const char*>(lu->data()) + b * n * n * item, ni,
                                           static_cast<const int64_t*>(f.pivots->data()) + b * n, t,
                                           static_cast<char*>(xt.data()) + b * k * n * item, ni,
                                           static_cast<int*>(rs_info->data())));
  }
  c.written({&xt});
  c.check_info(op, "singular matrix", static_cast<const int*>(f.info->data()), batches);
}

// inv(M) for M = A.T is inv(A).T, which read column-major is inv(A) row-major: the LU of M,
// then getri (batched, out of place) or getrs against the identity write out directly.
void inv(const Array& a, const Array& out) {
  const char* op = "inv";
  SolverCall c(a, {&out});
  const DType dt = a.dtype();
  const int64_t batches = a.shape()[0], n = a.shape()[1];
  const int ni = checked_int(n, op);
  const size_t item = a.itemsize();
  const std::shared_ptr<Buffer> lu = c.scratch(a.nbytes());
  c.copy(lu->data(), a.data(), a.nbytes());
  const LuFactors f = lu_factor(c, op, dt, lu->data(), batches, n);
  if (f.pivot_bytes == 4) {
    const std::shared_ptr<Buffer> op_ptrs = c.pointers(out.data(), batches, static_cast<int64_t>(n) * n * item);
    const std::shared_ptr<Buffer> ri_info = c.scratch(static_cast<size_t>(batches) * sizeof(int));
    const cuda::BlasLock b = cuda::lock_blas(c.dev, c.stream);
    LOOM_CUBLAS_CHECK(getri_batched(b.handle, ni, f.lu_pointers->data(), static_cast<const int*>(f.pivots->data()),
                                    op_ptrs->data(), static_cast<int*>(ri_info->data()), checked_int(batches, op), dt));
  } else {
    c.identity(dt, out.data(), batches, n);
    const cuda::SolverLock s = cuda::lock_solver(c.dev, c.stream);
    const cudaDataType t = cuda::solver_type(dt);
    const std::shared_ptr<Buffer> rs_info = c.scratch(sizeof(int));
    for (int64_t b = 0; b < batches; ++b)
      LOOM_CUSOLVER_CHECK(cusolverDnXgetrs(s.handle, s.params, CUBLAS_OP_N, ni, ni, t,
                                           static_cast<const char*>(lu->data()) + b * n * n * item, ni,
                                           static_cast<const int64_t*>(f.pivots->data()) + b * n, t,
                                           static_cast<char*>(out.data()) + b * n * n * item, ni,
                                           static_cast<int*>(rs_info->data())));
  }
  c.written({&out});
  c.check_info(op, "singular matrix", static_cast<const int*>(f.info->data()), batches);
}

// det(A) = det(A.T): the LU factors of M = A.T give it, with one sign flip per row swap; an
// exact zero pivot is NumPy's (0, -inf), not an error, so nothing waits for the device.
void slogdet(const Array& a, const Array& sign, const Array& logabs) {
  SolverCall c(a, {&sign, &logabs});
  const int64_t batches = a.shape()[0], n = a.shape()[1];
  const std::shared_ptr<Buffer> lu = c.scratch(a.nbytes());
  c.copy(lu->data(), a.data(), a.nbytes());
  const LuFactors f = lu_factor(c, "slogdet", a.dtype(), lu->data(), batches, n);
  c.slogdet_from_lu(a.dtype(), lu->data(), f.pivots->data(), f.pivot_bytes, sign.data(), logabs.data(), batches, n);
  c.written({&sign, &logabs});
}

// potrf on the lower triangle runs 1.7x faster than on the upper one (8192 float32 on an
// H200: 7.7 against 12.9 ms), so A's lower triangle is transposed into column-major form
// first rather than read in place as M = A.T's upper one; L comes back column-major and is
// transposed into l with the unused triangle zeroed in the same pass.
void cholesky(const Array& a, const Array& l) {
  const char* op = "cholesky";
  SolverCall c(a, {&l});
  const DType dt = a.dtype();
  const int64_t batches = a.shape()[0], n = a.shape()[1];
  const int ni = checked_int(n, op);
  const size_t item = a.itemsize();
  const std::shared_ptr<Buffer> m = c.scratch(a.nbytes());
  c.transpose(dt, a.data(), m->data(), batches, n, n);
  const std::shared_ptr<Buffer> info = c.scratch(static_cast<size_t>(batches) * sizeof(int));
  std::vector<char> host_work;  // cuSOLVER may read it until the work is done: kept to the end
  if (cuda::small_batched(batches, n)) {
    cuda::potrf_batched(c, dt, m->data(), batches, ni, static_cast<int*>(info->data()));
  } else {
    const cuda::SolverLock s = cuda::lock_solver(c.dev, c.stream);
    const cudaDataType t = cuda::solver_type(dt);
    size_t dev_bytes = 0, host_bytes = 0;
    LOOM_CUSOLVER_CHECK(cusolverDnXpotrf_bufferSize(s.handle, s.params, CUBLAS_FILL_MODE_LOWER, ni, t, m->data(), ni,
                                                    t, &dev_bytes, &host_bytes));
    const std::shared_ptr<Buffer> work = c.scratch(dev_bytes);
    host_work.resize(host_bytes + 1);
    for (int64_t b = 0; b < batches; ++b)
      LOOM_CUSOLVER_CHECK(cusolverDnXpotrf(s.handle, s.params, CUBLAS_FILL_MODE_LOWER, ni, t,
                                           static_cast<char*>(m->data()) + b * n * n * item, ni, t, work->data(),
                                           dev_bytes, host_work.data(), host_bytes, static_cast<int*>(info->data()) + b));
  }
  c.transpose(dt, m->data(), l.data(), batches, n, n, /*tril=*/true);
  c.written({&l});
  c.check_info(op, "matrix is not positive definite", static_cast<const int*>(info->data()), batches);
}

namespace {

// syevd on M = A.T with 'U' reads A's lower triangle; the eigenvectors come back as M's
// columns, which read row-major are rows: they are transposed into v's columns. A complex
// Hermitian A has M = conj(A), whose eigenvectors are the conjugates of A's: it is
// transposed into column-major form first and read through its lower triangle instead.
void symmetric_eigen(const char* op, const Array& a, const Array& w, const Array* v) {
  SolverCall c(a, v ? std::initializer_list<const Array*>{&w, v} : std::initializer_list<const Array*>{&w});
  const DType dt = a.dtype();
  const int64_t batches = a.shape()[0], n = a.shape()[1];
  const int ni = checked_int(n, op);
  const size_t item = a.itemsize(), witem = w.itemsize();
  const bool cplx = is_complex(dt);
  const std::shared_ptr<Buffer> m = c.scratch(a.nbytes());
  if (cplx) c.transpose(dt, a.data(), m->data(), batches, n, n);
  else c.copy(m->data(), a.data(), a.nbytes());
  const cublasFillMode_t fill = cplx ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  const std::shared_ptr<Buffer> info = c.scratch(static_cast<size_t>(batches) * sizeof(int));
  const cusolverEigMode_t jobz = v ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  std::vector<char> host_work;  // cuSOLVER may read it until the work is done: kept to the end
  if (cuda::small_batched(batches, n)) {
    cuda::syevj_batched(c, dt, jobz, fill, m->data(), w.data(), batches, ni, static_cast<int*>(info->data()));
  } else {
    const cuda::SolverLock s = cuda::lock_solver(c.dev, c.stream);
    const cudaDataType t = cuda::solver_type(dt), rt = cuda::solver_real_type(dt);
    size_t dev_bytes = 0, host_bytes = 0;
    LOOM_CUSOLVER_CHECK(cusolverDnXsyevd_bufferSize(s.handle, s.params, jobz, fill, ni, t, m->data(), ni, rt, w.data(),
                                                    t, &dev_bytes, &host_bytes));
    const std::shared_ptr<Buffer> work = c.scratch(dev_bytes);
    host_work.resize(host_bytes + 1);
    for (int64_t b = 0; b < batches; ++b)
      LOOM_CUSOLVER_CHECK(cusolverDnXsyevd(s.handle, s.params, jobz, fill, ni, t,
                                           static_cast<char*>(m->data()) + b * n * n * item, ni, rt,
                                           static_cast<char*>(w.data()) + b * n * witem, t, work->data(), dev_bytes,
                                           host_work.data(), host_bytes, static_cast<int*>(info->data()) + b));
  }
  if (v) c.transpose(dt, m->data(), v->data(), batches, n, n);
  c.written(v ? std::initializer_list<const Array*>{&w, v} : std::initializer_list<const Array*>{&w});
  c.check_info(op, "eigenvalues did not converge", static_cast<const int*>(info->data()), batches);
}

}  // namespace

void eigh(const Array& a, const Array& w, const Array& v) { symmetric_eigen("eigh", a, w, &v); }
void eigvalsh(const Array& a, const Array& w) { symmetric_eigen("eigvalsh", a, w, nullptr); }

}  // namespace loom::gpu_backend
