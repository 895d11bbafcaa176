// Shape ops that return views of their input: new shape/strides/offset, same buffer.
#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <string>

#include "loom/core/error.h"
#include "loom/ops/shape_ops.h"

namespace loom {
namespace {

// NumPy's order='A': Fortran when the array is F- but not C-contiguous.
char resolve_order(const Array& a, char order, const char* op) {
  if (order == 'C' || order == 'F') return order;
  if (order == 'A') {
    const Array t = a.transpose();
    return !a.is_contiguous() && t.is_contiguous() ? 'F' : 'C';
  }
  if (order == 'K') throw_value_error(op, "order 'K' is not permitted for reshaping");  // ravel takes it
  throw_value_error(op, std::string("order must be one of 'C', 'F', 'A' (got '") + order + "')");
}

// NumPy's order='K' (ravel, flatten): the elements as they lie in memory, each axis walked
// in its own direction (a reversed axis stays reversed); then C order over that view. The
// axes are ordered as NumPy's iterator orders them: an insertion sort from the innermost
// axis out that moves an axis inward past axes of larger stride size, where a zero stride (a
// broadcast axis) decides nothing, so broadcast axes keep their C-order place.
Array memory_order_view(const Array& a) {
  const int n = a.ndim();
  const Strides& st = a.strides();
  std::vector<int64_t> inner_first(static_cast<size_t>(n));  // [0]: the fastest axis
  for (int k = 0; k < n; ++k) inner_first[k] = n - 1 - k;
  for (int i0 = 1; i0 < n; ++i0) {
    const int64_t axis = inner_first[i0], s0 = std::abs(st[axis]);
    int pos = i0;
    for (int i1 = i0 - 1; i1 >= 0; --i1) {
      const int64_t s1 = std::abs(st[inner_first[i1]]);
      if (s0 == 0 || s1 == 0) continue;  // ambiguous: look further in
      if (s1 <= s0) break;
      pos = i1;
    }
    std::rotate(inner_first.begin() + pos, inner_first.begin() + i0, inner_first.begin() + i0 + 1);
  }
  return transpose(a, std::vector<int64_t>(inner_first.rbegin(), inner_first.rend()));
}

// The view that order `order` reads in C order.
Array ordered_view(const Array& a, char order, const char* op) {
  if (order == 'K') return memory_order_view(a);
  return resolve_order(a, order, op) == 'F' ? a.transpose() : a;
}

Shape reversed(const Shape& s) { return Shape(s.rbegin(), s.rend()); }

Array reshape_c(const Array& a, const Shape& shape, std::optional<bool> copy) {
  if (copy.value_or(false)) return a.copy().view(shape, contiguous_strides(shape, a.itemsize()), 0);
  if (std::optional<Strides> st = reshape_strides(a.shape(), a.strides(), shape, a.itemsize()))
    return a.view(shape, *st, a.offset());
  if (copy.has_value()) throw_value_error("reshape", "unable to avoid creating a copy while reshaping");
  const Array c = a.copy();
  return c.view(shape, contiguous_strides(shape, a.itemsize()), 0);
}

}  // namespace

Shape infer_reshape(const Shape& requested, int64_t size, const char* op) {
  Shape out = requested;
  int unknown = -1;
  int64_t known = 1;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] < 0) {  // NumPy takes any negative value (not only -1) as the unknown one
      if (unknown >= 0) throw_value_error(op, "can only specify one unknown dimension");
      unknown = static_cast<int>(i);
    } else {
      known = shape_size(Shape{known, out[i]}, op);
    }
  }
  const auto mismatch = [&] {
    throw_value_error(op, "cannot reshape array of size " + std::to_string(size) + " into shape " +
                              shape_str(requested));
  };
  if (unknown >= 0) {
    if (known == 0 || size % known != 0) mismatch();
    out[unknown] = size / known;
  } else if (known != size) {
    mismatch();
  }
  return out;
}

std::optional<Strides> reshape_strides(const Shape& shape, const Strides& strides,
                                       const Shape& new_shape, size_t itemsize) {
  // Empty arrays have no elements to address: any layout views them (and the loop below
  // would not terminate on a zero dimension).
  if (is_c_contiguous(shape, strides, itemsize) || shape_size(shape) == 0)
    return contiguous_strides(new_shape, itemsize);
  // Port of NumPy's _attempt_nocopy_reshape (C order); length-1 axes of the old layout
  // are dropped first: their strides carry no information.
  Shape od;
  Strides os;
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] != 1) {
      od.push_back(shape[i]);
      os.push_back(strides[i]);
    }
  const size_t oldnd = od.size(), newnd = new_shape.size();
  Strides ns(newnd, 0);
  size_t oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < newnd && oi < oldnd) {
    int64_t np = new_shape[ni], op = od[oi];
    while (np != op) {
      if (np < op) np *= new_shape[nj++];
      else op *= od[oj++];
    }
    for (size_t ok = oi; ok + 1 < oj; ++ok)
      if (os[ok] != od[ok + 1] * os[ok + 1]) return std::nullopt;
    ns[nj - 1] = os[oj - 1];
    for (size_t nk = nj - 1; nk > ni; --nk) ns[nk - 1] = ns[nk] * new_shape[nk];
    ni = nj++;
    oi = oj++;
  }
  const int64_t last = ni >= 1 ? ns[ni - 1] : static_cast<int64_t>(itemsize);
  for (size_t nk = ni; nk < newnd; ++nk) ns[nk] = last;
  return ns;
}

Array reshape(const Array& a, const Shape& shape, char order, std::optional<bool> copy) {
  const Shape target = infer_reshape(shape, a.size(), "reshape");
  // Fortran order is C order on the reversed axes: (a.T reshaped to reversed shape).T.
  if (resolve_order(a, order, "reshape") == 'F')
    return reshape_c(a.transpose(), reversed(target), copy).transpose();
  return reshape_c(a, target, copy);
}

Array ravel(const Array& a, char order) {
  const Array src = ordered_view(a, order, "ravel");
  // NumPy returns a view only for contiguous input; arr.reshape(-1) views in more cases.
  if (src.is_contiguous()) return src.view({a.size()}, {static_cast<int64_t>(a.itemsize())}, src.offset());
  return src.copy().view({a.size()}, {static_cast<int64_t>(a.itemsize())}, 0);
}

Array flatten(const Array& a, char order) {
  const Array c = ordered_view(a, order, "flatten").copy();
  return c.view({a.size()}, {static_cast<int64_t>(a.itemsize())}, 0);
}

Array transpose(const Array& a, const std::optional<std::vector<int64_t>>& axes) {
  if (!axes) return a.transpose();
  if (static_cast<int>(axes->size()) != a.ndim()) throw_value_error("transpose", "axes don't match array");
  const std::vector<int> perm = normalize_axes(*axes, a.ndim(), "transpose");
  Shape sh(perm.size());
  Strides st(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) {
    sh[i] = a.shape()[perm[i]];
    st[i] = a.strides()[perm[i]];
  }
  return a.view(sh, st, a.offset());
}

Array swapaxes(const Array& a, int64_t axis1, int64_t axis2) {
  const int i = normalize_axis(axis1, a.ndim(), "swapaxes"), j = normalize_axis(axis2, a.ndim(), "swapaxes");
  Shape sh = a.shape();
  Strides st = a.strides();
  std::swap(sh[i], sh[j]);
  std::swap(st[i], st[j]);
  return a.view(sh, st, a.offset());
}

Array diagonal(const Array& a, int64_t offset, int64_t axis1, int64_t axis2) {
  if (a.ndim() < 2) throw_value_error("diagonal", "diag requires an array of at least two dimensions");
  const int i = normalize_axis(axis1, a.ndim(), "diagonal"), j = normalize_axis(axis2, a.ndim(), "diagonal");
  if (i == j) throw_value_error("diagonal", "axis1 and axis2 cannot be the same");
  const int64_t rows = a.shape()[i], cols = a.shape()[j];
  // Element k of the diagonal is (k - min(offset, 0), k + max(offset, 0)).
  const int64_t n = std::max<int64_t>(0, offset >= 0 ? std::min(rows, cols - offset) : std::min(rows + offset, cols));
  int64_t start = a.offset();
  if (n > 0) start += offset >= 0 ? offset * a.strides()[j] : -offset * a.strides()[i];
  Shape sh;
  Strides st;
  for (int d = 0; d < a.ndim(); ++d)
    if (d != i && d != j) sh.push_back(a.shape()[d]), st.push_back(a.strides()[d]);
  sh.push_back(n);
  st.push_back(a.strides()[i] + a.strides()[j]);
  return a.view(sh, st, start);
}

Array moveaxis(const Array& a, const std::vector<int64_t>& source, const std::vector<int64_t>& destination) {
  const std::vector<int> src = normalize_axes(source, a.ndim(), "moveaxis");
  const std::vector<int> dst = normalize_axes(destination, a.ndim(), "moveaxis");
  if (src.size() != dst.size())
    throw_value_error("moveaxis", "`source` and `destination` arguments must have the same number of elements");
  // As NumPy: the axes not moved keep their order, then each source goes to its destination.
  std::vector<int64_t> order;
  for (int i = 0; i < a.ndim(); ++i)
    if (std::find(src.begin(), src.end(), i) == src.end()) order.push_back(i);
  std::vector<std::pair<int, int>> moves;
  for (size_t k = 0; k < src.size(); ++k) moves.emplace_back(dst[k], src[k]);
  std::sort(moves.begin(), moves.end());
  for (const auto& [d, s] : moves) order.insert(order.begin() + d, s);
  return transpose(a, order);
}

Array squeeze(const Array& a, const std::optional<std::vector<int64_t>>& axis) {
  std::vector<bool> drop(a.ndim(), false);
  if (!axis) {
    for (int i = 0; i < a.ndim(); ++i) drop[i] = a.shape()[i] == 1;
  } else {
    for (int i : normalize_axes(*axis, a.ndim(), "squeeze")) {
      if (a.shape()[i] != 1)
        throw_value_error("squeeze", "cannot select an axis to squeeze out which has size not equal to one");
      drop[i] = true;
    }
  }
  Shape sh;
  Strides st;
  for (int i = 0; i < a.ndim(); ++i)
    if (!drop[i]) {
      sh.push_back(a.shape()[i]);
      st.push_back(a.strides()[i]);
    }
  return a.view(sh, st, a.offset());
}

Array expand_dims(const Array& a, const std::vector<int64_t>& axis) {
  const int out_nd = a.ndim() + static_cast<int>(axis.size());
  const std::vector<int> ax = normalize_axes(axis, out_nd, "expand_dims");
  Shape sh(out_nd);
  Strides st(out_nd);
  int src = 0;
  for (int i = 0; i < out_nd; ++i) {
    if (std::find(ax.begin(), ax.end(), i) != ax.end()) {
      sh[i] = 1;
      // Any stride is valid for a length-1 axis; the contiguous one keeps flags as NumPy's.
      st[i] = src < a.ndim() ? a.strides()[src] * a.shape()[src] : static_cast<int64_t>(a.itemsize());
    } else {
      sh[i] = a.shape()[src];
      st[i] = a.strides()[src];
      ++src;
    }
  }
  return a.view(sh, st, a.offset());
}

Array broadcast_to(const Array& a, const Shape& shape) {
  for (int64_t d : shape)
    if (d < 0) throw_value_error("broadcast_to", "all elements of broadcast shape must be non-negative");
  if (shape.size() < static_cast<size_t>(a.ndim()))
    throw_value_error("broadcast_to", "input operand has more dimensions than allowed by the axis remapping");
  const size_t lead = shape.size() - a.ndim();
  Strides st(shape.size(), 0);
  for (int i = 0; i < a.ndim(); ++i) {
    const int64_t from = a.shape()[i], to = shape[lead + i];
    if (from == to) st[lead + i] = a.strides()[i];
    else if (from != 1)
      throw_value_error("broadcast_to", "operands could not be broadcast together with remapped shapes "
                                        "[original->remapped]: " + shape_str(a.shape()) + " and requested shape " +
                                        shape_str(shape));
  }
  return a.view(shape, st, a.offset());
}

std::vector<Array> broadcast_arrays(const std::vector<Array>& arrays) {
  std::vector<Shape> shapes;
  for (const Array& x : arrays) shapes.push_back(x.shape());
  const Shape target = broadcast_shapes(shapes, "broadcast_arrays");
  std::vector<Array> out;
  for (const Array& x : arrays) out.push_back(broadcast_to(x, target));
  return out;
}

Array atleast_1d(const Array& a) { return a.ndim() >= 1 ? a : a.view({1}, {static_cast<int64_t>(a.itemsize())}, a.offset()); }

Array atleast_2d(const Array& a) {
  if (a.ndim() >= 2) return a;
  return a.ndim() == 0 ? reshape(a, {1, 1}) : expand_dims(a, {0});
}

Array atleast_3d(const Array& a) {
  // NumPy: 0-d -> (1, 1, 1), (N,) -> (1, N, 1), (M, N) -> (M, N, 1).
  if (a.ndim() >= 3) return a;
  if (a.ndim() == 0) return reshape(a, {1, 1, 1});
  if (a.ndim() == 1) return expand_dims(a, {0, 2});
  return expand_dims(a, {2});
}

Array flip(const Array& a, const std::optional<std::vector<int64_t>>& axis) {
  std::vector<int> axes;
  if (axis) {
    axes = normalize_axes(*axis, a.ndim(), "flip");
  } else {
    axes.resize(a.ndim());
    std::iota(axes.begin(), axes.end(), 0);
  }
  Strides st = a.strides();
  int64_t offset = a.offset();
  for (int i : axes) {
    // Element 0 becomes the last one along the axis; an empty array has none to move to.
    if (a.size() > 0) offset += (a.shape()[i] - 1) * st[i];
    st[i] = -st[i];
  }
  return a.view(a.shape(), st, offset);
}

Array fliplr(const Array& a) {
  if (a.ndim() < 2) throw_value_error("fliplr", "Input must be >= 2-d.");
  return flip(a, std::vector<int64_t>{1});
}

Array flipud(const Array& a) {
  if (a.ndim() < 1) throw_value_error("flipud", "Input must be >= 1-d.");
  return flip(a, std::vector<int64_t>{0});
}

}  // namespace loom
