// The sorting family's rules: axes, 0-d and empty arrays, dtypes and devices. Compute
// lives in backend/cpu/sorting*.cpp and backend/cuda/sorting.cpp.
#include "loom/ops/sorting.h"

#include "loom/ops/sorting_primitives.h"
#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/sorting_complex.h"
#include "loom/ops/unique_axis.h"

namespace loom {
namespace {

// `a` with axis `axis` moved to the end (a view).
Array axis_to_last(const Array& a, int axis) {
  Shape s = a.shape();
  Strides st = a.strides();
  const int64_t d = s[axis], t = st[axis];
  s.erase(s.begin() + axis);
  st.erase(st.begin() + axis);
  s.push_back(d);
  st.push_back(t);
  return a.view(s, st, a.offset());
}

// Inverse of axis_to_last.
Array last_to_axis(const Array& a, int axis) {
  Shape s = a.shape();
  Strides st = a.strides();
  const int64_t d = s.back(), t = st.back();
  s.pop_back();
  st.pop_back();
  s.insert(s.begin() + axis, d);
  st.insert(st.begin() + axis, t);
  return a.view(s, st, a.offset());
}

// A contiguous array viewed with another shape of the same size.
Array reshape_contiguous(const Array& a, const Shape& shape) {
  return a.view(shape, contiguous_strides(shape, a.itemsize()), a.offset());
}

Array flattened(const Array& a) { return reshape_contiguous(a.contiguous(), {a.size()}); }

// Sorted values or sorting indices of `a` along `axis` (normalized), in a's shape.
Array sort_along(const Array& a, int axis, bool indices) {
  const DType out_dt = indices ? int64 : a.dtype();
  if (a.size() == 0) return Array::allocate(a.shape(), out_dt, a.device());
  const bool last = axis == a.ndim() - 1;
  const Array src = last ? a : axis_to_last(a, axis);
  if (is_complex(a.dtype())) {
    const Array out = sorting_detail::complex_sort_last(src, indices);
    return last ? out : last_to_axis(out, axis).contiguous();
  }
  const Array out = Array::allocate(src.shape(), out_dt, a.device());
  dispatch(indices ? primitives::argsort : primitives::sort, {src}, {out}, src, out, indices);
  return last ? out : last_to_axis(out, axis).contiguous();
}

// Descending order along `axis` from the stable ascending sort of the reversed array:
// reversed again, equal elements are back in their first order (the values' reverse would
// swap them), and index i of the reversed array is n - 1 - i of `a`.
Array sort_descending(const Array& a, int axis, bool indices) {
  const std::vector<int64_t> ax{axis};
  const Array r = flip(sort_along(flip(a, ax), axis, indices), ax);
  if (!indices) return r.contiguous();
  return subtract(Scalar(static_cast<long long>(a.shape()[axis] - 1)), r);
}

Array sort_either(const Array& a, int axis, bool indices, bool descending) {
  return descending ? sort_descending(a, axis, indices) : sort_along(a, axis, indices);
}

}  // namespace

Array sort(const Array& a, std::optional<int64_t> axis, bool descending) {
  if (!axis) return sort_either(flattened(a), 0, false, descending);
  return sort_either(a, normalize_axis(*axis, a.ndim(), "sort"), false, descending);
}

Array argsort(const Array& a, std::optional<int64_t> axis, bool descending) {
  if (!axis) return sort_either(flattened(a), 0, true, descending);
  // NumPy's argsort treats a 0-d array as 1-d (np.argsort(np.array(5)) is [0]).
  const Array x = a.ndim() == 0 ? reshape_contiguous(a.contiguous(), {1}) : a;
  return sort_either(x, normalize_axis(*axis, x.ndim(), "argsort"), true, descending);
}

void sort_inplace(const Array& a, int64_t axis) {
  const int ax = normalize_axis(axis, a.ndim(), "sort");
  if (a.size() == 0) return;
  copyto(a, sort_along(a, ax, false));
}

UniqueArrays unique(const Array& a, bool return_index, bool return_inverse, bool return_counts,
                    std::optional<int64_t> axis, bool equal_nan) {
  if (axis) return sorting_detail::unique_along_axis(a, *axis, return_index, return_inverse, return_counts);
  UniqueArrays r;
  if (a.size() == 0) {
    r.values = Array::allocate({0}, a.dtype(), a.device());
    if (return_index) r.index = Array::allocate({0}, int64, a.device());
    if (return_inverse) r.inverse = Array::allocate(a.shape(), int64, a.device());
    if (return_counts) r.counts = Array::allocate({0}, int64, a.device());
    return r;
  }
  if (is_complex(a.dtype()))  // the unique evals have real keys: a composition over the complex sort
    return sorting_detail::complex_unique(a, return_index, return_inverse, return_counts, equal_nan);
  r = dispatch(primitives::unique, {a}, {}, a, return_index, return_inverse, return_counts, equal_nan);
  // NumPy 2: with axis=None the inverse has the input's shape (np.take(values, inverse)).
  if (return_inverse) r.inverse = reshape_contiguous(r.inverse, a.shape());
  return r;
}

Array searchsorted(const Array& a, const Array& v, const std::string& side,
                   const std::optional<Array>& sorter) {
  if (side != "left" && side != "right")
    throw_value_error("searchsorted", "search side must be 'left' or 'right' (got '" + side + "')");
  check_same_device("searchsorted", a.device(), v.device());
  if (a.ndim() != 1)
    throw_value_error("searchsorted", "a must be 1-d (got " + std::to_string(a.ndim()) + " dimensions)");
  Array sort_idx;
  if (sorter) {
    check_same_device("searchsorted", a.device(), sorter->device());
    if (!is_integer(sorter->dtype()))
      throw_dtype_error("searchsorted", "sorter must only contain integers");
    if (sorter->ndim() != 1 || sorter->size() != a.size())
      throw_value_error("searchsorted", "sorter.size must equal a.size");
    sort_idx = sorter->dtype() == int64 ? sorter->contiguous() : sorter->astype(int64);
  }
  // NumPy compares in the common dtype of a and v.
  const DType dt = promote_types(a.dtype(), v.dtype());
  const Array ac = a.dtype() == dt ? a.contiguous() : a.astype(dt);
  const Array vc = v.dtype() == dt ? v.contiguous() : v.astype(dt);
  const Array out = Array::allocate(v.shape(), int64, v.device());
  if (v.size() == 0) return out;
  if (sort_idx.valid()) {
    if (a.size() > 0) {
      // The check's device part leaves a flag; reading it is the one wait of searchsorted.
      const Array bad = Array::allocate({}, int32, a.device());
      dispatch(primitives::searchsorted_sorter, {sort_idx}, {bad}, sort_idx, bad);
      int32_t flag = 0;
      bad.copy_to_host(&flag);
      if (flag) throw_value_error("searchsorted", "Sorter index out of range.");
    }
    dispatch(primitives::searchsorted, {ac, vc, sort_idx}, {out}, ac, vc, sort_idx, side == "right", out);
  } else {
    dispatch(primitives::searchsorted, {ac, vc}, {out}, ac, vc, sort_idx, side == "right", out);
  }
  return out;
}

Array select_ranks(const Array& a, const Array& ranks) {
  const char* op = "select_ranks";
  check_same_device(op, a.device(), ranks.device());
  if (is_complex(a.dtype())) throw_dtype_error(op, "a must be an array of real numbers");
  if (ranks.dtype() != int64 || ranks.ndim() != 1) throw_value_error(op, "ranks must be a 1-d int64 array");
  if (ranks.size() > kMaxSelectRanks)
    throw_value_error(op, "at most " + std::to_string(kMaxSelectRanks) + " ranks at a time");
  if (a.size() == 0) throw_value_error(op, "a must not be empty");
  const Array x = flattened(a), r = ranks.contiguous();
  const Array out = Array::allocate({r.size()}, a.dtype(), a.device());
  if (r.size() > 0) dispatch(primitives::select_ranks, {x, r}, {out}, x, r, out);
  return out;
}

}  // namespace loom
