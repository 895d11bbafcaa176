// The LAPACK routines loom calls (Fortran ABI: every argument by pointer, column-major
// matrices, and one trailing length per character argument, which C implementations such
// as OpenBLAS's ignore). Declared here so that no lapack.h is needed at build time.
#pragma once
#include "loom/backend/cpu/blas_symbol.h"
#include <complex>
#include <cstddef>

// LAPACK's COMPLEX and COMPLEX*16 have std::complex's layout (two reals, real part first).
using lapack_c = std::complex<float>;
using lapack_z = std::complex<double>;

extern "C" {
void sgetrf_(const int* m, const int* n, float* a, const int* lda, int* ipiv, int* info) LOOM_BLAS_SYMBOL(sgetrf_);
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info) LOOM_BLAS_SYMBOL(dgetrf_);
void sgetrs_(const char* trans, const int* n, const int* nrhs, const float* a, const int* lda, const int* ipiv,
             float* b, const int* ldb, int* info, size_t trans_len) LOOM_BLAS_SYMBOL(sgetrs_);
void dgetrs_(const char* trans, const int* n, const int* nrhs, const double* a, const int* lda, const int* ipiv,
             double* b, const int* ldb, int* info, size_t trans_len) LOOM_BLAS_SYMBOL(dgetrs_);
void sgetri_(const int* n, float* a, const int* lda, const int* ipiv, float* work, const int* lwork, int* info)
    LOOM_BLAS_SYMBOL(sgetri_);
void dgetri_(const int* n, double* a, const int* lda, const int* ipiv, double* work, const int* lwork, int* info)
    LOOM_BLAS_SYMBOL(dgetri_);
void spotrf_(const char* uplo, const int* n, float* a, const int* lda, int* info, size_t uplo_len) LOOM_BLAS_SYMBOL(spotrf_);
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t uplo_len) LOOM_BLAS_SYMBOL(dpotrf_);
void ssyevd_(const char* jobz, const char* uplo, const int* n, float* a, const int* lda, float* w, float* work,
             const int* lwork, int* iwork, const int* liwork, int* info, size_t jobz_len, size_t uplo_len) LOOM_BLAS_SYMBOL(ssyevd_);
void dsyevd_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w, double* work,
             const int* lwork, int* iwork, const int* liwork, int* info, size_t jobz_len, size_t uplo_len) LOOM_BLAS_SYMBOL(dsyevd_);
void sgesdd_(const char* jobz, const int* m, const int* n, float* a, const int* lda, float* s, float* u,
             const int* ldu, float* vt, const int* ldvt, float* work, const int* lwork, int* iwork, int* info,
             size_t jobz_len) LOOM_BLAS_SYMBOL(sgesdd_);
void dgesdd_(const char* jobz, const int* m, const int* n, double* a, const int* lda, double* s, double* u,
             const int* ldu, double* vt, const int* ldvt, double* work, const int* lwork, int* iwork, int* info,
             size_t jobz_len) LOOM_BLAS_SYMBOL(dgesdd_);
void sgeqrf_(const int* m, const int* n, float* a, const int* lda, float* tau, float* work, const int* lwork,
             int* info) LOOM_BLAS_SYMBOL(sgeqrf_);
void dgeqrf_(const int* m, const int* n, double* a, const int* lda, double* tau, double* work, const int* lwork,
             int* info) LOOM_BLAS_SYMBOL(dgeqrf_);
void sorgqr_(const int* m, const int* n, const int* k, float* a, const int* lda, const float* tau, float* work,
             const int* lwork, int* info) LOOM_BLAS_SYMBOL(sorgqr_);
void dorgqr_(const int* m, const int* n, const int* k, double* a, const int* lda, const double* tau, double* work,
             const int* lwork, int* info) LOOM_BLAS_SYMBOL(dorgqr_);
void cgetrf_(const int* m, const int* n, lapack_c* a, const int* lda, int* ipiv, int* info) LOOM_BLAS_SYMBOL(cgetrf_);
void zgetrf_(const int* m, const int* n, lapack_z* a, const int* lda, int* ipiv, int* info) LOOM_BLAS_SYMBOL(zgetrf_);
void cgetrs_(const char* trans, const int* n, const int* nrhs, const lapack_c* a, const int* lda, const int* ipiv,
             lapack_c* b, const int* ldb, int* info, size_t trans_len) LOOM_BLAS_SYMBOL(cgetrs_);
void zgetrs_(const char* trans, const int* n, const int* nrhs, const lapack_z* a, const int* lda, const int* ipiv,
             lapack_z* b, const int* ldb, int* info, size_t trans_len) LOOM_BLAS_SYMBOL(zgetrs_);
void cgetri_(const int* n, lapack_c* a, const int* lda, const int* ipiv, lapack_c* work, const int* lwork, int* info)
    LOOM_BLAS_SYMBOL(cgetri_);
void zgetri_(const int* n, lapack_z* a, const int* lda, const int* ipiv, lapack_z* work, const int* lwork, int* info)
    LOOM_BLAS_SYMBOL(zgetri_);
void cpotrf_(const char* uplo, const int* n, lapack_c* a, const int* lda, int* info, size_t uplo_len) LOOM_BLAS_SYMBOL(cpotrf_);
void zpotrf_(const char* uplo, const int* n, lapack_z* a, const int* lda, int* info, size_t uplo_len) LOOM_BLAS_SYMBOL(zpotrf_);
void cheevd_(const char* jobz, const char* uplo, const int* n, lapack_c* a, const int* lda, float* w, lapack_c* work,
             const int* lwork, float* rwork, const int* lrwork, int* iwork, const int* liwork, int* info, size_t jobz_len,
             size_t uplo_len) LOOM_BLAS_SYMBOL(cheevd_);
void zheevd_(const char* jobz, const char* uplo, const int* n, lapack_z* a, const int* lda, double* w, lapack_z* work,
             const int* lwork, double* rwork, const int* lrwork, int* iwork, const int* liwork, int* info,
             size_t jobz_len, size_t uplo_len) LOOM_BLAS_SYMBOL(zheevd_);
void cgesdd_(const char* jobz, const int* m, const int* n, lapack_c* a, const int* lda, float* s, lapack_c* u,
             const int* ldu, lapack_c* vt, const int* ldvt, lapack_c* work, const int* lwork, float* rwork, int* iwork,
             int* info, size_t jobz_len) LOOM_BLAS_SYMBOL(cgesdd_);
void zgesdd_(const char* jobz, const int* m, const int* n, lapack_z* a, const int* lda, double* s, lapack_z* u,
             const int* ldu, lapack_z* vt, const int* ldvt, lapack_z* work, const int* lwork, double* rwork, int* iwork,
             int* info, size_t jobz_len) LOOM_BLAS_SYMBOL(zgesdd_);
void cgeqrf_(const int* m, const int* n, lapack_c* a, const int* lda, lapack_c* tau, lapack_c* work, const int* lwork,
             int* info) LOOM_BLAS_SYMBOL(cgeqrf_);
void zgeqrf_(const int* m, const int* n, lapack_z* a, const int* lda, lapack_z* tau, lapack_z* work, const int* lwork,
             int* info) LOOM_BLAS_SYMBOL(zgeqrf_);
void cungqr_(const int* m, const int* n, const int* k, lapack_c* a, const int* lda, const lapack_c* tau,
             lapack_c* work, const int* lwork, int* info) LOOM_BLAS_SYMBOL(cungqr_);
void zungqr_(const int* m, const int* n, const int* k, lapack_z* a, const int* lda, const lapack_z* tau,
             lapack_z* work, const int* lwork, int* info) LOOM_BLAS_SYMBOL(zungqr_);
void sgeev_(const char* jobvl, const char* jobvr, const int* n, float* a, const int* lda, float* wr, float* wi,
            float* vl, const int* ldvl, float* vr, const int* ldvr, float* work, const int* lwork, int* info,
            size_t jobvl_len, size_t jobvr_len) LOOM_BLAS_SYMBOL(sgeev_);
void dgeev_(const char* jobvl, const char* jobvr, const int* n, double* a, const int* lda, double* wr, double* wi,
            double* vl, const int* ldvl, double* vr, const int* ldvr, double* work, const int* lwork, int* info,
            size_t jobvl_len, size_t jobvr_len) LOOM_BLAS_SYMBOL(dgeev_);
void cgeev_(const char* jobvl, const char* jobvr, const int* n, lapack_c* a, const int* lda, lapack_c* w,
            lapack_c* vl, const int* ldvl, lapack_c* vr, const int* ldvr, lapack_c* work, const int* lwork,
            float* rwork, int* info, size_t jobvl_len, size_t jobvr_len) LOOM_BLAS_SYMBOL(cgeev_);
void zgeev_(const char* jobvl, const char* jobvr, const int* n, lapack_z* a, const int* lda, lapack_z* w,
            lapack_z* vl, const int* ldvl, lapack_z* vr, const int* ldvr, lapack_z* work, const int* lwork,
            double* rwork, int* info, size_t jobvl_len, size_t jobvr_len) LOOM_BLAS_SYMBOL(zgeev_);
}

namespace loom::cpu_backend::lapack {

// Overloads by element type, so that one template serves float32 and float64.
inline void getrf(int n, float* a, int* ipiv, int* info) { sgetrf_(&n, &n, a, &n, ipiv, info); }
inline void getrf(int n, double* a, int* ipiv, int* info) { dgetrf_(&n, &n, a, &n, ipiv, info); }
inline void getrs(char trans, int n, int nrhs, const float* a, const int* ipiv, float* b, int* info) {
  sgetrs_(&trans, &n, &nrhs, a, &n, ipiv, b, &n, info, 1);
}
inline void getrs(char trans, int n, int nrhs, const double* a, const int* ipiv, double* b, int* info) {
  dgetrs_(&trans, &n, &nrhs, a, &n, ipiv, b, &n, info, 1);
}
inline void getri(int n, float* a, const int* ipiv, float* work, int lwork, int* info) {
  sgetri_(&n, a, &n, ipiv, work, &lwork, info);
}
inline void getri(int n, double* a, const int* ipiv, double* work, int lwork, int* info) {
  dgetri_(&n, a, &n, ipiv, work, &lwork, info);
}
inline void potrf(char uplo, int n, float* a, int* info) { spotrf_(&uplo, &n, a, &n, info, 1); }
inline void potrf(char uplo, int n, double* a, int* info) { dpotrf_(&uplo, &n, a, &n, info, 1); }
inline void syevd(char jobz, char uplo, int n, float* a, float* w, float* work, int lwork, int* iwork, int liwork,
                  int* info) {
  ssyevd_(&jobz, &uplo, &n, a, &n, w, work, &lwork, iwork, &liwork, info, 1, 1);
}
inline void syevd(char jobz, char uplo, int n, double* a, double* w, double* work, int lwork, int* iwork, int liwork,
                  int* info) {
  dsyevd_(&jobz, &uplo, &n, a, &n, w, work, &lwork, iwork, &liwork, info, 1, 1);
}

// m x n column-major a (lda = m); u m x ucol (ldu = m), vt vrow x n (ldvt = vrow).
inline void gesdd(char jobz, int m, int n, float* a, float* s, float* u, int ldu, float* vt, int ldvt, float* work,
                  int lwork, int* iwork, int* info) {
  sgesdd_(&jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, info, 1);
}
inline void gesdd(char jobz, int m, int n, double* a, double* s, double* u, int ldu, double* vt, int ldvt,
                  double* work, int lwork, int* iwork, int* info) {
  dgesdd_(&jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, info, 1);
}
inline void geqrf(int m, int n, float* a, float* tau, float* work, int lwork, int* info) {
  sgeqrf_(&m, &n, a, &m, tau, work, &lwork, info);
}
inline void geqrf(int m, int n, double* a, double* tau, double* work, int lwork, int* info) {
  dgeqrf_(&m, &n, a, &m, tau, work, &lwork, info);
}
inline void orgqr(int m, int n, int k, float* a, const float* tau, float* work, int lwork, int* info) {
  sorgqr_(&m, &n, &k, a, &m, tau, work, &lwork, info);
}
inline void orgqr(int m, int n, int k, double* a, const double* tau, double* work, int lwork, int* info) {
  dorgqr_(&m, &n, &k, a, &m, tau, work, &lwork, info);
}

// The complex counterparts: the same calls with std::complex elements (LAPACK's C and Z),
// where the symmetric routines become Hermitian ones (heevd, ungqr) with real workspaces.
inline void getrf(int n, lapack_c* a, int* ipiv, int* info) { cgetrf_(&n, &n, a, &n, ipiv, info); }
inline void getrf(int n, lapack_z* a, int* ipiv, int* info) { zgetrf_(&n, &n, a, &n, ipiv, info); }
inline void getrs(char trans, int n, int nrhs, const lapack_c* a, const int* ipiv, lapack_c* b, int* info) {
  cgetrs_(&trans, &n, &nrhs, a, &n, ipiv, b, &n, info, 1);
}
inline void getrs(char trans, int n, int nrhs, const lapack_z* a, const int* ipiv, lapack_z* b, int* info) {
  zgetrs_(&trans, &n, &nrhs, a, &n, ipiv, b, &n, info, 1);
}
inline void getri(int n, lapack_c* a, const int* ipiv, lapack_c* work, int lwork, int* info) {
  cgetri_(&n, a, &n, ipiv, work, &lwork, info);
}
inline void getri(int n, lapack_z* a, const int* ipiv, lapack_z* work, int lwork, int* info) {
  zgetri_(&n, a, &n, ipiv, work, &lwork, info);
}
inline void potrf(char uplo, int n, lapack_c* a, int* info) { cpotrf_(&uplo, &n, a, &n, info, 1); }
inline void potrf(char uplo, int n, lapack_z* a, int* info) { zpotrf_(&uplo, &n, a, &n, info, 1); }
inline void heevd(char jobz, char uplo, int n, lapack_c* a, float* w, lapack_c* work, int lwork, float* rwork,
                  int lrwork, int* iwork, int liwork, int* info) {
  cheevd_(&jobz, &uplo, &n, a, &n, w, work, &lwork, rwork, &lrwork, iwork, &liwork, info, 1, 1);
}
inline void heevd(char jobz, char uplo, int n, lapack_z* a, double* w, lapack_z* work, int lwork, double* rwork,
                  int lrwork, int* iwork, int liwork, int* info) {
  zheevd_(&jobz, &uplo, &n, a, &n, w, work, &lwork, rwork, &lrwork, iwork, &liwork, info, 1, 1);
}
inline void gesdd(char jobz, int m, int n, lapack_c* a, float* s, lapack_c* u, int ldu, lapack_c* vt, int ldvt,
                  lapack_c* work, int lwork, float* rwork, int* iwork, int* info) {
  cgesdd_(&jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, work, &lwork, rwork, iwork, info, 1);
}
inline void gesdd(char jobz, int m, int n, lapack_z* a, double* s, lapack_z* u, int ldu, lapack_z* vt, int ldvt,
                  lapack_z* work, int lwork, double* rwork, int* iwork, int* info) {
  zgesdd_(&jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, work, &lwork, rwork, iwork, info, 1);
}
inline void geqrf(int m, int n, lapack_c* a, lapack_c* tau, lapack_c* work, int lwork, int* info) {
  cgeqrf_(&m, &n, a, &m, tau, work, &lwork, info);
}
inline void geqrf(int m, int n, lapack_z* a, lapack_z* tau, lapack_z* work, int lwork, int* info) {
  zgeqrf_(&m, &n, a, &m, tau, work, &lwork, info);
}
inline void orgqr(int m, int n, int k, lapack_c* a, const lapack_c* tau, lapack_c* work, int lwork, int* info) {
  cungqr_(&m, &n, &k, a, &m, tau, work, &lwork, info);
}
inline void orgqr(int m, int n, int k, lapack_z* a, const lapack_z* tau, lapack_z* work, int lwork, int* info) {
  zungqr_(&m, &n, &k, a, &m, tau, work, &lwork, info);
}

// Right eigenvectors only (jobvl 'N'); real matrices give wr/wi and vr packed in pairs.
inline void geev(char jobvr, int n, float* a, float* wr, float* wi, float* vr, float* work, int lwork, int* info) {
  const char no = 'N';
  const int one = 1;
  sgeev_(&no, &jobvr, &n, a, &n, wr, wi, nullptr, &one, vr, &n, work, &lwork, info, 1, 1);
}
inline void geev(char jobvr, int n, double* a, double* wr, double* wi, double* vr, double* work, int lwork, int* info) {
  const char no = 'N';
  const int one = 1;
  dgeev_(&no, &jobvr, &n, a, &n, wr, wi, nullptr, &one, vr, &n, work, &lwork, info, 1, 1);
}
inline void geev(char jobvr, int n, lapack_c* a, lapack_c* w, lapack_c* vr, lapack_c* work, int lwork, float* rwork,
                 int* info) {
  const char no = 'N';
  const int one = 1;
  cgeev_(&no, &jobvr, &n, a, &n, w, nullptr, &one, vr, &n, work, &lwork, rwork, info, 1, 1);
}
inline void geev(char jobvr, int n, lapack_z* a, lapack_z* w, lapack_z* vr, lapack_z* work, int lwork, double* rwork,
                 int* info) {
  const char no = 'N';
  const int one = 1;
  zgeev_(&no, &jobvr, &n, a, &n, w, nullptr, &one, vr, &n, work, &lwork, rwork, info, 1, 1);
}

}  // namespace loom::cpu_backend::lapack
