// numpy's insert, delete, resize, trim_zeros, choose, rollaxis and row_stack as
// compositions (ops/insert_delete.h).
#include "loom/ops/insert_delete.h"

#include <algorithm>
#include <cctype>

#include "loom/core/error.h"
#include "loom/core/shape.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/index_helpers_internal.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/sorting.h"
#include "loom/ops/take.h"

namespace loom {
namespace {

using namespace index_detail;

// The 1-d view of arr that insert and delete work along (the flattened arr when axis is
// unset), and that axis.
struct AlongAxis {
  Array x;
  int axis;
  int64_t n() const { return x.shape()[axis]; }
  // x[:, ..., :, i] with i at `axis`.
  std::vector<Index> index(Index i) const {
    std::vector<Index> ix(static_cast<size_t>(axis), Index(Slice{}));
    ix.push_back(std::move(i));
    return ix;
  }
  Array at(Index i) const { return getitem(x, index(std::move(i))); }
};

AlongAxis along(const char* op, const Array& arr, std::optional<int64_t> axis) {
  if (!axis) return {ravel(arr), 0};
  return {arr, normalize_axis(*axis, arr.ndim(), op)};
}

// Python's slice.indices(n): the first position, the step and how many positions.
struct Range {
  int64_t start, step, count;
};
Range slice_range(const char* op, const Slice& s, int64_t n) {
  const int64_t step = s.step.value_or(1);
  if (step == 0) throw_value_error(op, "slice step cannot be zero");
  auto bound = [&](std::optional<int64_t> v, int64_t fallback) {
    if (!v) return fallback;
    if (*v < 0) return std::max<int64_t>(*v + n, step < 0 ? -1 : 0);
    return std::min<int64_t>(*v, step < 0 ? n - 1 : n);
  };
  const int64_t start = bound(s.start, step < 0 ? n - 1 : 0), stop = bound(s.stop, step < 0 ? -1 : n);
  const int64_t span = step > 0 ? stop - start : start - stop, mag = step > 0 ? step : -step;
  return {start, step, span > 0 ? (span + mag - 1) / mag : 0};
}

[[noreturn]] void out_of_bounds(const char* op, int64_t index, int axis, int64_t n) {
  throw std::out_of_range("[" + std::string(op) + "] index " + std::to_string(index) + " is out of bounds for axis " +
                          std::to_string(axis) + " with size " + std::to_string(n));
}

[[noreturn]] void not_an_index(const char* op) {
  throw std::out_of_range("[" + std::string(op) + "] arrays used as indices must be of integer (or boolean) type");
}

// values as written into a region of shape `target`: as NumPy's assignment, leading
// length-1 axes beyond target's are dropped, and the rest must broadcast to it (ValueError
// naming op).
Array fitted(const char* op, const Array& values, const Shape& target) {
  Shape s = values.shape();
  while (s.size() > target.size() && s.front() == 1) s.erase(s.begin());
  if (broadcast_shapes(s, target, op) != target)
    throw_value_error(op, "could not broadcast values of shape " + shape_str(values.shape()) + " into shape " +
                              shape_str(target));
  return broadcast_to(reshape(values, s), target);
}

// One block of values before position `index` (NumPy's single-index path): values gets
// arr's dtype and leading length-1 axes up to arr's ndim; an integer obj moves its first
// axis to `axis` (so that obj=1 behaves as a[:, 1:2] = values, not a[:, 1] = values).
Array insert_block(const AlongAxis& a, int64_t index, const Array& values, bool scalar_obj) {
  const int64_t n = a.n();
  if (index < -n || index > n) out_of_bounds("insert", index, a.axis, n);
  if (index < 0) index += n;
  Array v = values.astype(a.x.dtype());
  if (v.ndim() < a.x.ndim()) {
    Shape s(static_cast<size_t>(a.x.ndim() - v.ndim()), 1);
    s.insert(s.end(), v.shape().begin(), v.shape().end());
    v = reshape(v, s);
  }
  if (scalar_obj) v = moveaxis(v, {0}, {a.axis});
  Shape target = a.x.shape();
  target[a.axis] = v.shape()[a.axis];
  return concatenate({a.at(Slice{0, index, std::nullopt}), fitted("insert", v, target),
                      a.at(Slice{index, std::nullopt, std::nullopt})},
                     a.axis);
}

// values[..., j, ...] before each of the 1-d int64 `indices` (NumPy's multi-index path).
// Inserted element j lands at its index plus the number of inserted elements sorted before
// it; old element i at i plus the number of indices <= i.
Array insert_many(const AlongAxis& a, const Array& indices, const Array& values) {
  const int64_t n = a.n(), numnew = indices.size();
  const Device dev = a.x.device();
  // NumPy lets an index below -n wrap a second time; loom rejects it as the single path does.
  check_index_bounds("insert", indices, -n, n + 1, a.axis, n);
  const Array idx = where(less(indices, 0), add(indices, n), indices);
  Shape target = a.x.shape();
  target[a.axis] = numnew;
  const Array v = fitted("insert", values, target);
  const Array order = argsort(idx);
  const Array sorted = getitem(idx, {Index(order)});
  Array placed = empty({numnew}, DType::int64, dev);
  setitem(placed, {Index(order)}, add(sorted, arange(0, numnew, 1, DType::int64, dev)));
  const Array old_pos = arange(0, n, 1, DType::int64, dev);
  Shape out_shape = a.x.shape();
  out_shape[a.axis] += numnew;
  const AlongAxis out{empty(out_shape, a.x.dtype(), dev), a.axis};
  setitem(out.x, out.index(placed), v);
  setitem(out.x, out.index(add(old_pos, searchsorted(sorted, old_pos, "right"))), a.x);
  return out.x;
}

}  // namespace

Array insert(const Array& arr, const Index& obj, const Array& values, std::optional<int64_t> axis) {
  const char* op = "insert";
  check_same_device(op, arr.device(), values.device());
  const AlongAxis a = along(op, arr, axis);
  Array indices;
  switch (obj.kind()) {
    case Index::Kind::integer:
      return insert_block(a, obj.integer(), values, true);
    case Index::Kind::slice: {
      const Range r = slice_range(op, obj.slice(), a.n());
      if (r.count == 1) return insert_block(a, r.start, values, false);
      indices = arange(r.start, r.start + r.count * r.step, r.step, DType::int64, arr.device());
      break;
    }
    case Index::Kind::array: {
      const Array& o = obj.array();
      check_same_device(op, arr.device(), o.device());
      if (o.dtype() == DType::bool_) {
        if (o.ndim() != 1) throw_value_error(op, "boolean array argument obj to insert must be one dimensional");
        indices = flatnonzero(o);  // waits for the device: the count is read back
      } else {
        if (!is_integer(o.dtype())) not_an_index(op);
        if (o.ndim() > 1) throw_value_error(op, "index array argument obj to insert must be one dimensional or scalar");
        indices = o.astype(DType::int64);
      }
      if (indices.size() == 1) {
        int64_t index = 0;
        indices.copy_to_host(&index);  // the block's position decides the result's layout
        return insert_block(a, index, values, o.ndim() == 0);
      }
      break;
    }
    default:
      throw_value_error(op, "obj must be an integer, a slice or an array of indices");
  }
  return insert_many(a, indices, values);
}

Array delete_(const Array& arr, const Index& obj, std::optional<int64_t> axis) {
  const char* op = "delete";
  const AlongAxis a = along(op, arr, axis);
  const int64_t n = a.n();
  switch (obj.kind()) {
    case Index::Kind::integer: {
      const int64_t i = obj.integer() < 0 ? obj.integer() + n : obj.integer();
      if (i < 0 || i >= n) out_of_bounds(op, obj.integer(), a.axis, n);
      return concatenate({a.at(Slice{0, i, std::nullopt}), a.at(Slice{i + 1, std::nullopt, std::nullopt})}, a.axis);
    }
    case Index::Kind::slice: {
      // The kept positions are known on the host.
      const Range r = slice_range(op, obj.slice(), n);
      std::vector<bool> drop(static_cast<size_t>(n), false);
      for (int64_t j = 0; j < r.count; ++j) drop[static_cast<size_t>(r.start + j * r.step)] = true;
      std::vector<int64_t> keep;
      for (int64_t i = 0; i < n; ++i)
        if (!drop[static_cast<size_t>(i)]) keep.push_back(i);
      return a.at(int64_array(keep, arr.device()));
    }
    case Index::Kind::array: {
      const Array& o = obj.array();
      check_same_device(op, arr.device(), o.device());
      if (o.dtype() == DType::bool_) {
        if (o.shape() != Shape{n})
          throw_value_error(op, "boolean array argument obj to delete must be one dimensional and match the axis length of " +
                                    std::to_string(n));
        return a.at(logical_not(o));
      }
      if (!is_integer(o.dtype())) not_an_index(op);
      const Array idx = ravel(o.astype(DType::int64));
      check_index_bounds(op, idx, -n, n, a.axis, n);
      const Array keep = ones({n}, DType::bool_, arr.device());
      setitem(keep, {Index(idx)}, zeros({}, DType::bool_, arr.device()));
      return a.at(keep);  // a mask: the kept count is read back
    }
    default:
      throw_value_error(op, "obj must be an integer, a slice or an array of indices");
  }
}

Array resize(const Array& a, const Shape& new_shape) {
  for (int64_t d : new_shape)
    if (d < 0) throw_value_error("resize", "all elements of `new_shape` must be non-negative");
  const int64_t size = shape_size(new_shape, "resize");
  if (a.size() == 0 || size == 0) return zeros(new_shape, a.dtype(), a.device());
  const Array r = reshape(cycled(a, size), new_shape);
  return r.buffer() == a.buffer() ? r.copy() : r;  // a new array, as NumPy's
}

Array trim_zeros(const Array& filt, const std::string& trim, const std::optional<std::vector<int64_t>>& axis) {
  const char* op = "trim_zeros";
  std::string t = trim;
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (t != "fb" && t != "bf" && t != "f" && t != "b")
    throw_value_error(op, "unexpected character(s) in `trim`: '" + t + "'");
  std::vector<int> axes;
  if (axis) {
    axes = normalize_axes(*axis, filt.ndim(), op);
  } else {
    for (int d = 0; d < filt.ndim(); ++d) axes.push_back(d);
  }
  if (axes.empty()) return filt;  // nothing to trim: NumPy returns its input
  // Per trimmed axis, the first and last position holding a nonzero anywhere across the
  // other axes, then whether there is any: all read back at once (the result's shape
  // depends on them, so this waits for the device).
  std::vector<int64_t> host(2 * axes.size() + 1, 0);
  if (filt.size() > 0) {
    const Array nz = filt.astype(DType::bool_);
    std::vector<Array> parts;
    for (int d : axes) {
      std::vector<int64_t> others;
      for (int o = 0; o < filt.ndim(); ++o)
        if (o != d) others.push_back(o);
      const Array hit = others.empty() ? nz : any(nz, others);
      parts.push_back(argmax(hit));
      parts.push_back(subtract(filt.shape()[d] - 1, argmax(flip(hit))));
    }
    parts.push_back(any(nz).astype(DType::int64));
    stack(parts).copy_to_host(host.data());
  }
  const bool found = host.back() != 0, front = t.find('f') != std::string::npos, back = t.find('b') != std::string::npos;
  std::vector<Index> ix(static_cast<size_t>(filt.ndim()), Index(Slice{}));
  for (size_t j = 0; j < axes.size(); ++j) {
    if (!found) {
      ix[axes[j]] = Slice{0, 0, std::nullopt};  // all zero: every trimmed axis empties
      continue;
    }
    ix[axes[j]] = Slice{front ? std::optional<int64_t>(host[2 * j]) : std::nullopt,
                        back ? std::optional<int64_t>(host[2 * j + 1] + 1) : std::nullopt, std::nullopt};
  }
  return getitem(filt, ix);
}

Array choose(const Array& a, const std::vector<Array>& choices, const std::string& mode) {
  const char* op = "choose";
  if (choices.empty()) throw_value_error(op, "choices must not be empty (0-length sequence)");
  check_index_mode(op, mode);
  std::vector<Array> all{int64_indices(op, a, true)};
  std::vector<Shape> shapes{a.shape()};
  for (const Array& c : choices) {
    check_same_device(op, a.device(), c.device());
    all.push_back(c);
    shapes.push_back(c.shape());
  }
  broadcast_shapes(shapes, op);  // ValueError naming choose before broadcast_arrays
  all = broadcast_arrays(all);
  const int64_t n = static_cast<int64_t>(choices.size());
  Array k = all[0];
  if (mode == "raise") {
    if (first_outside(k, 0, n)) throw_value_error(op, "invalid entry in choice array");
  } else {
    k = apply_index_mode(op, k, n, mode);
  }
  // The choices stacked on a new first axis (in their promoted dtype), gathered along it.
  const Array stacked = stack(std::vector<Array>(all.begin() + 1, all.end()), 0);
  return getitem(take_along_axis(stacked, expand_dims(k, {0}), 0), {Index(0)});
}

Array rollaxis(const Array& a, int64_t axis, int64_t start) {
  const int n = a.ndim();
  const int ax = normalize_axis(axis, n, "rollaxis");
  int64_t s = start < 0 ? start + n : start;
  if (s < 0 || s > n)
    throw AxisError("[rollaxis] 'start' arg requires " + std::to_string(-n) + " <= start < " + std::to_string(n + 1) +
                    ", but " + std::to_string(start) + " was passed in");
  if (ax < s) --s;
  if (ax == s) return a.view(a.shape(), a.strides(), a.offset());
  std::vector<int64_t> axes;
  for (int d = 0; d < n; ++d)
    if (d != ax) axes.push_back(d);
  axes.insert(axes.begin() + s, ax);
  return transpose(a, axes);
}

Array row_stack(const std::vector<Array>& arrays, std::optional<DType> dtype, const std::string& casting) {
  return vstack(arrays, dtype, casting);
}

}  // namespace loom
