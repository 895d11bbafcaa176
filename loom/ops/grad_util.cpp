#include "loom/ops/grad_util.h"

#include <stdexcept>
#include <vector>

#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"

namespace loom {

Array sum_to_shape(const Array& ct, const Shape& shape) {
  if (ct.shape() == shape) return ct;
  const size_t nd = ct.shape().size();
  if (shape.size() > nd)
    throw std::invalid_argument("[sum_to_shape] cannot sum shape " + shape_str(ct.shape()) + " to " +
                                shape_str(shape));
  const size_t lead = nd - shape.size();
  std::vector<int64_t> axes;
  for (size_t a = 0; a < nd; ++a) {
    if (a < lead) {
      axes.push_back(static_cast<int64_t>(a));
    } else if (shape[a - lead] != ct.shape()[a]) {
      if (shape[a - lead] != 1)
        throw std::invalid_argument("[sum_to_shape] cannot sum shape " + shape_str(ct.shape()) + " to " +
                                    shape_str(shape));
      axes.push_back(static_cast<int64_t>(a));
    }
  }
  // keepdims, then drop the leading axes: a view, since they have length 1.
  const Array s = sum(ct, axes, /*keepdims=*/true, ct.dtype());
  return reshape(s, shape);
}

Array cast_to(const Array& a, DType dtype) {
  if (a.dtype() == dtype) return a;
  if (is_complex(a.dtype()) && !is_complex(dtype)) return cast_to(real(a), dtype);  // a view
  if (!has_tangent_space(a.dtype()) || !has_tangent_space(dtype)) return a.astype(dtype);
  // Between floats (and into complex), the op table's cast: its derivative rule is ours (ops/elementwise_grad.cpp),
  // so a rule's casts differentiate again without the creation family's rules.
  UfuncArgs args;
  args.dtype = dtype;
  const Operand in(a);
  return apply(OpId::copy, &in, 1, args);
}

Array cotangent_for(const Array& ct, const Array& like) {
  return cast_to(sum_to_shape(ct, like.shape()), like.dtype());
}

Array conj(const Array& a) { return is_complex(a.dtype()) ? conjugate(a) : a; }

Array zero_cotangent(const Array& like) { return zeros(like.shape(), like.dtype(), like.device()); }

}  // namespace loom
