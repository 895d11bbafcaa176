// The few CBLAS prototypes loom calls, declared here so that no cblas.h is needed at
// build time (OpenBLAS, the reference BLAS and MKL all export these C symbols; the enums
// are passed as int, which is their ABI).
#pragma once
#include "loom/backend/cpu/blas_symbol.h"

extern "C" {
void cblas_sgemm(int order, int trans_a, int trans_b, int m, int n, int k, float alpha,
                 const float* a, int lda, const float* b, int ldb, float beta, float* c, int ldc) LOOM_BLAS_SYMBOL(cblas_sgemm);
void cblas_dgemm(int order, int trans_a, int trans_b, int m, int n, int k, double alpha,
                 const double* a, int lda, const double* b, int ldb, double beta, double* c, int ldc) LOOM_BLAS_SYMBOL(cblas_dgemm);
float cblas_sdot(int n, const float* x, int incx, const float* y, int incy) LOOM_BLAS_SYMBOL(cblas_sdot);
double cblas_ddot(int n, const double* x, int incx, const double* y, int incy) LOOM_BLAS_SYMBOL(cblas_ddot);
// Complex products: alpha and beta by pointer, as CBLAS passes complex scalars.
void cblas_cgemm(int order, int trans_a, int trans_b, int m, int n, int k, const void* alpha, const void* a, int lda,
                 const void* b, int ldb, const void* beta, void* c, int ldc) LOOM_BLAS_SYMBOL(cblas_cgemm);
void cblas_zgemm(int order, int trans_a, int trans_b, int m, int n, int k, const void* alpha, const void* a, int lda,
                 const void* b, int ldb, const void* beta, void* c, int ldc) LOOM_BLAS_SYMBOL(cblas_zgemm);
void cblas_ssyrk(int order, int uplo, int trans, int n, int k, float alpha, const float* a, int lda, float beta,
                 float* c, int ldc) LOOM_BLAS_SYMBOL(cblas_ssyrk);
void cblas_dsyrk(int order, int uplo, int trans, int n, int k, double alpha, const double* a, int lda, double beta,
                 double* c, int ldc) LOOM_BLAS_SYMBOL(cblas_dsyrk);
void cblas_csyrk(int order, int uplo, int trans, int n, int k, const void* alpha, const void* a, int lda,
                 const void* beta, void* c, int ldc) LOOM_BLAS_SYMBOL(cblas_csyrk);
void cblas_zsyrk(int order, int uplo, int trans, int n, int k, const void* alpha, const void* a, int lda,
                 const void* beta, void* c, int ldc) LOOM_BLAS_SYMBOL(cblas_zsyrk);
// Hermitian rank-k updates: real alpha and beta.
void cblas_cherk(int order, int uplo, int trans, int n, int k, float alpha, const void* a, int lda, float beta,
                 void* c, int ldc) LOOM_BLAS_SYMBOL(cblas_cherk);
void cblas_zherk(int order, int uplo, int trans, int n, int k, double alpha, const void* a, int lda, double beta,
                 void* c, int ldc) LOOM_BLAS_SYMBOL(cblas_zherk);
}

namespace loom::cpu_backend::cblas {
constexpr int kRowMajor = 101;
constexpr int kNoTrans = 111;
constexpr int kTrans = 112;
constexpr int kConjTrans = 113;
constexpr int kUpper = 121;
}  // namespace loom::cpu_backend::cblas
