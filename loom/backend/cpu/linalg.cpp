// CPU matrix products: float32/float64 through CBLAS (one call per batch entry, spread
// over cores when the matrices are too small for BLAS threading), float16/bfloat16 through
// float32 GEMMs, everything else through gemm_loop (linalg_loop.cpp).
#include "loom/backend/linalg.h"

#include <algorithm>
#include <climits>
#include <type_traits>
#include <cstring>

#include "loom/core/cast.h"
#include "loom/backend/cpu/linalg_loop.h"
#include "loom/backend/creation.h"
#include "loom/runtime/cpu/thread_pool.h"
#include "loom/backend/linalg_gemm_layout.h"
#include "loom/core/error.h"

#ifdef LOOM_HAVE_CBLAS
#include "loom/backend/cpu/cblas_decl.h"
#endif

namespace loom::cpu_backend {
namespace {

#ifdef LOOM_HAVE_CBLAS
// OpenBLAS runs m*n*k <= 65536 * 4 single-threaded (GEMM_MULTITHREAD_THRESHOLD); batches
// of such matrices are split over loom's pool instead.
constexpr int64_t kSmallGemm = int64_t{1} << 18;

bool blas_fits(const Array& out, int64_t k) {
  return out.shape()[1] <= INT_MAX && out.shape()[2] <= INT_MAX && k <= INT_MAX;
}

// c (n x n, row-major) = a @ a^T (or a^T @ a when `transposed`): syrk fills the upper
// triangle, which is then mirrored into the lower one. Complex a @ a^T is symmetric too
// (not Hermitian: no conjugate), a csyrk/zsyrk as NumPy's.
template <class T>
void gram(const T* a, int64_t ld, bool transposed, int64_t n, int64_t k, T* c) {
  const int trans = transposed ? cblas::kTrans : cblas::kNoTrans;
  const int ni = static_cast<int>(n), ki = static_cast<int>(k), lda = static_cast<int>(ld);
  const T one(1), zero(0);  // complex scalars go by pointer
  if constexpr (std::is_same_v<T, float>)
    cblas_ssyrk(cblas::kRowMajor, cblas::kUpper, trans, ni, ki, 1.0f, a, lda, 0.0f, c, ni);
  else if constexpr (std::is_same_v<T, double>)
    cblas_dsyrk(cblas::kRowMajor, cblas::kUpper, trans, ni, ki, 1.0, a, lda, 0.0, c, ni);
  else if constexpr (std::is_same_v<T, complex64_t>)
    cblas_csyrk(cblas::kRowMajor, cblas::kUpper, trans, ni, ki, &one, a, lda, &zero, c, ni);
  else
    cblas_zsyrk(cblas::kRowMajor, cblas::kUpper, trans, ni, ki, &one, a, lda, &zero, c, ni);
  cpu_runtime::parallel_for(n, std::max<int64_t>(1, (int64_t{1} << 16) / std::max<int64_t>(n, 1)),
                            [&](int64_t lo, int64_t hi) {
                              for (int64_t i = lo; i < hi; ++i)
                                for (int64_t j = 0; j < i; ++j) c[i * n + j] = c[j * n + i];
                            });
}

// c (n x n, row-major) = p @ p^H (p^H @ p when `adjoint_first`), p (n x k or k x n) read
// with its BLAS layout. cherk/zherk fill the upper triangle; the lower one is its conjugate.
// A column-major p is handed over as the row-major matrix M = p^T, for which herk computes
// conj(p @ p^H) = M^H M (and conj(p^H @ p) = M M^H): its triangle is then conjugated in the
// same pass. The diagonal is made exactly real.
template <class T>
void hermitian(const T* p, const GemmOperand& g, bool adjoint_first, int64_t n, int64_t k, T* c) {
  const int trans = g.transposed != adjoint_first ? cblas::kConjTrans : cblas::kNoTrans;
  const int ni = static_cast<int>(n), ki = static_cast<int>(k), lda = static_cast<int>(g.ld);
  if constexpr (std::is_same_v<T, complex64_t>)
    cblas_cherk(cblas::kRowMajor, cblas::kUpper, trans, ni, ki, 1.0f, p, lda, 0.0f, c, ni);
  else
    cblas_zherk(cblas::kRowMajor, cblas::kUpper, trans, ni, ki, 1.0, p, lda, 0.0, c, ni);
  const bool conj_upper = g.transposed;
  cpu_runtime::parallel_for(n, std::max<int64_t>(1, (int64_t{1} << 16) / std::max<int64_t>(n, 1)),
                            [&](int64_t lo, int64_t hi) {
                              for (int64_t i = lo; i < hi; ++i) {
                                for (int64_t j = 0; j < i; ++j) {
                                  const T v = c[j * n + i];  // row j's upper element, this row's only
                                  c[i * n + j] = conj_upper ? v : T(v.re, -v.im);
                                  if (conj_upper) c[j * n + i] = T(v.re, -v.im);
                                }
                                c[i * n + i].im = 0;
                              }
                            });
}

template <class T>
void blas_herk(const Array& p, const Array& out, bool adjoint_first) {
  const GemmOperand g = gemm_operand(p);
  const int64_t nb = out.shape()[0], n = out.shape()[1];
  const int64_t k = adjoint_first ? p.shape()[1] : p.shape()[2];
  for (int64_t i = 0; i < nb; ++i)
    hermitian<T>(static_cast<const T*>(p.data()) + i * g.batch_stride, g, adjoint_first, n, k,
                 static_cast<T*>(out.data()) + i * n * n);
}

// One real dot product (1 x k @ k x 1) as BLAS's dot, which NumPy's vdot and dot also call
// and which, unlike a 1 x 1 GEMM, OpenBLAS spreads over cores for long vectors. False where
// the strides give no BLAS increments.
template <class T>
bool blas_dot(const Array& a, const Array& b, const Array& out) {
  const int64_t item = static_cast<int64_t>(sizeof(T)), k = a.shape()[2];
  const int64_t sa = a.strides()[2], sb = b.strides()[1];
  if (out.size() != 1 || k > INT_MAX || sa <= 0 || sb <= 0 || sa % item || sb % item || sa / item > INT_MAX ||
      sb / item > INT_MAX)
    return false;
  const int n = static_cast<int>(k), ia = static_cast<int>(sa / item), ib = static_cast<int>(sb / item);
  const T* pa = static_cast<const T*>(a.data());
  const T* pb = static_cast<const T*>(b.data());
  if constexpr (std::is_same_v<T, float>) *static_cast<float*>(out.data()) = cblas_sdot(n, pa, ia, pb, ib);
  else *static_cast<double*>(out.data()) = cblas_ddot(n, pa, ia, pb, ib);
  return true;
}

template <class T>
void blas_gemm(const Array& a, const Array& b, const Array& out) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
    if (blas_dot<T>(a, b, out)) return;
  const GemmOperand ga = gemm_operand(a), gb = gemm_operand(b);
  // b is a's transpose over the same memory (x @ x.T, x.T @ x): the product is symmetric and
  // one triangle of it is a rank-k update, half the multiply-adds (as NumPy does).
  if (is_transpose_pair(a, b)) {
    const int64_t nb = out.shape()[0], n = out.shape()[1], k = a.shape()[2];
    for (int64_t i = 0; i < nb; ++i)
      gram<T>(static_cast<const T*>(a.data()) + i * ga.batch_stride, ga.ld, ga.transposed, n, k,
              static_cast<T*>(out.data()) + i * n * n);
    return;
  }
  const int64_t nb = out.shape()[0], m = out.shape()[1], n = out.shape()[2], k = a.shape()[2];
  const T* pa = static_cast<const T*>(a.data());
  const T* pb = static_cast<const T*>(b.data());
  T* pc = static_cast<T*>(out.data());
  auto one = [&](int64_t i) {
    const int ta = ga.transposed ? cblas::kTrans : cblas::kNoTrans;
    const int tb = gb.transposed ? cblas::kTrans : cblas::kNoTrans;
    const T* A = pa + i * ga.batch_stride;
    const T* B = pb + i * gb.batch_stride;
    T* C = pc + i * m * n;
    const int mi = static_cast<int>(m), ni = static_cast<int>(n), ki = static_cast<int>(k);
    const T one(1), zero(0);  // complex scalars go by pointer
    if constexpr (std::is_same_v<T, complex64_t>)
      cblas_cgemm(cblas::kRowMajor, ta, tb, mi, ni, ki, &one, A, static_cast<int>(ga.ld), B,
                  static_cast<int>(gb.ld), &zero, C, ni);
    else if constexpr (std::is_same_v<T, complex128_t>)
      cblas_zgemm(cblas::kRowMajor, ta, tb, mi, ni, ki, &one, A, static_cast<int>(ga.ld), B,
                  static_cast<int>(gb.ld), &zero, C, ni);
    else if constexpr (std::is_same_v<T, float>)
      cblas_sgemm(cblas::kRowMajor, ta, tb, mi, ni, ki, 1.0f, A, static_cast<int>(ga.ld), B,
                  static_cast<int>(gb.ld), 0.0f, C, ni);
    else
      cblas_dgemm(cblas::kRowMajor, ta, tb, mi, ni, ki, 1.0, A, static_cast<int>(ga.ld), B,
                  static_cast<int>(gb.ld), 0.0, C, ni);
  };
  if (nb > 1 && m * n * k <= kSmallGemm) {
    const int64_t grain = std::max<int64_t>(1, kSmallGemm / std::max<int64_t>(m * n * k, 1) / 4);
    cpu_runtime::parallel_for(nb, grain, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) one(i);
    });
  } else {
    for (int64_t i = 0; i < nb; ++i) one(i);
  }
}
#endif

// float16/bfloat16: each operand converted once to float32 (keeping a broadcast batch
// broadcast), one float32 product, then rounded into `out`.
void half_gemm(const Array& a, const Array& b, const Array& out) {
  auto to_f32 = [](const Array& x) {
    if (x.shape()[0] > 1 && x.strides()[0] == 0) {
      const Array m = x.view({1, x.shape()[1], x.shape()[2]}, {0, x.strides()[1], x.strides()[2]}, x.offset())
                          .astype(float32);
      return m.view(x.shape(), {0, m.strides()[1], m.strides()[2]}, m.offset());
    }
    return x.astype(float32);
  };
  const Array tmp = Array::allocate(out.shape(), float32, out.device());
  gemm(to_f32(a), to_f32(b), tmp, false);
  convert(tmp, out);
}

}  // namespace

void herk(const Array& p, const Array& q, const Array& out, bool adjoint_first) {
  if (out.size() == 0) return;
#ifdef LOOM_HAVE_CBLAS
  const int64_t k = adjoint_first ? p.shape()[1] : p.shape()[2];
  if (blas_fits(out, k) && gemm_operand(p).ld <= INT_MAX) {
    if (out.dtype() == DType::complex64) return blas_herk<complex64_t>(p, out, adjoint_first);
    if (out.dtype() == DType::complex128) return blas_herk<complex128_t>(p, out, adjoint_first);
  }
#endif
  // No BLAS (or sizes past its int): the plain product of the operands as matmul got them.
  if (adjoint_first) gemm(q, p, out, false);
  else gemm(p, q, out, false);
}

void gemm(const Array& a, const Array& b, const Array& out, bool /*allow_tf32: no TF32 on a CPU*/) {
  if (out.size() == 0) return;
  switch (out.dtype()) {
    case DType::float16:
    case DType::bfloat16:
      half_gemm(a, b, out);
      return;
#ifdef LOOM_HAVE_CBLAS
    case DType::float32:
      if (!blas_fits(out, a.shape()[2])) break;
      blas_gemm<float>(a, b, out);
      return;
    case DType::float64:
      if (!blas_fits(out, a.shape()[2])) break;
      blas_gemm<double>(a, b, out);
      return;
    case DType::complex64:
      if (!blas_fits(out, a.shape()[2])) break;
      blas_gemm<complex64_t>(a, b, out);
      return;
    case DType::complex128:
      if (!blas_fits(out, a.shape()[2])) break;
      blas_gemm<complex128_t>(a, b, out);
      return;
#endif
    default:
      break;
  }
  gemm_loop(a, b, out);
}

}  // namespace loom::cpu_backend

namespace loom {

const char* cpu_blas_name() {
#ifdef LOOM_HAVE_CBLAS
  return LOOM_BLAS_NAME;
#else
  return "none";
#endif
}

}  // namespace loom
