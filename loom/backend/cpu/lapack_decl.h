// The LAPACK routines loom calls (Fortran ABI: every argument by pointer, column-major
// matrices, and one trailing length per character argument, which C implementations such
// as OpenBLAS's ignore). Declared here so that no lapack.h is needed at build time.
#pragma once
#include <cstddef>

extern "C" {
void sgetrf_(const int* m, const int* n, float* a, const int* lda, int* ipiv, int* info);
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
void sgetrs_(const char* trans, const int* n, const int* nrhs, const float* a, const int* lda, const int* ipiv,
             float* b, const int* ldb, int* info, size_t trans_len);
void dgetrs_(const char* trans, const int* n, const int* nrhs, const double* a, const int* lda, const int* ipiv,
             double* b, const int* ldb, int* info, size_t trans_len);
void spotrf_(const char* uplo, const int* n, float* a, const int* lda, int* info, size_t uplo_len);
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t uplo_len);
void ssyevd_(const char* jobz, const char* uplo, const int* n, float* a, const int* lda, float* w, float* work,
             const int* lwork, int* iwork, const int* liwork, int* info, size_t jobz_len, size_t uplo_len);
void dsyevd_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w, double* work,
             const int* lwork, int* iwork, const int* liwork, int* info, size_t jobz_len, size_t uplo_len);
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

}  // namespace loom::cpu_backend::lapack
