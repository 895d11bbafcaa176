// GPU SVD (cuSOLVER's Jacobi gesvdj, falling back to Xgesvd; gesvdjBatched for stacks of
// matrices up to 32 x 32) and Householder QR (Xgeqrf, orgqr), one matrix of the stack at a time. Column-major cuSOLVER sees a row-major A (m x n) as M = A.T (n x m).
#include <cuComplex.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "loom/backend/cuda/linalg_small_batched.h"
#include "loom/backend/cuda/linalg_solver.h"
#include "loom/backend/linalg_decomp.h"
#include "loom/core/error.h"
#include "loom/runtime/cuda/check.h"

namespace loom::gpu_backend {
namespace {

using cuda::SolverCall;

int checked_int(int64_t v, const char* op) {
  if (v > INT32_MAX) throw UnsupportedError(std::string("[linalg.") + op + "] a dimension over 2^31-1 on a GPU");
  return static_cast<int>(v);
}

// gesvd takes only matrices with at least as many rows as columns.
// - A wide or square (n >= m): M = A.T qualifies, and M = Um S VTm gives A = VTm.T S Um.T:
//   cuSOLVER's U, read row-major, is A's vh, and its VT, read row-major, is A's u, so the
//   factors are written straight into vh and u.
// - A tall (m > n): A is transposed into its column-major form first; then U and VT read
//   row-major are u.T and vh.T, transposed into place.
void gesvd_stack(const char* op, const Array& a, const Array* u, const Array& s, const Array* vh) {
  SolverCall c(a, u ? std::initializer_list<const Array*>{u, &s, vh} : std::initializer_list<const Array*>{&s});
  const DType dt = a.dtype();
  const int64_t batches = a.shape()[0], m = a.shape()[1], n = a.shape()[2], k = std::min(m, n);
  const size_t item = a.itemsize();
  const bool tall = m > n;
  const int64_t rows = tall ? m : n, cols = tall ? n : m;  // of the matrix gesvd factors (rows >= cols = k)
  const std::shared_ptr<Buffer> mat = c.scratch(a.nbytes());
  if (tall) c.transpose(dt, a.data(), mat->data(), batches, m, n);
  else c.copy(mat->data(), a.data(), a.nbytes());
  // Full factors: the rows x rows left matrix; the right one is cols x cols = k x k either way.
  const bool full = u && (tall ? u->shape()[2] == m : vh->shape()[1] == n) && rows != k;
  const signed char jobu = !u ? 'N' : full ? 'A' : 'S', jobvt = !u ? 'N' : 'A';
  const int64_t ucols = full ? rows : k;
  // Where U (rows x ucols) and VT (k x k) land: straight in vh and u, or in scratch when tall.
  std::shared_ptr<Buffer> u_tmp, vt_tmp;
  void* u_base = nullptr;
  void* vt_base = nullptr;
  if (u && !tall) {
    u_base = vh->data();
    vt_base = u->data();
  } else {
    u_tmp = c.scratch(u ? static_cast<size_t>(batches * rows * ucols) * item : item);
    vt_tmp = c.scratch(u ? static_cast<size_t>(batches * k * k) * item : item);
    u_base = u_tmp->data();
    vt_base = vt_tmp->data();
  }
  const int64_t u_stride = u ? rows * ucols : 0, vt_stride = u ? k * k : 0;
  const int ldu = u ? checked_int(rows, op) : 1, ldvt = u ? checked_int(k, op) : 1;
  const std::shared_ptr<Buffer> info = c.scratch(static_cast<size_t>(batches) * sizeof(int));
  std::vector<char> host_work;  // cuSOLVER may read it until the work is done: kept to the end
  {
    const cuda::SolverLock h = cuda::lock_solver(c.dev, c.stream);
    const cudaDataType t = cuda::solver_type(dt), rt = cuda::solver_real_type(dt);
    const int64_t r = checked_int(rows, op), q = checked_int(cols, op);
    size_t dev_bytes = 0, host_bytes = 0;
    LOOM_CUSOLVER_CHECK(cusolverDnXgesvd_bufferSize(h.handle, h.params, jobu, jobvt, r, q, t, mat->data(), r, rt,
                                                    s.data(), t, u_base, ldu, t, vt_base, ldvt, t, &dev_bytes,
                                                    &host_bytes));
    const std::shared_ptr<Buffer> work = c.scratch(dev_bytes);
    host_work.resize(host_bytes + 1);
    for (int64_t b = 0; b < batches; ++b)
      LOOM_CUSOLVER_CHECK(cusolverDnXgesvd(
          h.handle, h.params, jobu, jobvt, r, q, t, static_cast<char*>(mat->data()) + b * m * n * item, r, rt,
          static_cast<char*>(s.data()) + b * k * s.itemsize(), t, static_cast<char*>(u_base) + b * u_stride * item, ldu, t,
          static_cast<char*>(vt_base) + b * vt_stride * item, ldvt, t, work->data(), dev_bytes, host_work.data(),
          host_bytes, static_cast<int*>(info->data()) + b));
  }
  if (u && tall) {
    c.transpose(dt, u_base, u->data(), batches, ucols, rows);  // U stored as (ucols, m) -> u (m, ucols)
    c.transpose(dt, vt_base, vh->data(), batches, k, k);       // VT stored as VT.T -> vh
  }
  if (u) c.written({u, &s, vh});
  else c.written({&s});
  c.check_info(op, "SVD did not converge", static_cast<const int*>(info->data()), batches);
}

// gesvdj by element type: work and the factors in the element type, S in its real type.
cusolverStatus_t gesvdj_buffer(cusolverDnHandle_t h, cusolverEigMode_t jobz, int econ, int m, int n, void* a,
                               void* s, void* u, int ldu, void* v, int ldv, int* lwork, gesvdjInfo_t params, DType dt) {
  switch (dt) {
    case DType::float32:
      return cusolverDnSgesvdj_bufferSize(h, jobz, econ, m, n, static_cast<float*>(a), m, static_cast<float*>(s),
                                          static_cast<float*>(u), ldu, static_cast<float*>(v), ldv, lwork, params);
    case DType::float64:
      return cusolverDnDgesvdj_bufferSize(h, jobz, econ, m, n, static_cast<double*>(a), m, static_cast<double*>(s),
                                          static_cast<double*>(u), ldu, static_cast<double*>(v), ldv, lwork, params);
    case DType::complex64:
      return cusolverDnCgesvdj_bufferSize(h, jobz, econ, m, n, static_cast<cuComplex*>(a), m, static_cast<float*>(s),
                                          static_cast<cuComplex*>(u), ldu, static_cast<cuComplex*>(v), ldv, lwork,
                                          params);
    default:
      return cusolverDnZgesvdj_bufferSize(h, jobz, econ, m, n, static_cast<cuDoubleComplex*>(a), m,
                                          static_cast<double*>(s), static_cast<cuDoubleComplex*>(u), ldu,
                                          static_cast<cuDoubleComplex*>(v), ldv, lwork, params);
  }
}

cusolverStatus_t gesvdj_call(cusolverDnHandle_t h, cusolverEigMode_t jobz, int econ, int m, int n, void* a, void* s,
                             void* u, int ldu, void* v, int ldv, void* work, int lwork, int* info, gesvdjInfo_t params,
                             DType dt) {
  switch (dt) {
    case DType::float32:
      return cusolverDnSgesvdj(h, jobz, econ, m, n, static_cast<float*>(a), m, static_cast<float*>(s),
                               static_cast<float*>(u), ldu, static_cast<float*>(v), ldv, static_cast<float*>(work),
                               lwork, info, params);
    case DType::float64:
      return cusolverDnDgesvdj(h, jobz, econ, m, n, static_cast<double*>(a), m, static_cast<double*>(s),
                               static_cast<double*>(u), ldu, static_cast<double*>(v), ldv, static_cast<double*>(work),
                               lwork, info, params);
    case DType::complex64:
      return cusolverDnCgesvdj(h, jobz, econ, m, n, static_cast<cuComplex*>(a), m, static_cast<float*>(s),
                               static_cast<cuComplex*>(u), ldu, static_cast<cuComplex*>(v), ldv,
                               static_cast<cuComplex*>(work), lwork, info, params);
    default:
      return cusolverDnZgesvdj(h, jobz, econ, m, n, static_cast<cuDoubleComplex*>(a), m, static_cast<double*>(s),
                               static_cast<cuDoubleComplex*>(u), ldu, static_cast<cuDoubleComplex*>(v), ldv,
                               static_cast<cuDoubleComplex*>(work), lwork, info, params);
  }
}

struct GesvdjParams {
  gesvdjInfo_t p = nullptr;
  GesvdjParams() { LOOM_CUSOLVER_CHECK(cusolverDnCreateGesvdjInfo(&p)); }
  ~GesvdjParams() { cusolverDnDestroyGesvdjInfo(p); }
  GesvdjParams(const GesvdjParams&) = delete;
  GesvdjParams& operator=(const GesvdjParams&) = delete;
};

// Jacobi SVD (gesvdj), PyTorch's default driver: 1.5x faster than gesvd at 2048^2 float32 on
// an H200 (210 against 324 ms). It factors the column-major matrix with rows >= cols as
// gesvd_stack does, into U S V.T, so exactly one factor needs a transpose either way:
// - A wide or square: M = A.T = Um S Vm.T, A = Vm S Um.T: Um read row-major is vh; u = Vm.
// - A tall (transposed into column-major first): A = U S V.T: V read row-major is vh; u = U.
// (Complex: .T is ^H in those factorizations, which conjugates u, or vh, once more.)
// Returns false, with the outputs unspecified, when a matrix did not converge.
bool gesvdj_stack(const char* op, const Array& a, const Array* u, const Array& s, const Array* vh) {
  SolverCall c(a, u ? std::initializer_list<const Array*>{u, &s, vh} : std::initializer_list<const Array*>{&s});
  const DType dt = a.dtype();
  const int64_t batches = a.shape()[0], m = a.shape()[1], n = a.shape()[2], k = std::min(m, n);
  const size_t item = a.itemsize();
  const bool tall = m > n;
  const int64_t rows = tall ? m : n;  // of the matrix gesvdj factors; its columns are k
  const std::shared_ptr<Buffer> mat = c.scratch(a.nbytes());
  if (tall) c.transpose(dt, a.data(), mat->data(), batches, m, n);
  else c.copy(mat->data(), a.data(), a.nbytes());
  const bool full = u && (tall ? u->shape()[2] == m : vh->shape()[1] == n) && rows != k;
  const int64_t ucols = full ? rows : k;
  const std::shared_ptr<Buffer> tmp =
      c.scratch(u ? static_cast<size_t>(batches * (tall ? rows * ucols : k * k)) * item : item);
  void* left = !u ? tmp->data() : tall ? tmp->data() : vh->data();  // rows x ucols
  void* right = !u ? tmp->data() : tall ? vh->data() : tmp->data();  // k x k
  const std::shared_ptr<Buffer> info = c.scratch(static_cast<size_t>(batches) * sizeof(int));
  const cusolverEigMode_t jobz = u ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const int r = checked_int(rows, op), q = checked_int(k, op), econ = full ? 0 : 1;
  {
    const cuda::SolverLock h = cuda::lock_solver(c.dev, c.stream);
    const GesvdjParams params;
    int lwork = 0;
    LOOM_CUSOLVER_CHECK(gesvdj_buffer(h.handle, jobz, econ, r, q, mat->data(), s.data(), left, r, right, q, &lwork,
                                      params.p, dt));
    const std::shared_ptr<Buffer> work = c.scratch(static_cast<size_t>(std::max(lwork, 1)) * item);
    const int64_t left_stride = u ? rows * ucols : 0, right_stride = u ? k * k : 0;
    for (int64_t b = 0; b < batches; ++b)
      LOOM_CUSOLVER_CHECK(gesvdj_call(h.handle, jobz, econ, r, q, static_cast<char*>(mat->data()) + b * m * n * item,
                                      static_cast<char*>(s.data()) + b * k * s.itemsize(),
                                      static_cast<char*>(left) + b * left_stride * item, r,
                                      static_cast<char*>(right) + b * right_stride * item, q, work->data(), lwork,
                                      static_cast<int*>(info->data()) + b, params.p, dt));
  }
  if (u && tall) c.transpose(dt, left, u->data(), batches, ucols, m);  // U stored as (ucols, m) -> u (m, ucols)
  if (u && !tall) c.transpose(dt, right, u->data(), batches, k, k);    // Vm stored as Vm.T -> u
  // Complex: A = conj(Vm) S Um.T (wide) and vh = V^H (tall) need the conjugates of the above.
  if (u && is_complex(dt)) c.conj(dt, tall ? vh->data() : u->data(), tall ? vh->size() : u->size());
  if (u) c.written({u, &s, vh});
  else c.written({&s});
  std::vector<int> host(static_cast<size_t>(batches));
  c.download_info(static_cast<const int*>(info->data()), host);
  for (int64_t b = 0; b < batches; ++b)
    if (host[b] != 0) return false;  // k + 1: no convergence in the sweeps allowed
  return true;
}

// Rows of `width` bytes at a pitch of `from` bytes, packed at a pitch of `to` (the leading
// rows or columns of full factors, for economy ones).
void copy_rows(const SolverCall& c, void* dst, size_t to, const void* src, size_t from, size_t width, int64_t rows) {
  LOOM_CUDA_CHECK(cudaMemcpy2DAsync(dst, to, src, from, width, static_cast<size_t>(rows), cudaMemcpyDeviceToDevice,
                                    static_cast<cudaStream_t>(c.stream)));
}

// A stack of matrices of at most 32 x 32: one gesvdjBatched call for all of them. It factors
// the column-major M = A.T (n x m) as Um S Vm^H with full factors (it has no economy mode and
// returns V, not V^H), so A = conj(Vm) S Um^T: Um (n x n), read row-major, is the full vh;
// Vm (m x m), read row-major, is Vm^T, which a transpose (and for complex a conjugate) turn
// into the full u. Economy factors are the leading rows of the full vh (wide A) or the
// leading columns of the full u (tall A). Returns false when a matrix did not converge.
bool gesvdj_batched_stack(const char* op, const Array& a, const Array* u, const Array& s, const Array* vh) {
  SolverCall c(a, u ? std::initializer_list<const Array*>{u, &s, vh} : std::initializer_list<const Array*>{&s});
  const DType dt = a.dtype();
  const int64_t batches = a.shape()[0], m = a.shape()[1], n = a.shape()[2], k = std::min(m, n);
  const size_t item = a.itemsize();
  const std::shared_ptr<Buffer> mat = c.scratch(a.nbytes());  // overwritten by the sweeps
  c.copy(mat->data(), a.data(), a.nbytes());
  const bool vh_full = u && vh->shape()[1] == n, u_full = u && u->shape()[2] == m;
  const std::shared_ptr<Buffer> left_tmp = vh_full ? nullptr : c.scratch(static_cast<size_t>(batches * n * n) * item);
  const std::shared_ptr<Buffer> right = c.scratch(static_cast<size_t>(batches * m * m) * item);
  void* left = vh_full ? vh->data() : left_tmp->data();
  const std::shared_ptr<Buffer> info = c.scratch(static_cast<size_t>(batches) * sizeof(int));
  const cusolverEigMode_t jobz = u ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  cuda::gesvdj_batched(c, dt, jobz, mat->data(), s.data(), left, right->data(), batches, static_cast<int>(n),
                       static_cast<int>(m), static_cast<int*>(info->data()));
  if (u) {
    if (!vh_full) copy_rows(c, vh->data(), k * n * item, left, n * n * item, k * n * item, batches);
    const std::shared_ptr<Buffer> u_tmp = u_full ? nullptr : c.scratch(static_cast<size_t>(batches * m * m) * item);
    void* uf = u_full ? u->data() : u_tmp->data();
    c.transpose(dt, right->data(), uf, batches, m, m);
    if (!u_full) copy_rows(c, u->data(), k * item, uf, m * item, k * item, batches * m);
    if (is_complex(dt)) c.conj(dt, u->data(), u->size());
    c.written({u, &s, vh});
  } else {
    c.written({&s});
  }
  std::vector<int> host(static_cast<size_t>(batches));
  c.download_info(static_cast<const int*>(info->data()), host);
  for (int64_t b = 0; b < batches; ++b)
    if (host[b] != 0) return false;
  return true;
}

void svd_stack(const char* op, const Array& a, const Array* u, const Array& s, const Array* vh) {
  const int64_t batches = a.shape()[0], m = a.shape()[1], n = a.shape()[2];
  if (cuda::small_batched(batches, std::max(m, n)) && std::min(m, n) > 0 && gesvdj_batched_stack(op, a, u, s, vh))
    return;
  // gesvd, slower but direct, for the rare matrix on which the Jacobi sweeps stall.
  if (!gesvdj_stack(op, a, u, s, vh)) gesvd_stack(op, a, u, s, vh);
}

// orgqr (ungqr for complex) by element type.
cusolverStatus_t orgqr_buffer(cusolverDnHandle_t h, int m, int n, int k, void* a, const void* tau, int* lwork,
                              DType dt) {
  switch (dt) {
    case DType::float32:
      return cusolverDnSorgqr_bufferSize(h, m, n, k, static_cast<float*>(a), m, static_cast<const float*>(tau), lwork);
    case DType::float64:
      return cusolverDnDorgqr_bufferSize(h, m, n, k, static_cast<double*>(a), m, static_cast<const double*>(tau),
                                         lwork);
    case DType::complex64:
      return cusolverDnCungqr_bufferSize(h, m, n, k, static_cast<cuComplex*>(a), m,
                                         static_cast<const cuComplex*>(tau), lwork);
    default:
      return cusolverDnZungqr_bufferSize(h, m, n, k, static_cast<cuDoubleComplex*>(a), m,
                                         static_cast<const cuDoubleComplex*>(tau), lwork);
  }
}

cusolverStatus_t orgqr_call(cusolverDnHandle_t h, int m, int n, int k, void* a, const void* tau, void* work,
                            int lwork, int* info, DType dt) {
  switch (dt) {
    case DType::float32:
      return cusolverDnSorgqr(h, m, n, k, static_cast<float*>(a), m, static_cast<const float*>(tau),
                              static_cast<float*>(work), lwork, info);
    case DType::float64:
      return cusolverDnDorgqr(h, m, n, k, static_cast<double*>(a), m, static_cast<const double*>(tau),
                              static_cast<double*>(work), lwork, info);
    case DType::complex64:
      return cusolverDnCungqr(h, m, n, k, static_cast<cuComplex*>(a), m, static_cast<const cuComplex*>(tau),
                              static_cast<cuComplex*>(work), lwork, info);
    default:
      return cusolverDnZungqr(h, m, n, k, static_cast<cuDoubleComplex*>(a), m,
                              static_cast<const cuDoubleComplex*>(tau), static_cast<cuDoubleComplex*>(work), lwork,
                              info);
  }
}

}  // namespace

void svd(const Array& a, const Array& u, const Array& s, const Array& vh) { svd_stack("svd", a, &u, s, &vh); }
void svdvals(const Array& a, const Array& s) { svd_stack("svdvals", a, nullptr, s, nullptr); }

// at (B, n, m) is column-major A (m x n): geqrf runs on it as it is.
void geqrf(const Array& at, const Array& h, const Array& tau) {
  SolverCall c(at, {&h, &tau});
  const int64_t batches = at.shape()[0], n = at.shape()[1], m = at.shape()[2], k = std::min(m, n);
  const size_t item = at.itemsize();
  c.copy(h.data(), at.data(), at.nbytes());
  if (k == 0) {
    c.written({&h, &tau});
    return;
  }
  const std::shared_ptr<Buffer> info = c.scratch(static_cast<size_t>(batches) * sizeof(int));
  std::vector<char> host_work;
  {
    const cuda::SolverLock s = cuda::lock_solver(c.dev, c.stream);
    const cudaDataType t = cuda::solver_type(at.dtype());
    const int64_t mi = checked_int(m, "qr"), ni = checked_int(n, "qr");
    size_t dev_bytes = 0, host_bytes = 0;
    LOOM_CUSOLVER_CHECK(cusolverDnXgeqrf_bufferSize(s.handle, s.params, mi, ni, t, h.data(), mi, t, tau.data(), t,
                                                    &dev_bytes, &host_bytes));
    const std::shared_ptr<Buffer> work = c.scratch(dev_bytes);
    host_work.resize(host_bytes + 1);
    for (int64_t b = 0; b < batches; ++b)
      LOOM_CUSOLVER_CHECK(cusolverDnXgeqrf(s.handle, s.params, mi, ni, t, static_cast<char*>(h.data()) + b * m * n * item,
                                           mi, t, static_cast<char*>(tau.data()) + b * k * item, t, work->data(),
                                           dev_bytes, host_work.data(), host_bytes,
                                           static_cast<int*>(info->data()) + b));
  }
  c.written({&h, &tau});
  c.check_info("qr", "QR factorization failed", static_cast<const int*>(info->data()), batches);
}

// q (B, c, m): Q's first c columns, column-major, from the reflectors in h and tau.
void orgqr(const Array& h, const Array& tau, const Array& q) {
  SolverCall c(h, {&tau, &q});
  const DType dt = h.dtype();
  const int64_t batches = h.shape()[0], cols = h.shape()[1], m = h.shape()[2], k = tau.shape()[1];
  const size_t item = h.itemsize();
  c.copy(q.data(), h.data(), h.nbytes());
  if (cols == 0 || m == 0) {
    c.written({&q});
    return;
  }
  const int mi = checked_int(m, "qr"), ci = checked_int(cols, "qr"), ki = checked_int(k, "qr");
  const std::shared_ptr<Buffer> info = c.scratch(static_cast<size_t>(batches) * sizeof(int));
  {
    const cuda::SolverLock s = cuda::lock_solver(c.dev, c.stream);
    int lwork = 0;
    LOOM_CUSOLVER_CHECK(orgqr_buffer(s.handle, mi, ci, ki, q.data(), tau.data(), &lwork, dt));
    const std::shared_ptr<Buffer> work = c.scratch(static_cast<size_t>(std::max(lwork, 1)) * item);
    for (int64_t b = 0; b < batches; ++b)
      LOOM_CUSOLVER_CHECK(orgqr_call(s.handle, mi, ci, ki, static_cast<char*>(q.data()) + b * m * cols * item,
                                     static_cast<const char*>(tau.data()) + b * k * item, work->data(), lwork,
                                     static_cast<int*>(info->data()) + b, dt));
  }
  c.written({&q});
  c.check_info("qr", "forming Q failed", static_cast<const int*>(info->data()), batches);
}

}  // namespace loom::gpu_backend
