// NumPy's max, min, argmax and argmin of complex values: lexicographic (the real part, then
// the imaginary part), the first NaN (in either part) winning as NumPy's maximum.reduce
// does. Composed of real reductions over the reduced axes moved last and flattened, so
// every device has them with no complex comparison in the reduction engine.
#include <cmath>
#include <string>

#include "loom/core/error.h"
#include "loom/ops/complex.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/indexing.h"
#include "loom/ops/reduce_common.h"
#include "loom/ops/shape_ops.h"

namespace loom::reduce_impl {
namespace {

// x (..., n), n > 0: the int64 position along the last axis of its extreme value.
Array lexicographic_arg(const Array& x, bool is_max) {
  const AxisArg last = std::vector<int64_t>{-1};
  const Array re = real(x), im = imag(x);
  const Array nan = logical_or(isnan(re), isnan(im));
  const double worst = is_max ? -INFINITY : INFINITY;
  auto best_of = [&](const Array& v) { return is_max ? max(v, last, true) : min(v, last, true); };
  const Array best_re = best_of(where(nan, worst, re));
  const Array on_best_re = logical_and(equal(re, best_re), logical_not(nan));
  const Array best_im = best_of(where(on_best_re, im, worst));
  const Array best = logical_and(on_best_re, equal(im, best_im));
  return where(any(nan, last), argmax(nan, -1), argmax(best, -1));
}

}  // namespace

Array complex_extreme(const char* op, const Array& a, const AxisArg& axis, bool keepdims, bool is_max,
                      bool want_index, const std::optional<Array>& out) {
  const std::vector<bool> mask = reduced_mask(a, axis, op);
  std::vector<int64_t> perm;
  Shape kept, keep_shape;
  int64_t len = 1;
  for (int d = 0; d < a.ndim(); ++d) {
    keep_shape.push_back(mask[d] ? 1 : a.shape()[d]);
    if (mask[d]) continue;
    perm.push_back(d);
    kept.push_back(a.shape()[d]);
  }
  for (int d = 0; d < a.ndim(); ++d)
    if (mask[d]) {
      perm.push_back(d);
      len *= a.shape()[d];
    }
  if (len == 0) {
    if (want_index) throw_value_error(op, std::string("attempt to get ") + op + " of an empty sequence");
    throw_value_error(op, std::string("zero-size array to reduction operation ") + (is_max ? "maximum" : "minimum") +
                              " which has no identity");
  }
  Shape flat = kept;
  flat.push_back(len);
  // The reduced axes last, in their order: a flat index over them is NumPy's (C order).
  const Array x = reshape(transpose(a, perm).contiguous(), flat);
  const Array idx = lexicographic_arg(x, is_max);
  Array r = idx;
  if (!want_index) {
    const int64_t rows = x.size() / len;
    const Array row0 = multiply(arange(0, rows, 1, int64, a.device()), len);
    r = reshape(getitem(reshape(x, {rows * len}), {Index(add(reshape(idx, {rows}), row0))}), kept);
  }
  if (keepdims) r = reshape(r, keep_shape);
  return finish_out(op, r, out);
}

}  // namespace loom::reduce_impl
