// CPU decompositions through LAPACK (OpenBLAS's), one matrix of the stack at a time (LAPACK
// threads inside large ones). LAPACK is column-major: a row-major matrix A is, to it, A.T,
// which the calls below account for instead of transposing (docs in each function).
#include "loom/backend/linalg_decomp.h"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "loom/backend/cpu/lapack_util.h"
#include "loom/core/error.h"

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

// A X = B with A row-major is, to LAPACK, M X = B with M = A.T: factor M, then solve with
// M.T (trans 'T'). The right-hand sides come transposed (bt: each row one b), which is the
// column-major n x k matrix B LAPACK wants, and xt receives X the same way.
void solve(const Array& a, const Array& bt, const Array& xt) {
  for_type(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const int64_t batches = a.shape()[0];
    const int n = checked_int(a.shape()[1], "solve"), k = checked_int(bt.shape()[1], "solve");
    std::vector<T> lu(static_cast<size_t>(n) * n);
    std::vector<int> ipiv(static_cast<size_t>(n));
    std::memcpy(xt.data(), bt.data(), bt.nbytes());
    for (int64_t b = 0; b < batches; ++b) {
      std::memcpy(lu.data(), static_cast<const T*>(a.data()) + b * n * n, lu.size() * sizeof(T));
      int info = 0;
      lapack::getrf(n, lu.data(), ipiv.data(), &info);
      if (info > 0) raise("solve", "singular matrix", b, batches);
      lapack::getrs('T', n, k, lu.data(), ipiv.data(), static_cast<T*>(xt.data()) + b * k * n, &info);
    }
  });
}

// inv(M) for M = A.T is inv(A).T, which read row-major is inv(A): getrf and getri on each
// matrix in place write the inverse straight into out.
void inv(const Array& a, const Array& out) {
  for_type(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const int64_t batches = a.shape()[0];
    const int n = checked_int(a.shape()[1], "inv");
    std::vector<int> ipiv(static_cast<size_t>(n));
    std::memcpy(out.data(), a.data(), a.nbytes());
    T work_size = 0;
    int info = 0;
    lapack::getri(n, static_cast<T*>(out.data()), ipiv.data(), &work_size, -1, &info);
    std::vector<T> work(static_cast<size_t>(std::real(work_size)) + 1);
    for (int64_t b = 0; b < batches; ++b) {
      T* m = static_cast<T*>(out.data()) + b * n * n;
      lapack::getrf(n, m, ipiv.data(), &info);
      if (info > 0) raise("inv", "singular matrix", b, batches);
      lapack::getri(n, m, ipiv.data(), work.data(), static_cast<int>(work.size()), &info);
    }
  });
}

// det(A) = det(A.T): the LU factors of M = A.T give it, with one sign flip per row swap. A
// complex determinant's sign is the unit d / |d| of the product (NumPy's), log|det| is real.
void slogdet(const Array& a, const Array& sign, const Array& logabs) {
  for_type(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using R = real_t<T>;
    const int64_t batches = a.shape()[0];
    const int n = checked_int(a.shape()[1], "slogdet");
    std::vector<T> lu(static_cast<size_t>(n) * n);
    std::vector<int> ipiv(static_cast<size_t>(n));
    for (int64_t b = 0; b < batches; ++b) {
      // An empty matrix (n = 0) has det 1: nothing to copy (memcpy from null is undefined).
      if (n > 0) std::memcpy(lu.data(), static_cast<const T*>(a.data()) + b * n * n, lu.size() * sizeof(T));
      int info = 0;
      if (n > 0) lapack::getrf(n, lu.data(), ipiv.data(), &info);
      T s = 1;
      R l = 0;
      if (info > 0) {  // an exact zero pivot: NumPy's (0, -inf), not an error
        s = 0;
        l = -INFINITY;
      } else {
        for (int i = 0; i < n; ++i) {
          const T d = lu[static_cast<size_t>(i) * n + i];
          const R m = std::abs(d);
          if constexpr (is_cplx_v<T>) s *= d / m;
          else if (d < 0) s = -s;
          if (ipiv[i] != i + 1) s = -s;
          l += std::log(m);
        }
      }
      static_cast<T*>(sign.data())[b] = s;
      static_cast<R*>(logabs.data())[b] = l;
    }
  });
}

// The lower triangle of A row-major is the upper one of M = A.T; potrf('U') gives M = U.T U
// in it, and U read row-major is L = U.T with A = L L.T. The other triangle is zeroed.
void cholesky(const Array& a, const Array& l) {
  for_type(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const int64_t batches = a.shape()[0];
    const int n = checked_int(a.shape()[1], "cholesky");
    std::memcpy(l.data(), a.data(), a.nbytes());
    for (int64_t b = 0; b < batches; ++b) {
      T* m = static_cast<T*>(l.data()) + b * n * n;
      int info = 0;
      if (n > 0) lapack::potrf('U', n, m, &info);
      if (info > 0) raise("cholesky", "matrix is not positive definite", b, batches);
      for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) m[static_cast<size_t>(i) * n + j] = 0;
    }
  });
}

namespace {

// syevd (heevd) on A in column-major order (a transposed copy of its lower triangle) with
// 'L', as NumPy's call: LAPACK's lower-triangle reduction runs faster here than the upper
// one that reading a row-major A in place would need (410 float64 on 2 cores: 0.85x NumPy's
// speed that way). The eigenvectors come back as columns, column-major: transposed into v.
void symmetric_eigen(const char* op, const Array& a, const Array& w, const Array* v) {
  for_type(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using R = real_t<T>;
    const int64_t batches = a.shape()[0];
    const int n = checked_int(a.shape()[1], op);
    if (n == 0) return;
    const char jobz = v ? 'V' : 'N';
    std::vector<T> m(static_cast<size_t>(n) * n);
    T work_size = 0;
    R rwork_size = 0;
    int iwork_size = 0, info = 0;
    R* wp = static_cast<R*>(w.data());
    auto call = [&](T* mat, R* out, T* work, int lwork, R* rwork, int lrwork, int* iwork, int liwork) {
      if constexpr (is_cplx_v<T>) lapack::heevd(jobz, 'L', n, mat, out, work, lwork, rwork, lrwork, iwork, liwork, &info);
      else lapack::syevd(jobz, 'L', n, mat, out, work, lwork, iwork, liwork, &info);
    };
    call(m.data(), wp, &work_size, -1, &rwork_size, -1, &iwork_size, -1);
    std::vector<T> work(static_cast<size_t>(std::real(work_size)) + 1);
    std::vector<R> rwork(static_cast<size_t>(rwork_size) + 1);
    std::vector<int> iwork(static_cast<size_t>(iwork_size) + 1);
    for (int64_t b = 0; b < batches; ++b) {
      const T* src = static_cast<const T*>(a.data()) + b * n * n;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) m[static_cast<size_t>(j) * n + i] = src[static_cast<size_t>(i) * n + j];
      call(m.data(), wp + b * n, work.data(), static_cast<int>(work.size()), rwork.data(),
           static_cast<int>(rwork.size()), iwork.data(), static_cast<int>(iwork.size()));
      if (info > 0) raise(op, "eigenvalues did not converge", b, batches);
      if (v) {
        T* out = static_cast<T*>(v->data()) + b * n * n;
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < n; ++j) out[static_cast<size_t>(i) * n + j] = m[static_cast<size_t>(j) * n + i];
      }
    }
  });
}

}  // namespace

void eigh(const Array& a, const Array& w, const Array& v) { symmetric_eigen("eigh", a, w, &v); }
void eigvalsh(const Array& a, const Array& w) { symmetric_eigen("eigvalsh", a, w, nullptr); }

#else

void solve(const Array&, const Array&, const Array&) { no_lapack("solve"); }
void inv(const Array&, const Array&) { no_lapack("inv"); }
void slogdet(const Array&, const Array&, const Array&) { no_lapack("slogdet"); }
void cholesky(const Array&, const Array&) { no_lapack("cholesky"); }
void eigh(const Array&, const Array&, const Array&) { no_lapack("eigh"); }
void eigvalsh(const Array&, const Array&) { no_lapack("eigvalsh"); }

#endif

}  // namespace loom::cpu_backend
