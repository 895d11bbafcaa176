// numpy's fill_diagonal, place, put and putmask as compositions (ops/inplace_updates.h):
// flat positions written through setitem, or a where() over the whole array copied back.
#include "loom/ops/inplace_updates.h"

#include <algorithm>

#include "loom/core/error.h"
#include "loom/core/shape.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/index_helpers_internal.h"
#include "loom/ops/indexing.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/sorting.h"

namespace loom {
namespace {

using namespace index_detail;

// mask as a bool array of a's shape; ValueError unless it has a's number of elements.
Array mask_like(const char* op, const Array& a, const Array& mask) {
  check_same_device(op, a.device(), mask.device());
  if (mask.size() != a.size()) throw_value_error(op, "mask and data must be the same size");
  const Array m = mask.dtype() == DType::bool_ ? mask : not_equal(mask, 0);
  return reshape(m, a.shape());
}

// a = where(mask, values, a): every element is rewritten, but nothing waits for the device
// (a boolean-mask setitem would read the mask's count back).
void write_where(const Array& a, const Array& mask, const Array& values) {
  copyto(a, where(mask, values.astype(a.dtype()), a));
}

}  // namespace

void fill_diagonal(const Array& a, const Array& val, bool wrap) {
  const char* op = "fill_diagonal";
  check_same_device(op, a.device(), val.device());
  if (a.ndim() < 2) throw_value_error(op, "array must be at least 2-d");
  // The diagonal's flat C-order positions start at 0 and step by `step`, as NumPy's.
  int64_t step = 1, end = a.size();
  if (a.ndim() == 2) {
    step = a.shape()[1] + 1;
    if (!wrap) end = std::min(end, a.shape()[1] * a.shape()[1]);
  } else {
    int64_t block = 1;
    for (int d = 0; d + 1 < a.ndim(); ++d) {
      if (a.shape()[d] != a.shape()[0]) throw_value_error(op, "All dimensions of input must be of equal length");
      block *= a.shape()[d];
      step += block;
    }
    if (a.shape().back() != a.shape()[0]) throw_value_error(op, "All dimensions of input must be of equal length");
  }
  const int64_t count = end > 0 ? (end + step - 1) / step : 0;
  if (count == 0 || val.size() == 0) return;  // NumPy's a.flat[...] = [] writes nothing
  set_flat(a, arange(0, count * step, step, DType::int64, a.device()), cycled(val, count));
}

void place(const Array& arr, const Array& mask, const Array& vals) {
  const char* op = "place";
  check_same_device(op, arr.device(), vals.device());
  const Array m = mask_like(op, arr, mask);
  if (vals.size() == 0) {
    if (any_true(m)) throw_value_error(op, "Cannot insert from an empty array!");
    return;
  }
  // The k-th true element takes vals[k % len(vals)]; k is the inclusive count minus one.
  const Array rank = subtract(cumsum(ravel(m)), 1);
  const Array chosen = getitem(ravel(vals), {Index(remainder(rank, vals.size()))});
  write_where(arr, m, reshape(chosen, arr.shape()));
}

void put(const Array& a, const Array& ind, const Array& v, const std::string& mode) {
  const char* op = "put";
  check_same_device(op, a.device(), ind.device());
  check_same_device(op, a.device(), v.device());
  // NumPy casts the indices unsafely (floats truncate); complex has no integer value.
  if (is_complex(ind.dtype())) throw_dtype_error(op, std::string("cannot use ") + dtype_name(ind.dtype()) + " indices");
  Array idx = ravel(ind.dtype() == DType::int64 ? ind : ind.astype(DType::int64));
  const int64_t n = a.size();
  check_index_mode(op, mode);
  if (idx.size() == 0) return;
  if (n == 0) throw std::out_of_range("[put] cannot replace elements of an empty array");
  if (v.size() == 0) return;  // NumPy writes nothing
  if (mode == "raise") {
    check_index_bounds(op, idx, -n, n, 0, n);
    idx = remainder(idx, n);  // negative indices count from the end
  } else {
    idx = apply_index_mode(op, idx, n, mode);
  }
  // NumPy writes in order, so of repeated positions the last value stays. A scatter's
  // order is unspecified on a GPU: keep only each position's last occurrence (a stable
  // sort groups the repeats in order; the last of each group survives).
  const Array values = cycled(v, idx.size());
  if (idx.size() > 1) {
    const Array order = argsort(idx);
    const Array sorted = getitem(idx, {Index(order)});
    const Array last = concatenate({not_equal(getitem(sorted, {Index(Slice{std::nullopt, -1, std::nullopt})}),
                                              getitem(sorted, {Index(Slice{1, std::nullopt, std::nullopt})})),
                                    ones({1}, DType::bool_, a.device())}, 0);
    const Array keep = getitem(order, {Index(last)});  // waits for the device: the count of distinct positions
    set_flat(a, getitem(idx, {Index(keep)}), getitem(values, {Index(keep)}));
    return;
  }
  set_flat(a, idx, values);
}

void putmask(const Array& a, const Array& mask, const Array& values) {
  const char* op = "putmask";
  check_same_device(op, a.device(), values.device());
  const Array m = mask_like(op, a, mask);
  if (values.size() == 0) return;  // NumPy writes nothing
  write_where(a, m, reshape(cycled(values, a.size()), a.shape()));
}

}  // namespace loom
