// GPU eig and eigvals through cuSOLVER's Xgeev (CUDA 12.6 and later), one matrix of the stack
// at a time. As on cpu(), geev gets the matrix in column-major order (a transposed copy), so
// the eigenvalues come in LAPACK's order. A real matrix's eigenvalues come back complex
// (cuSOLVER's option of a complex W) and its right eigenvectors packed in real conjugate
// pairs as LAPACK's, which a kernel unpacks into complex columns.
#include <cstdint>
#include <vector>

#include "loom/backend/cuda/linalg_solver.h"
#include "loom/backend/linalg_decomp.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {
namespace {

using cuda::SolverCall;

void general_eigen(const char* op, const Array& a, const Array& w, const Array* v) {
  SolverCall c(a, v ? std::initializer_list<const Array*>{&w, v} : std::initializer_list<const Array*>{&w});
  const DType dt = a.dtype();
  const int64_t batches = a.shape()[0], n = a.shape()[1];
  if (n > INT32_MAX) throw UnsupportedError(std::string("[linalg.") + op + "] a dimension over 2^31-1 on a GPU");
  const size_t item = a.itemsize(), witem = w.itemsize();
  const bool cplx = is_complex(dt);
  const std::shared_ptr<Buffer> m = c.scratch(a.nbytes());
  c.transpose(dt, a.data(), m->data(), batches, n, n);
  // Right eigenvectors, column-major: complex straight from geev, or real and packed.
  const std::shared_ptr<Buffer> vr = c.scratch(v ? a.nbytes() : item);
  const std::shared_ptr<Buffer> info = c.scratch(static_cast<size_t>(batches) * sizeof(int));
  const cusolverEigMode_t jobvr = v ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const int64_t ldvr = v ? n : 1;
  std::vector<char> host_work;  // cuSOLVER may read it until the work is done: kept to the end
  {
    const cuda::SolverLock s = cuda::lock_solver(c.dev, c.stream);
    const cudaDataType t = cuda::solver_type(dt), wt = cuda::solver_type(w.dtype());
    size_t dev_bytes = 0, host_bytes = 0;
    LOOM_CUSOLVER_CHECK(cusolverDnXgeev_bufferSize(s.handle, s.params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, t,
                                                   m->data(), n, wt, w.data(), t, nullptr, 1, t, vr->data(), ldvr, t,
                                                   &dev_bytes, &host_bytes));
    const std::shared_ptr<Buffer> work = c.scratch(dev_bytes);
    host_work.resize(host_bytes + 1);
    for (int64_t b = 0; b < batches; ++b)
      LOOM_CUSOLVER_CHECK(cusolverDnXgeev(
          s.handle, s.params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, t, static_cast<char*>(m->data()) + b * n * n * item,
          n, wt, static_cast<char*>(w.data()) + b * n * witem, t, nullptr, 1, t,
          static_cast<char*>(vr->data()) + (v ? b * n * n * item : 0), ldvr, t, work->data(), dev_bytes,
          host_work.data(), host_bytes, static_cast<int*>(info->data()) + b));
  }
  if (v && cplx) c.transpose(dt, vr->data(), v->data(), batches, n, n);  // column j -> column j, row-major
  if (v && !cplx) c.eig_unpack(dt, vr->data(), w.data(), v->data(), batches, n);
  c.written(v ? std::initializer_list<const Array*>{&w, v} : std::initializer_list<const Array*>{&w});
  c.check_info(op, "eigenvalues did not converge", static_cast<const int*>(info->data()), batches);
}

}  // namespace

void eig(const Array& a, const Array& w, const Array& v) { general_eigen("eig", a, w, &v); }
void eigvals(const Array& a, const Array& w) { general_eigen("eigvals", a, w, nullptr); }

}  // namespace loom::gpu_backend
