// Rules of the fused softmax cross-entropy (backend/nn_loss.h): shapes, dtypes, and the
// int64 labels and contiguous operands the evals take.
#include "loom/ops/nn_loss.h"

#include <string>

#include "loom/ops/nn_loss_primitives.h"
#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/creation.h"

namespace loom {
namespace {

void check(const char* who, const Array& logits, const Array& labels) {
  if (logits.ndim() != 2)
    throw_value_error(who, "expected logits of shape (N, C), got " + std::to_string(logits.ndim()) + " dimensions");
  if (logits.dtype() != DType::float32 && logits.dtype() != DType::float64)
    throw_dtype_error(who, std::string("needs float32 or float64 logits, got ") + dtype_name(logits.dtype()));
  if (dtype_kind(labels.dtype()) != DTypeKind::signed_int && dtype_kind(labels.dtype()) != DTypeKind::unsigned_int)
    throw_dtype_error(who, std::string("labels must be integers, got ") + dtype_name(labels.dtype()));
  if (labels.ndim() != 1 || labels.shape()[0] != logits.shape()[0])
    throw_value_error(who, "labels must have shape (" + std::to_string(logits.shape()[0]) + ",) for logits of " +
                               std::to_string(logits.shape()[0]) + " rows");
}

Array int64_labels(const Array& labels) {
  return (labels.dtype() == DType::int64 ? labels : labels.astype(int64)).contiguous();
}

}  // namespace

Array softmax_cross_entropy(const Array& logits, const Array& labels) {
  const char* who = "softmax_cross_entropy";
  check(who, logits, labels);
  const Array x = logits.contiguous(), y = int64_labels(labels);
  const Array loss = empty({x.shape()[0]}, x.dtype(), x.device());
  const Array lse = empty({x.shape()[0]}, x.dtype(), x.device());
  dispatch(primitives::cross_entropy, {x, y}, {loss, lse}, x, y, loss, lse);
  return loss;
}

Array softmax_cross_entropy_grad(const Array& logits, const Array& labels, const Array& lse, const Array& ct) {
  const char* who = "softmax_cross_entropy_grad";
  check(who, logits, labels);
  const Shape rows{logits.shape()[0]};
  if (lse.shape() != rows || ct.shape() != rows)
    throw_value_error(who, "lse and the cotangent must have one value per row of the logits");
  const Array x = logits.contiguous(), y = int64_labels(labels);
  const Array l = (lse.dtype() == x.dtype() ? lse : lse.astype(x.dtype())).contiguous();
  const Array c = (ct.dtype() == x.dtype() ? ct : ct.astype(x.dtype())).contiguous();
  const Array dx = empty(x.shape(), x.dtype(), x.device());
  dispatch(primitives::cross_entropy_grad, {x, y, l, c}, {dx}, x, y, l, c, dx);
  return dx;
}

}  // namespace loom
