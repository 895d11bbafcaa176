// unique along an axis as NumPy's: the slices become the rows of an (n, k) matrix, sorted by
// lexsort (its last key most significant, so the columns go in reversed), and a row starts a
// value where it differs from the row before in any column.
#include "loom/ops/unique_axis.h"

#include <vector>

#include "loom/core/shape.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/indexing.h"
#include "loom/ops/numeric.h"
#include "loom/ops/ordering.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"

namespace loom::sorting_detail {
namespace {

Array rows_of(const Array& m, int64_t lo, std::optional<int64_t> hi) {
  return getitem(m, {Index(Slice{lo, hi, std::nullopt})});
}

}  // namespace

UniqueArrays unique_along_axis(const Array& a, int64_t axis, bool return_index, bool return_inverse,
                               bool return_counts) {
  const int ax = normalize_axis(axis, a.ndim(), "unique");
  const Device dev = a.device();
  const Array moved = moveaxis(a, {ax}, {0});
  const Shape slice_shape(moved.shape().begin() + 1, moved.shape().end());
  const int64_t n = moved.shape()[0], k = shape_size(slice_shape);
  const Array m = reshape(moved.contiguous(), {n, k});
  // Stable: equal rows keep their first-come order, so a value's first row is its first slice.
  Array perm;
  if (n == 0 || k == 0) {
    perm = arange(Scalar(0LL), Scalar(static_cast<long long>(n)), Scalar(1LL), int64, dev);
  } else {
    std::vector<Array> keys;
    for (int64_t c = k - 1; c >= 0; --c) keys.push_back(getitem(m, {Index(Slice{}), Index(c)}));
    perm = lexsort(keys);
  }
  const Array sorted = getitem(m, {Index(perm)});
  // NaN != NaN: a row holding one starts a value of its own. Rows of no columns are all equal.
  const Array differs = any(not_equal(rows_of(sorted, 1, std::nullopt), rows_of(sorted, 0, -1)), std::vector<int64_t>{1});
  const Array starts = n == 0 ? differs : concatenate({full({1}, Scalar(true), bool_, dev), differs}, 0);
  const Array first = flatnonzero(starts);
  UniqueArrays r;
  Shape values_shape{first.size()};
  values_shape.insert(values_shape.end(), slice_shape.begin(), slice_shape.end());
  r.values = moveaxis(reshape(getitem(sorted, {Index(first)}), values_shape), {0}, {ax}).contiguous();
  if (return_index) r.index = getitem(perm, {Index(first)});
  if (return_counts) r.counts = diff(concatenate({first, full({1}, Scalar(static_cast<long long>(n)), int64, dev)}, 0));
  if (return_inverse) {
    // Each sorted row's value number, written back to the row's place: one entry per slice.
    const Array inverse = Array::allocate({n}, int64, dev);
    if (n > 0) setitem(inverse, {Index(perm)}, subtract(cumsum(starts, 0, int64), Scalar(1LL)));
    r.inverse = inverse;
  }
  return r;
}

}  // namespace loom::sorting_detail
