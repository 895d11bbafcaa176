// numpy's diff, ptp, average, meshgrid and indices as compositions (ops/numeric.h).
#include "loom/ops/numeric.h"

#include <stdexcept>

#include "loom/core/error.h"
#include "loom/core/shape.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/indexing.h"
#include "loom/ops/shape_ops.h"

namespace loom {
namespace {

// a[..., lo:hi, ...] along axis.
Array slice_axis(const Array& a, int axis, std::optional<int64_t> lo, std::optional<int64_t> hi) {
  std::vector<Index> ix(static_cast<size_t>(axis), Index(Slice{}));
  ix.emplace_back(Slice{lo, hi, std::nullopt});
  return getitem(a, ix);
}

// v broadcast to a's shape with length 1 along axis (a 0-d v), or v as it is.
Array edge(const Array& v, const Array& a, int axis) {
  if (v.ndim() > 0) return v;
  Shape s = a.shape();
  s[axis] = 1;
  return broadcast_to(v, s);
}

}  // namespace

Array diff(const Array& a, int64_t n, int64_t axis, const std::optional<Array>& prepend,
           const std::optional<Array>& append) {
  if (n < 0) throw_value_error("diff", "order must be non-negative but got " + std::to_string(n));
  if (a.ndim() == 0) throw_value_error("diff", "diff requires input that is at least one dimensional");
  const int ax = normalize_axis(axis, a.ndim(), "diff");
  if (n == 0) return a;
  Array x = a;
  if (prepend || append) {
    std::vector<Array> parts;
    if (prepend) parts.push_back(edge(*prepend, a, ax));
    parts.push_back(a);
    if (append) parts.push_back(edge(*append, a, ax));
    x = concatenate(parts, ax);
  }
  for (int64_t i = 0; i < n; ++i) {
    const Array hi = slice_axis(x, ax, 1, std::nullopt), lo = slice_axis(x, ax, std::nullopt, -1);
    x = x.dtype() == DType::bool_ ? not_equal(hi, lo) : subtract(hi, lo);
  }
  return x;
}

Array ptp(const Array& a, const AxisArg& axis, bool keepdims) {
  return subtract(max(a, axis, keepdims), min(a, axis, keepdims));
}

std::pair<Array, Array> average(const Array& a, const AxisArg& axis, const std::optional<Array>& weights,
                                bool keepdims) {
  if (!weights) {
    const Array avg = mean(a, axis, keepdims);
    const Array count = sum(ones_like(a, avg.dtype()), axis, keepdims);
    return {avg, count};
  }
  check_same_device("average", a.device(), weights->device());
  Array w = *weights;
  if (w.shape() != a.shape()) {
    if (!axis) throw std::invalid_argument("[average] axis must be specified when shapes of a and weights differ.");
    if (axis->size() != 1 || w.ndim() != 1)
      throw std::invalid_argument("[average] 1D weights expected when shapes of a and weights differ.");
    const int ax = normalize_axis((*axis)[0], a.ndim(), "average");
    if (w.shape()[0] != a.shape()[ax])
      throw std::invalid_argument("[average] length of weights differs from the length of the axis.");
    Shape s(static_cast<size_t>(a.ndim()), 1);
    s[ax] = w.shape()[0];
    w = reshape(w, s);
  }
  // NumPy: integers and bool average in at least float64.
  DType t = promote_types(a.dtype(), w.dtype());
  if (!is_floating(a.dtype()) && !is_complex(a.dtype())) t = promote_types(t, DType::float64);
  const Array wt = w.astype(t);
  const Array scale = sum(broadcast_to(wt, a.shape()), axis, keepdims);
  bool zero = false;
  if (scale.size() > 0) any(equal(scale, 0)).copy_to_host(&zero);
  if (zero) throw std::domain_error("[average] Weights sum to zero, can't be normalized");
  return {true_divide(sum(multiply(a.astype(t), wt), axis, keepdims), scale), scale};
}

std::vector<Array> meshgrid(const std::vector<Array>& xs, bool copy, bool sparse, const std::string& indexing) {
  if (indexing != "xy" && indexing != "ij")
    throw_value_error("meshgrid", "Valid values for `indexing` are 'xy' and 'ij'.");
  const size_t nd = xs.size();
  Shape full;
  for (const Array& x : xs) full.push_back(x.size());
  const bool swap = indexing == "xy" && nd > 1;
  if (swap) std::swap(full[0], full[1]);
  std::vector<Array> out;
  for (size_t i = 0; i < nd; ++i) {
    Shape s(nd, 1);
    s[swap && i < 2 ? 1 - i : i] = xs[i].size();
    Array g = reshape(ravel(xs[i]), s);
    if (!sparse) g = broadcast_to(g, full);
    out.push_back(copy ? g.copy() : g);
  }
  return out;
}

std::vector<Array> indices(const Shape& dims, DType dtype, bool sparse, std::optional<Device> device) {
  const size_t nd = dims.size();
  std::vector<Array> grids;
  for (size_t i = 0; i < nd; ++i) {
    Shape s(nd, 1);
    s[i] = dims[i];
    Array g = reshape(arange(0, dims[i], 1, dtype, device), s);
    grids.push_back(sparse ? g : broadcast_to(g, dims));
  }
  if (sparse) return grids;
  Shape stacked{static_cast<int64_t>(nd)};
  stacked.insert(stacked.end(), dims.begin(), dims.end());
  if (nd == 0) return {empty(stacked, dtype, device)};
  return {stack(grids, 0)};
}

}  // namespace loom
