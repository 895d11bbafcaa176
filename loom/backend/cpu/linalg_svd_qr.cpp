// CPU SVD (gesdd) and Householder QR (geqrf, orgqr / ungqr) through LAPACK, one matrix of
// the stack at a time; float32, float64, complex64 and complex128.
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
using lapack::real_t;
using lapack::no_lapack;
using lapack::raise;

#ifdef LOOM_HAVE_LAPACK
namespace {

// A (m x n) row-major is M = A.T (n x m) to LAPACK, and M = Um S VTm gives A = VTm.T S Um.T:
// LAPACK's U, read row-major, is A's vh, and its VT, read row-major, is A's u. So gesdd runs
// on M and writes A's factors in place, with no transposes.
void gesdd_stack(const char* op, const Array& a, const Array* u, const Array& s, const Array* vh) {
  for_type(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using R = real_t<T>;
    const int64_t batches = a.shape()[0];
    const int m = checked_int(a.shape()[1], op), n = checked_int(a.shape()[2], op);
    const int k = std::min(m, n);
    if (k == 0) return;
    const bool full = u && u->shape()[2] == m && m != k;
    const bool full_v = vh && vh->shape()[1] == n && n != k;
    const char jobz = !u ? 'N' : (full || full_v) ? 'A' : 'S';
    const int ucols = jobz == 'A' ? n : k;   // columns of LAPACK's U (n x ucols): rows of A's vh
    const int vtrows = jobz == 'A' ? m : k;  // rows of LAPACK's VT (vtrows x m): columns of A's u
    std::vector<T> mat(static_cast<size_t>(m) * n);
    std::vector<int> iwork(8 * static_cast<size_t>(k));
    std::vector<T> lu(jobz == 'N' ? 1 : static_cast<size_t>(n) * ucols), lvt(jobz == 'N' ? 1 : static_cast<size_t>(vtrows) * m);
    // Complex gesdd's real workspace (LAPACK's documented bound for any jobz).
    const size_t mx = std::max(m, n), mn = k;
    std::vector<R> rwork(is_cplx_v<T> ? std::max(5 * mn * mn + 7 * mn, 2 * mx * mn + 2 * mn * mn + mn) : 1);
    R* sp = static_cast<R*>(s.data());
    int info = 0;
    auto call = [&](T* in, R* out, T* work, int lwork) {
      if constexpr (is_cplx_v<T>)
        lapack::gesdd(jobz, n, m, in, out, lu.data(), n, lvt.data(), jobz == 'N' ? 1 : vtrows, work, lwork,
                      rwork.data(), iwork.data(), &info);
      else
        lapack::gesdd(jobz, n, m, in, out, lu.data(), n, lvt.data(), jobz == 'N' ? 1 : vtrows, work, lwork,
                      iwork.data(), &info);
    };
    T work_size = 0;
    call(mat.data(), sp, &work_size, -1);
    std::vector<T> work(static_cast<size_t>(std::real(work_size)) + 1);
    for (int64_t b = 0; b < batches; ++b) {
      std::memcpy(mat.data(), static_cast<const T*>(a.data()) + b * m * n, mat.size() * sizeof(T));
      call(mat.data(), sp + b * k, work.data(), static_cast<int>(work.size()));
      if (info > 0) raise(op, "SVD did not converge", b, batches);
      if (jobz == 'N') continue;
      // M = A.T = Um S Vm^H gives A = conj(Vm) S Um.T: LAPACK's VT = Vm^H read row-major is
      // conj(Vm) = u, and its U read row-major is Um.T = vh, for complex A as for real.
      std::memcpy(static_cast<T*>(vh->data()) + b * ucols * n, lu.data(), lu.size() * sizeof(T));
      std::memcpy(static_cast<T*>(u->data()) + b * m * vtrows, lvt.data(), lvt.size() * sizeof(T));
    }
  });
}

}  // namespace

void svd(const Array& a, const Array& u, const Array& s, const Array& vh) { gesdd_stack("svd", a, &u, s, &vh); }
void svdvals(const Array& a, const Array& s) { gesdd_stack("svdvals", a, nullptr, s, nullptr); }

void geqrf(const Array& at, const Array& h, const Array& tau) {
  for_type(at.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const int64_t batches = at.shape()[0];
    const int n = checked_int(at.shape()[1], "qr"), m = checked_int(at.shape()[2], "qr");
    const int k = std::min(m, n);
    std::memcpy(h.data(), at.data(), at.nbytes());
    if (k == 0) return;
    T work_size = 0;
    int info = 0;
    lapack::geqrf(m, n, static_cast<T*>(h.data()), static_cast<T*>(tau.data()), &work_size, -1, &info);
    std::vector<T> work(static_cast<size_t>(std::real(work_size)) + 1);
    for (int64_t b = 0; b < batches; ++b)
      lapack::geqrf(m, n, static_cast<T*>(h.data()) + b * m * n, static_cast<T*>(tau.data()) + b * k, work.data(),
                    static_cast<int>(work.size()), &info);
  });
}

void orgqr(const Array& h, const Array& tau, const Array& q) {
  for_type(h.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const int64_t batches = h.shape()[0];
    const int c = checked_int(h.shape()[1], "qr"), m = checked_int(h.shape()[2], "qr");
    const int k = checked_int(tau.shape()[1], "qr");
    std::memcpy(q.data(), h.data(), h.nbytes());
    if (c == 0 || m == 0) return;
    T work_size = 0;
    int info = 0;
    lapack::orgqr(m, c, k, static_cast<T*>(q.data()), static_cast<const T*>(tau.data()), &work_size, -1, &info);
    std::vector<T> work(static_cast<size_t>(std::real(work_size)) + 1);
    for (int64_t b = 0; b < batches; ++b)
      lapack::orgqr(m, c, k, static_cast<T*>(q.data()) + b * m * c, static_cast<const T*>(tau.data()) + b * k,
                    work.data(), static_cast<int>(work.size()), &info);
  });
}

#else

void svd(const Array&, const Array&, const Array&, const Array&) { no_lapack("svd"); }
void svdvals(const Array&, const Array&) { no_lapack("svdvals"); }
void geqrf(const Array&, const Array&, const Array&) { no_lapack("qr"); }
void orgqr(const Array&, const Array&, const Array&) { no_lapack("qr"); }

#endif

}  // namespace loom::cpu_backend
