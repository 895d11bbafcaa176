#include "loom/ops/reduce_common.h"

#include <algorithm>

#include "loom/ops/reduce_primitives.h"
#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/elementwise.h"

namespace loom::reduce_impl {

std::vector<bool> reduced_mask(const Array& a, const AxisArg& axis, const char* op) {
  std::vector<bool> mask(a.ndim(), !axis.has_value());
  if (axis)
    for (int d : normalize_axes(*axis, a.ndim(), op)) mask[d] = true;
  return mask;
}

Array reshaped(const Array& c, const Shape& shape) {
  return c.view(shape, contiguous_strides(shape, c.itemsize()), c.offset());
}

Plan plan_reduction(const Array& a, const std::vector<bool>& reduced, bool ordered) {
  Plan p;
  int64_t len = 1;
  for (int d = 0; d < a.ndim(); ++d) {
    const int64_t n = a.shape()[d];
    p.keep_shape.push_back(reduced[d] ? 1 : n);
    if (reduced[d]) len *= n;
    else p.out_shape.push_back(n);
  }
  const int64_t out_size = shape_size(p.out_shape);
  p.src = a;
  p.geom = {out_size, len, 1};
  if (a.size() == 0) return p;  // nothing is read: an identity fill or an empty result

  // Sort the non-trivial axes by decreasing stride and look for a dense layout in which the
  // reduced axes form one block and the kept axes keep their order (the output's C order).
  struct Ax {
    int64_t n, stride;
    bool red;
    int orig;
  };
  std::vector<Ax> ax;
  for (int d = 0; d < a.ndim(); ++d)
    if (a.shape()[d] != 1) ax.push_back({a.shape()[d], a.strides()[d], static_cast<bool>(reduced[d]), d});
  std::stable_sort(ax.begin(), ax.end(), [](const Ax& x, const Ax& y) { return x.stride > y.stride; });
  bool ok = true;
  int64_t expect = static_cast<int64_t>(a.itemsize());
  for (auto it = ax.rbegin(); it != ax.rend() && ok; ++it) {
    ok = it->stride == expect;
    expect *= it->n;
  }
  int blocks = 0, last_kept = -1, last_red = -1;
  int64_t outer = 1, inner = 1;
  for (size_t k = 0; k < ax.size() && ok; ++k) {
    if (ax[k].red) {
      if (k == 0 || !ax[k - 1].red) ++blocks;
      if (ordered && ax[k].orig < last_red) ok = false;
      last_red = ax[k].orig;
    } else {
      if (ax[k].orig < last_kept) ok = false;
      last_kept = ax[k].orig;
      (blocks == 0 ? outer : inner) *= ax[k].n;
    }
  }
  if (ok && blocks <= 1) {
    if (blocks == 0) outer *= inner, inner = 1;
    p.geom = {outer, len, inner};
    return p;
  }
  // No dense view: copy with the kept axes first and the reduced ones last (C order).
  Shape shape;
  Strides strides;
  for (int pass = 0; pass < 2; ++pass)
    for (int d = 0; d < a.ndim(); ++d)
      if (static_cast<bool>(reduced[d]) == (pass == 1)) {
        shape.push_back(a.shape()[d]);
        strides.push_back(a.strides()[d]);
      }
  p.src = a.view(shape, strides, a.offset()).copy();
  return p;
}

Array reduce_masked(const char* op, const Array& a, const std::vector<bool>& mask, bool keepdims,
                    ReduceKind kind, const ReduceParams& params) {
  if (reduce_kind_float_only(kind) && !is_floating(a.dtype()))
    throw_dtype_error(op, std::string("needs a float input, got ") + dtype_name(a.dtype()));
  Plan p = plan_reduction(a, mask, kind == ReduceKind::argmin || kind == ReduceKind::argmax);
  if (p.geom.len == 0) {
    switch (kind) {
      case ReduceKind::min:
      case ReduceKind::norm_min_abs:
        throw_value_error(op, "zero-size array to reduction operation minimum which has no identity");
      case ReduceKind::max:
        throw_value_error(op, "zero-size array to reduction operation maximum which has no identity");
      case ReduceKind::argmin:
      case ReduceKind::argmax:
        throw_value_error(op, std::string("attempt to get ") + reduce_kind_name(kind) + " of an empty sequence");
      default:
        break;
    }
  }
  Array out = Array::allocate(p.out_shape, reduce_out_dtype(kind, a.dtype()), a.device());
  if (out.size() > 0) dispatch(primitives::reduce_of(kind, params), {p.src}, {out}, p.src, p.geom, kind, params, out);
  return keepdims ? reshaped(out, p.keep_shape) : out;
}

Array finish_out(const char* op, const Array& result, const std::optional<Array>& out) {
  if (!out) return result;
  if (out->shape() != result.shape())
    throw_value_error(op, "output parameter has shape " + shape_str(out->shape()) + ", expected " +
                              shape_str(result.shape()));
  copyto(*out, result);
  return *out;
}

}  // namespace loom::reduce_impl
