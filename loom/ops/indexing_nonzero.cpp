// nonzero and its relatives: the backends count the nonzero elements of a contiguous
// array (a device part), this file reads the total back (the host part: it sizes the
// result), and the backends write the indices as one (ndim, count) int64 array.
#include <string>

#include "loom/ops/indexing_primitives.h"
#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/indexing.h"
#include "loom/ops/reduce.h"

namespace loom {
namespace {

// The total that NonzeroStartsFn leaves last in `starts`.
int64_t read_total(const Array& starts) {
  int64_t total = 0;
  starts.view({1}, {8}, starts.offset() + (starts.size() - 1) * 8).copy_to_host(&total);
  return total;
}

// `a` as the evals take it: contiguous, and a complex array as its bool "nonzero" (either
// part), since the counting kernels have real dtypes only.
Array countable(const Array& a) { return is_complex(a.dtype()) ? not_equal(a, 0) : a.contiguous(); }

// (ndim, count) int64 indices of the nonzero elements of `a` (ndim >= 1).
Array nonzero_rows(const Array& a) {
  const Array c = countable(a);
  if (c.size() == 0) {
    const Array out = Array::allocate({c.ndim(), 0}, int64, c.device());
    dispatch(primitives::nonzero, {c}, {out}, c, Array(), out);
    return out;
  }
  const Array starts = dispatch(primitives::nonzero_count, {c}, {}, c);
  const Array out = Array::allocate({c.ndim(), read_total(starts)}, int64, c.device());
  dispatch(primitives::nonzero, {c, starts}, {out}, c, starts, out);
  return out;
}

Array flat(const Array& a) {
  const Array c = a.contiguous();
  return c.view({c.size()}, {static_cast<int64_t>(c.itemsize())}, c.offset());
}

}  // namespace

std::vector<Array> nonzero(const Array& a) {
  if (a.ndim() == 0) {
    throw_value_error("nonzero", "Calling nonzero on 0d arrays is not allowed. Use "
                                 "atleast_1d(scalar).nonzero() instead.");
  }
  const Array rows = nonzero_rows(a);
  const int64_t count = rows.shape()[1];
  std::vector<Array> out;
  for (int d = 0; d < a.ndim(); ++d) out.push_back(rows.view({count}, {8}, rows.offset() + d * count * 8));
  return out;
}

Array flatnonzero(const Array& a) { return nonzero(flat(a))[0]; }

Array argwhere(const Array& a) {
  if (a.ndim() == 0) {
    // NumPy: the indices of a 0-d array are empty tuples, one per nonzero element.
    return Array::allocate({count_nonzero(a), 0}, int64, a.device());
  }
  return nonzero_rows(a).transpose().contiguous();
}

int64_t count_nonzero(const Array& a) {
  const Array c = countable(a);
  if (c.size() == 0) return 0;
  return read_total(dispatch(primitives::count_nonzero, {c}, {}, c));
}

Array count_nonzero(const Array& a, const std::optional<std::vector<int64_t>>& axis, bool keepdims) {
  return sum(not_equal(a, 0), axis, keepdims, int64);
}

}  // namespace loom
