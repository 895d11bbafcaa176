// register_grad_rules (ops/transform_rules.h): every family's derivative rules.
#include "loom/ops/grad_rules.h"

#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/transform_rules.h"

namespace loom {
namespace grad_rules {

void no_cotangent(const TracedOp&, const std::vector<Array>&, std::vector<Array>&) {}

Array zeros_laid_out_as(const Array& like) {
  int64_t neg = 0, pos = 0;
  for (int d = 0; d < like.ndim(); ++d) {
    const int64_t ext = (like.shape()[d] - 1) * like.strides()[d];
    (ext < 0 ? neg : pos) += like.shape()[d] > 0 ? ext : 0;
  }
  const int64_t isz = static_cast<int64_t>(like.itemsize());
  const Array z = zeros({(pos - neg) / isz + 1}, like.dtype(), like.device());
  return z.view(like.shape(), like.strides(), z.offset() - neg);
}

Array copy_laid_out_as(const Array& src, const Array& like) {
  Array out = zeros_laid_out_as(like);
  copyto(out, src);
  return out;
}

}  // namespace grad_rules

void register_grad_rules() {
  register_elementwise_grad_rules();
  grad_rules::register_reduce();
  grad_rules::register_linalg();
  grad_rules::register_creation();
  grad_rules::register_indexing();
  grad_rules::register_shape();
  grad_rules::register_sorting();
  grad_rules::register_conv();
  grad_rules::register_pool();
  grad_rules::register_nn_loss();
  grad_rules::register_linalg_decomp();
  grad_rules::register_counting();
  grad_rules::register_fft();
}

}  // namespace loom
