// numpy's column_stack, dstack, hsplit, vsplit, dsplit, append, rot90, unstack, kron and
// matrix_transpose as compositions (ops/stacking.h).
#include "loom/ops/stacking.h"

#include <string>

#include "loom/core/error.h"
#include "loom/core/shape.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/indexing.h"
#include "loom/ops/shape_ops.h"

namespace loom {
namespace {

int split_axis(const char* op, const Array& a, int axis, int min_ndim) {
  if (a.ndim() < min_ndim)
    throw_value_error(op, std::string(op) + " only works on arrays of " + std::to_string(min_ndim) +
                              " or more dimensions");
  return axis;
}

int h_axis(const Array& a) { return split_axis("hsplit", a, a.ndim() > 1 ? 1 : 0, 1); }

}  // namespace

Array column_stack(const std::vector<Array>& arrays) {
  std::vector<Array> cols;
  for (const Array& x : arrays) cols.push_back(x.ndim() < 2 ? reshape(x, {x.size(), 1}) : x);
  return concatenate(cols, 1);
}

Array dstack(const std::vector<Array>& arrays) {
  std::vector<Array> xs;
  for (const Array& x : arrays) xs.push_back(atleast_3d(x));
  return concatenate(xs, 2);
}

std::vector<Array> hsplit(const Array& a, int64_t sections) { return split(a, sections, h_axis(a)); }
std::vector<Array> vsplit(const Array& a, int64_t sections) { return split(a, sections, split_axis("vsplit", a, 0, 2)); }
std::vector<Array> dsplit(const Array& a, int64_t sections) { return split(a, sections, split_axis("dsplit", a, 2, 3)); }
std::vector<Array> hsplit_at(const Array& a, const std::vector<int64_t>& indices) {
  return split_at(a, indices, h_axis(a));
}
std::vector<Array> vsplit_at(const Array& a, const std::vector<int64_t>& indices) {
  return split_at(a, indices, split_axis("vsplit", a, 0, 2));
}
std::vector<Array> dsplit_at(const Array& a, const std::vector<int64_t>& indices) {
  return split_at(a, indices, split_axis("dsplit", a, 2, 3));
}

Array append(const Array& arr, const Array& values, std::optional<int64_t> axis) {
  if (!axis) return concatenate({ravel(arr), ravel(values)}, 0);
  return concatenate({arr, values}, *axis);
}

Array rot90(const Array& a, int64_t k, int64_t axis0, int64_t axis1) {
  if (a.ndim() < 2) throw_value_error("rot90", "Axes must be different.");  // numpy's message for 1-d too
  const int a0 = normalize_axis(axis0, a.ndim(), "rot90"), a1 = normalize_axis(axis1, a.ndim(), "rot90");
  if (a0 == a1) throw_value_error("rot90", "Axes must be different.");
  k = ((k % 4) + 4) % 4;
  if (k == 0) return a.view(a.shape(), a.strides(), a.offset());
  if (k == 2) return flip(flip(a, std::vector<int64_t>{a0}), std::vector<int64_t>{a1});
  // k = 1: flip along axis1, then swap the axes; k = 3: swap, then flip along axis1.
  if (k == 1) return swapaxes(flip(a, std::vector<int64_t>{a1}), a0, a1);
  return flip(swapaxes(a, a0, a1), std::vector<int64_t>{a1});
}

Array matrix_transpose(const Array& a) {
  if (a.ndim() < 2)
    throw_value_error("matrix_transpose", "x must be at least 2-dimensional (got " + std::to_string(a.ndim()) + ")");
  return swapaxes(a, -1, -2);
}

std::vector<Array> unstack(const Array& a, int64_t axis) {
  if (a.ndim() == 0) throw_value_error("unstack", "Input array must be at least 1-d.");
  const int ax = normalize_axis(axis, a.ndim(), "unstack");
  std::vector<Array> out;
  for (int64_t i = 0; i < a.shape()[ax]; ++i) {
    std::vector<Index> ix(static_cast<size_t>(ax), Index(Slice{}));
    ix.emplace_back(i);
    out.push_back(getitem(a, ix));
  }
  return out;
}

Array kron(const Array& a, const Array& b) {
  check_same_device("kron", a.device(), b.device());
  const int nd = std::max(a.ndim(), b.ndim());
  // Both with nd axes (leading ones), then a's axes interleaved with b's: (a0, 1, a1, 1, ...)
  // times (1, b0, 1, b1, ...), reshaped to (a0 b0, a1 b1, ...).
  auto padded = [nd](const Array& x) {
    Shape s(static_cast<size_t>(nd - x.ndim()), 1);
    s.insert(s.end(), x.shape().begin(), x.shape().end());
    return reshape(x, s);
  };
  const Array ap = padded(a), bp = padded(b);
  Shape sa, sb, out;
  for (int d = 0; d < nd; ++d) {
    sa.push_back(ap.shape()[d]);
    sa.push_back(1);
    sb.push_back(1);
    sb.push_back(bp.shape()[d]);
    out.push_back(ap.shape()[d] * bp.shape()[d]);
  }
  return reshape(multiply(reshape(ap, sa), reshape(bp, sb)), out);
}

}  // namespace loom
