// GPU decompositions: cuSOLVER (getrf/getrs, potrf, syevd, batched where it has them) is
// the next slice of this family; until then each raises, naming the op, rather than
// copying the matrices to the host behind the caller's back.
#include "loom/backend/linalg_decomp.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {
namespace {
[[noreturn]] void not_yet(const char* op) {
  throw UnsupportedError(std::string("[linalg.") + op +
                         "] is not available on GPUs yet (cuSOLVER comes next); move the matrices to cpu()");
}
}  // namespace

void solve(const Array&, const Array&, const Array&) { not_yet("solve"); }
void slogdet(const Array&, const Array&, const Array&) { not_yet("slogdet"); }
void cholesky(const Array&, const Array&) { not_yet("cholesky"); }
void eigh(const Array&, const Array&, const Array&) { not_yet("eigh"); }
void eigvalsh(const Array&, const Array&) { not_yet("eigvalsh"); }
void svd(const Array&, const Array&, const Array&, const Array&) { not_yet("svd"); }
void svdvals(const Array&, const Array&) { not_yet("svdvals"); }
void geqrf(const Array&, const Array&, const Array&) { not_yet("qr"); }
void orgqr(const Array&, const Array&, const Array&) { not_yet("qr"); }

}  // namespace loom::gpu_backend
