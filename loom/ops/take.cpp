// numpy's take, take_along_axis, put_along_axis and roll as compositions (ops/take.h).
#include "loom/ops/take.h"

#include <map>

#include "loom/core/error.h"
#include "loom/core/shape.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/indexing.h"
#include "loom/ops/shape_ops.h"

namespace loom {
namespace {

Array integer_indices(const char* op, const Array& indices) {
  if (!is_integer(indices.dtype()))
    throw_dtype_error(op, std::string("indices must be integers, not ") + dtype_name(indices.dtype()));
  return indices.dtype() == DType::int64 ? indices : indices.astype(DType::int64);
}

// The index of arr[i_0, ..., indices, ..., i_n] with i_d = arange(n_d) shaped to broadcast
// along axis d only: numpy's _make_along_axis_idx.
std::vector<Index> along_axis_index(const char* op, const Array& arr, const Array& indices, int axis) {
  if (indices.ndim() != arr.ndim())
    throw_value_error(op, "`indices` and `arr` must have the same number of dimensions");
  const Array idx = integer_indices(op, indices);
  std::vector<Index> ix;
  for (int d = 0; d < arr.ndim(); ++d) {
    if (d == axis) {
      ix.emplace_back(idx);
      continue;
    }
    Shape s(static_cast<size_t>(arr.ndim()), 1);
    s[d] = arr.shape()[d];
    ix.emplace_back(reshape(arange(0, arr.shape()[d], 1, DType::int64, arr.device()), s));
  }
  return ix;
}

}  // namespace

Array take(const Array& a, const Array& indices, std::optional<int64_t> axis, const std::string& mode) {
  check_same_device("take", a.device(), indices.device());
  const Array x = axis ? a : ravel(a);
  const int ax = axis ? normalize_axis(*axis, a.ndim(), "take") : 0;
  const int64_t n = x.shape()[ax];
  Array idx = integer_indices("take", indices);
  if (mode == "wrap" || mode == "clip") {
    if (n == 0 && idx.size() > 0) throw std::out_of_range("[take] cannot do a non-empty take from an empty axes.");
    if (n > 0) idx = mode == "wrap" ? remainder(idx, n) : clip(idx, Operand(int64_t{0}), Operand(n - 1));
  } else if (mode != "raise") {
    throw_value_error("take", "clipmode must be one of 'clip', 'raise', or 'wrap' (got '" + mode + "')");
  }
  std::vector<Index> ix(static_cast<size_t>(ax), Index(Slice{}));
  ix.emplace_back(idx);
  return getitem(x, ix);
}

Array take_along_axis(const Array& arr, const Array& indices, std::optional<int64_t> axis) {
  check_same_device("take_along_axis", arr.device(), indices.device());
  if (!axis) {
    if (indices.ndim() != 1) throw_value_error("take_along_axis", "when axis=None, `indices` must have a single dimension.");
    return take_along_axis(ravel(arr), indices, 0);
  }
  const int ax = normalize_axis(*axis, arr.ndim(), "take_along_axis");
  return getitem(arr, along_axis_index("take_along_axis", arr, indices, ax));
}

void put_along_axis(const Array& arr, const Array& indices, const Array& values, std::optional<int64_t> axis) {
  check_same_device("put_along_axis", arr.device(), indices.device());
  if (!axis) {
    if (indices.ndim() != 1) throw_value_error("put_along_axis", "when axis=None, `indices` must have a single dimension.");
    if (!arr.is_contiguous()) throw_value_error("put_along_axis", "axis=None needs a contiguous array to write through");
    put_along_axis(reshape(arr, {arr.size()}), indices, values, 0);
    return;
  }
  const int ax = normalize_axis(*axis, arr.ndim(), "put_along_axis");
  setitem(arr, along_axis_index("put_along_axis", arr, indices, ax), values);
}

Array roll(const Array& a, const std::vector<int64_t>& shift, const std::optional<std::vector<int64_t>>& axis) {
  if (!axis) {
    if (shift.size() != 1) throw_value_error("roll", "shift must be a single integer when axis is None");
    return reshape(roll(ravel(a), shift, std::vector<int64_t>{0}), a.shape());
  }
  const size_t count = std::max(shift.size(), axis->size());
  if ((shift.size() != 1 && shift.size() != count) || (axis->size() != 1 && axis->size() != count))
    throw_value_error("roll", "'shift' and 'axis' should be scalars or 1D sequences of the same length");
  std::map<int, int64_t> total;  // numpy adds the shifts of a repeated axis
  for (size_t i = 0; i < count; ++i) {
    const int ax = normalize_axis((*axis)[axis->size() == 1 ? 0 : i], a.ndim(), "roll");
    total[ax] += shift[shift.size() == 1 ? 0 : i];
  }
  Array r = a;
  for (const auto& [ax, s] : total) {
    const int64_t n = a.shape()[ax];
    if (n == 0) continue;
    const int64_t k = ((s % n) + n) % n;
    if (k == 0) continue;
    std::vector<Index> tail(static_cast<size_t>(ax), Index(Slice{})), head = tail;
    tail.emplace_back(Slice{n - k, std::nullopt, std::nullopt});
    head.emplace_back(Slice{std::nullopt, n - k, std::nullopt});
    r = concatenate({getitem(r, tail), getitem(r, head)}, ax);
  }
  return r.buffer() == a.buffer() ? a.copy() : r;  // a new array, as numpy's
}

}  // namespace loom
