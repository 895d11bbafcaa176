// Decompositions without CUDA: the op layer only reaches these for GPU arrays, which a
// build without CUDA cannot have; they still must link.
#include "loom/backend/linalg_decomp.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {

void solve(const Array&, const Array&, const Array&) { throw UnsupportedError("[linalg.solve] loom was built without CUDA"); }
void inv(const Array&, const Array&) { throw UnsupportedError("[linalg.inv] loom was built without CUDA"); }
void slogdet(const Array&, const Array&, const Array&) {
  throw UnsupportedError("[linalg.slogdet] loom was built without CUDA");
}
void cholesky(const Array&, const Array&) { throw UnsupportedError("[linalg.cholesky] loom was built without CUDA"); }
void eigh(const Array&, const Array&, const Array&) { throw UnsupportedError("[linalg.eigh] loom was built without CUDA"); }
void eigvalsh(const Array&, const Array&) { throw UnsupportedError("[linalg.eigvalsh] loom was built without CUDA"); }
void eig(const Array&, const Array&, const Array&) { throw UnsupportedError("[linalg.eig] loom was built without CUDA"); }
void eigvals(const Array&, const Array&) { throw UnsupportedError("[linalg.eigvals] loom was built without CUDA"); }
void svd(const Array&, const Array&, const Array&, const Array&) {
  throw UnsupportedError("[linalg.svd] loom was built without CUDA");
}
void svdvals(const Array&, const Array&) { throw UnsupportedError("[linalg.svdvals] loom was built without CUDA"); }
void geqrf(const Array&, const Array&, const Array&) { throw UnsupportedError("[linalg.qr] loom was built without CUDA"); }
void orgqr(const Array&, const Array&, const Array&) { throw UnsupportedError("[linalg.qr] loom was built without CUDA"); }

}  // namespace loom::gpu_backend
