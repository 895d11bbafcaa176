// Sorting complex arrays in NumPy's order, as a composition of the real (stable, NaN-last)
// argsort: by the class of NaNs (none, in the imaginary part only, in the real part only,
// in both: NumPy's [R + Rj, R + nanj, nan + Rj, nan + nanj]), then the real part, then the
// imaginary part. Three stable passes from the least significant key up, each an argsort of
// the keys gathered in the current order, so every device sorts complex values with the
// radix sorts it already has. unique follows from the sort, with the same ops.
#include "loom/ops/sorting_complex.h"

#include "loom/ops/complex.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/indexing.h"
#include "loom/ops/numeric.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/sorting.h"

namespace loom::sorting_detail {
namespace {

// x (rows, n) gathered by idx (rows, n) int64 along the last axis: out[r, j] = x[r, idx[r, j]].
Array take_rows(const Array& x, const Array& idx) {
  const int64_t rows = x.shape()[0], n = x.shape()[1];
  const Array row0 = multiply(expand_dims(arange(0, rows, 1, int64, x.device()), {1}), n);
  return getitem(reshape(x.contiguous(), {rows * n}), {Index(add(idx, row0))});
}

}  // namespace

Array complex_sort_last(const Array& src, bool indices) {
  const int64_t n = src.shape().back(), rows = src.size() / n;
  const Array z = reshape(src.contiguous(), {rows, n});
  const Array re = real(z), im = imag(z);
  Array p = argsort(im, -1);
  p = take_rows(p, argsort(take_rows(re, p), -1));
  const Array nan_class = add(isnan(im).astype(int8), multiply(isnan(re).astype(int8), 2));
  p = take_rows(p, argsort(take_rows(nan_class, p), -1));
  return reshape(indices ? p : take_rows(z, p), src.shape());
}

UniqueArrays complex_unique(const Array& a, bool return_index, bool return_inverse, bool return_counts,
                            bool equal_nan) {
  const int64_t n = a.size();
  const Device dev = a.device();
  const Array flat = reshape(a.contiguous(), {n});
  const Array perm = complex_sort_last(flat, true);  // stable: equal values keep their first-come order
  const Array sorted = getitem(flat, {Index(perm)});
  const Array next = getitem(sorted, {Index(Slice{1, std::nullopt, std::nullopt})});
  const Array prev = getitem(sorted, {Index(Slice{std::nullopt, -1, std::nullopt})});
  Array differs = not_equal(next, prev);  // NaN != NaN: each NaN starts a value
  if (equal_nan) differs = logical_and(differs, logical_not(logical_and(isnan(next), isnan(prev))));
  const Array starts = concatenate({full({1}, Scalar(true), bool_, dev), differs}, 0);
  const Array first = flatnonzero(starts);  // where each value starts in the sorted order
  UniqueArrays r;
  r.values = getitem(sorted, {Index(first)});
  if (return_index) r.index = getitem(perm, {Index(first)});
  if (return_counts) r.counts = diff(concatenate({first, full({1}, Scalar(static_cast<long long>(n)), int64, dev)}, 0));
  if (return_inverse) {
    // The value number of each sorted element, written back to the element's place.
    const Array group = subtract(cumsum(starts, 0, int64), Scalar(1));
    const Array inverse = Array::allocate({n}, int64, dev);
    setitem(inverse, {Index(perm)}, group);
    r.inverse = reshape(inverse, a.shape());
  }
  return r;
}

}  // namespace loom::sorting_detail
