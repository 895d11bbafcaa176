// What the derivative rules share (ops/grad_rules.h).
#include "loom/ops/grad_rules.h"

#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"

namespace loom {
namespace grad_rules {

void pass_through(const TracedOp&, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  in_cts[0] = out_cts[0];
}

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

}  // namespace loom
