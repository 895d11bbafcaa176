// GPU symmetric and Hermitian rank-k updates: x @ x.T through ?syrk and x @ x.conj().T through
// ?herk (one cuBLAS call per matrix, each writing one triangle, half a GEMM's multiply-adds),
// then one kernel (kernels/loom_rank_k.cuh) filling the other triangle of the whole batch.
//
// Row-major matrices, column-major cuBLAS: a row-major p is the column-major P = p^T, and the
// row-major result buffer read column-major is C^T. For a symmetric C that is C itself:
// syrk computes P^T P (op T) for a row-major p, p p^T (op N) for a column-major one. For a
// Hermitian C, C^T = conj(C): herk with op C on a row-major p gives conj(p) p^T = conj(C), which
// read row-major is C exactly; a column-major p gives C, read row-major as conj(C), which the
// mirror kernel conjugates (its mode 2). p^H p swaps the two ops.
#include <cublas_v2.h>

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>
#include <vector>

#include "loom/backend/cuda/linalg_programs.h"
#include "loom/backend/cuda/programs.h"
#include "loom/backend/linalg.h"
#include "loom/backend/linalg_gemm_layout.h"
#include "loom/runtime/cuda/context.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom::cuda {

const Program& rank_k_program() {
  static const Program* p = [] {
    std::vector<std::string> names;
    for (const char* t : {"float", "double"}) {
      names.push_back(std::string("loom_mirror_upper<") + t + ", 1, 0>");
      for (int mode = 0; mode < 3; ++mode)
        names.push_back(std::string("loom_mirror_upper<") + t + ", 2, " + std::to_string(mode) + ">");
    }
    return new Program("loom_rank_k.cu", "#include \"loom_rank_k.cuh\"\n", names);  // never destroyed
  }();
  return *p;
}

namespace {

// Below this many multiply-adds per matrix one batched GEMM beats a call per matrix.
constexpr int64_t kRankKMinMacs = int64_t{1} << 24;

}  // namespace

void mirror_upper(int dev, const Array& out, int mode, void* stream) {
  const bool dbl = out.dtype() == DType::float64 || out.dtype() == DType::complex128;
  const int parts = is_complex(out.dtype()) ? 2 : 1;
  const std::string name = std::string("loom_mirror_upper<") + (dbl ? "double" : "float") + ", " +
                           std::to_string(parts) + ", " + std::to_string(mode) + ">";
  void* c = out.data();
  long long n = out.shape()[1], batch = out.shape()[0];
  launch_elementwise(dev, rank_k_program(), name, batch * n * n, stream, {&c, &n, &batch});
}

bool rank_k_pays(const Array& p, const Array& out, int64_t k) {
  const int64_t n = out.shape()[1];
  if (n > INT_MAX || k > INT_MAX || gemm_operand(p).ld > INT_MAX || n < 2) return false;
  return n * n >= kRankKMinMacs || n * n * k >= kRankKMinMacs;  // no overflow: n*n < 2^24 there
}

void rank_k_update(int dev, const Array& p, const Array& out, bool hermitian, bool adjoint_first, void* stream) {
  const GemmOperand g = gemm_operand(p);
  const int64_t nb = out.shape()[0], n = out.shape()[1];
  const int ni = static_cast<int>(n), ki = static_cast<int>(adjoint_first ? p.shape()[1] : p.shape()[2]);
  const int lda = static_cast<int>(g.ld);
  const int64_t item = static_cast<int64_t>(out.itemsize());
  const cublasFillMode_t lower = CUBLAS_FILL_MODE_LOWER;  // column-major lower: row-major upper
  const bool plain = g.transposed != adjoint_first;
  const cublasOperation_t op = plain ? CUBLAS_OP_N : (hermitian ? CUBLAS_OP_C : CUBLAS_OP_T);
  {
    const BlasLock d = lock_blas(dev, stream);
    for (int64_t i = 0; i < nb; ++i) {
      const char* a = static_cast<const char*>(p.data()) + i * g.batch_stride * item;
      char* c = static_cast<char*>(out.data()) + i * n * n * item;
      const float f1 = 1, f0 = 0;
      const double d1 = 1, d0 = 0;
      const cuComplex c1{1, 0}, c0{0, 0};
      const cuDoubleComplex z1{1, 0}, z0{0, 0};
      switch (out.dtype()) {
        case DType::float32:
          LOOM_CUBLAS_CHECK(cublasSsyrk(d.handle, lower, op, ni, ki, &f1, reinterpret_cast<const float*>(a), lda, &f0,
                                        reinterpret_cast<float*>(c), ni));
          break;
        case DType::float64:
          LOOM_CUBLAS_CHECK(cublasDsyrk(d.handle, lower, op, ni, ki, &d1, reinterpret_cast<const double*>(a), lda,
                                        &d0, reinterpret_cast<double*>(c), ni));
          break;
        case DType::complex64:
          if (hermitian)
            LOOM_CUBLAS_CHECK(cublasCherk(d.handle, lower, op, ni, ki, &f1, reinterpret_cast<const cuComplex*>(a), lda,
                                          &f0, reinterpret_cast<cuComplex*>(c), ni));
          else
            LOOM_CUBLAS_CHECK(cublasCsyrk(d.handle, lower, op, ni, ki, &c1, reinterpret_cast<const cuComplex*>(a), lda,
                                          &c0, reinterpret_cast<cuComplex*>(c), ni));
          break;
        case DType::complex128:
          if (hermitian)
            LOOM_CUBLAS_CHECK(cublasZherk(d.handle, lower, op, ni, ki, &d1,
                                          reinterpret_cast<const cuDoubleComplex*>(a), lda, &d0,
                                          reinterpret_cast<cuDoubleComplex*>(c), ni));
          else
            LOOM_CUBLAS_CHECK(cublasZsyrk(d.handle, lower, op, ni, ki, &z1,
                                          reinterpret_cast<const cuDoubleComplex*>(a), lda, &z0,
                                          reinterpret_cast<cuDoubleComplex*>(c), ni));
          break;
        default:
          throw std::logic_error("[matmul] rank-k update of a dtype without one");
      }
    }
  }
  mirror_upper(dev, out, !hermitian ? 0 : (g.transposed ? 2 : 1), stream);
}

}  // namespace loom::cuda

namespace loom::gpu_backend {

void herk(const Array& p, const Array& q, const Array& out, bool adjoint_first) {
  if (out.size() == 0) return;
  const int64_t k = adjoint_first ? p.shape()[1] : p.shape()[2];
  if (!cuda::rank_k_pays(p, out, k)) {
    // Many small matrices: one batched GEMM of the operands as matmul got them, whose two
    // triangles cuBLAS may sum apart: the upper one is mirrored, so the result is exactly
    // Hermitian either way.
    if (adjoint_first) gemm(q, p, out, false);
    else gemm(p, q, out, false);
  }
  const int dev = out.device().index;
  cuda::activate(dev);
  gpu_runtime::wait_for_writer(p);
  gpu_runtime::wait_for_writer(out);
  void* stream = cuda::current_stream(dev);
  if (cuda::rank_k_pays(p, out, k)) cuda::rank_k_update(dev, p, out, true, adjoint_first, stream);
  else cuda::mirror_upper(dev, out, 1, stream);
  out.buffer()->set_last_stream(stream);
}

}  // namespace loom::gpu_backend
