// CPU eig and eigvals through LAPACK's geev, one matrix of the stack at a time. NumPy hands
// geev the matrix in column-major order (a transposed copy), and so does this file, so the
// eigenvalues come in NumPy's order and the vectors with its normalisation.
#include <complex>
#include <cstring>
#include <vector>

#include "loom/backend/cpu/lapack_util.h"
#include "loom/backend/linalg_decomp.h"

#ifdef LOOM_HAVE_LAPACK
#include "loom/backend/cpu/lapack_decl.h"
#endif

namespace loom::cpu_backend {

using lapack::checked_int;
using lapack::for_type;
using lapack::is_cplx_v;
using lapack::no_lapack;
using lapack::raise;
using lapack::real_t;

#ifdef LOOM_HAVE_LAPACK
namespace {

void general_eigen(const char* op, const Array& a, const Array& w, const Array* v) {
  for_type(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using R = real_t<T>;
    using C = std::complex<R>;
    const int64_t batches = a.shape()[0];
    const int n = checked_int(a.shape()[1], op);
    if (n == 0) return;
    const char jobvr = v ? 'V' : 'N';
    const size_t nn = static_cast<size_t>(n) * n;
    std::vector<T> m(nn), vr(v ? nn : 1);
    std::vector<R> wr(n), wi(n), rwork(2 * static_cast<size_t>(n));
    C* wout = static_cast<C*>(w.data());
    int info = 0;
    auto call = [&](C* wb, T* work, int lwork) {
      if constexpr (is_cplx_v<T>) lapack::geev(jobvr, n, m.data(), wb, vr.data(), work, lwork, rwork.data(), &info);
      else lapack::geev(jobvr, n, m.data(), wr.data(), wi.data(), vr.data(), work, lwork, &info);
    };
    T work_size = 0;
    call(wout, &work_size, -1);
    std::vector<T> work(static_cast<size_t>(std::real(work_size)) + 1);
    for (int64_t b = 0; b < batches; ++b) {
      const T* src = static_cast<const T*>(a.data()) + b * nn;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) m[static_cast<size_t>(j) * n + i] = src[static_cast<size_t>(i) * n + j];
      C* wb = wout + b * n;
      call(wb, work.data(), static_cast<int>(work.size()));
      if (info > 0) raise(op, "eigenvalues did not converge", b, batches);
      if constexpr (!is_cplx_v<T>)
        for (int j = 0; j < n; ++j) wb[j] = C(wr[j], wi[j]);
      if (!v) continue;
      // Column j of VR (column-major) is eigenvector j; v is row-major with it as column j.
      C* out = static_cast<C*>(v->data()) + b * nn;
      auto col = [&](int j, int i) { return vr[static_cast<size_t>(j) * n + i]; };
      for (int j = 0; j < n; ++j) {
        if constexpr (!is_cplx_v<T>) {
          // A real geev packs a conjugate pair (wi[j] > 0) as VR(:, j) +- i VR(:, j + 1).
          if (wi[j] > 0 && j + 1 < n) {
            for (int i = 0; i < n; ++i) {
              out[static_cast<size_t>(i) * n + j] = C(col(j, i), col(j + 1, i));
              out[static_cast<size_t>(i) * n + j + 1] = C(col(j, i), -col(j + 1, i));
            }
            ++j;
            continue;
          }
        }
        for (int i = 0; i < n; ++i) out[static_cast<size_t>(i) * n + j] = C(col(j, i));
      }
    }
  });
}

}  // namespace

void eig(const Array& a, const Array& w, const Array& v) { general_eigen("eig", a, w, &v); }
void eigvals(const Array& a, const Array& w) { general_eigen("eigvals", a, w, nullptr); }

#else

void eig(const Array&, const Array&, const Array&) { no_lapack("eig"); }
void eigvals(const Array&, const Array&) { no_lapack("eigvals"); }

#endif

}  // namespace loom::cpu_backend
