// The LAPACK routines loom calls (Fortran ABI: every argument by pointer, column-major
// matrices, and one trailing length per character argument, which C implementations such
// as OpenBLAS's ignore). Declared here so that no lapack.h is needed at build time.
#pragma once
#include "loom/backend/cpu/blas_symbol.h"
#include <cstddef>

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

}  // namespace loom::cpu_backend::lapack
