#include "loom/core/shape.h"

#include <stdexcept>
#include <string>

#include "loom/core/error.h"

namespace loom {

int64_t shape_size(const Shape& shape, const char* op) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) throw_value_error(op, "negative dimensions are not allowed: " + shape_str(shape));
    if (d != 0 && n > INT64_MAX / d) throw_value_error(op, "array is too big: " + shape_str(shape));
    n *= d;
  }
  return n;
}

Strides contiguous_strides(const Shape& shape, size_t itemsize) {
  Strides s(shape.size());
  int64_t acc = static_cast<int64_t>(itemsize);
  for (size_t i = shape.size(); i-- > 0;) {
    s[i] = acc;
    acc *= shape[i] > 0 ? shape[i] : 1;
  }
  return s;
}

bool is_c_contiguous(const Shape& shape, const Strides& strides, size_t itemsize) {
  int64_t expected = static_cast<int64_t>(itemsize);
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] == 0) return true;
    if (shape[i] != 1 && strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op) {
  const size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1) {
      throw_value_error(op, "operands could not be broadcast together with shapes " +
                                shape_str(a) + " " + shape_str(b));
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

Shape broadcast_shapes(const std::vector<Shape>& shapes, const char* op) {
  Shape out;
  for (const Shape& s : shapes) out = broadcast_shapes(out, s, op);
  return out;
}

int normalize_axis(int64_t axis, int ndim, const char* op) {
  if (axis < -ndim || axis >= ndim) {
    throw AxisError(std::string("[") + op + "] axis " + std::to_string(axis) +
                            " is out of bounds for array of dimension " + std::to_string(ndim));
  }
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

std::vector<int> normalize_axes(const std::vector<int64_t>& axes, int ndim, const char* op) {
  std::vector<int> out;
  out.reserve(axes.size());
  for (int64_t a : axes) {
    const int n = normalize_axis(a, ndim, op);
    for (int seen : out)
      if (seen == n) throw_value_error(op, "repeated axis");
    out.push_back(n);
  }
  return out;
}

std::string shape_str(const Shape& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

CollapsedLayout collapse_dims(const Shape& shape, const Strides& strides) {
  CollapsedLayout out;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1) continue;
    if (!out.shape.empty() && out.strides.back() == shape[i] * strides[i]) {
      out.shape.back() *= shape[i];
      out.strides.back() = strides[i];
    } else {
      out.shape.push_back(shape[i]);
      out.strides.push_back(strides[i]);
    }
  }
  return out;
}

int collapse_operands(const Shape& shape, int nops, const int64_t* const* strides, int max_dims,
                      int64_t* out_shape, int64_t* const* out_strides, const char* op) {
  int nd = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    bool merge = nd > 0;
    for (int o = 0; o < nops && merge; ++o) merge = out_strides[o][nd - 1] == shape[d] * strides[o][d];
    if (merge) {
      out_shape[nd - 1] *= shape[d];
      for (int o = 0; o < nops; ++o) out_strides[o][nd - 1] = strides[o][d];
    } else {
      if (nd == max_dims) throw_value_error(op, "too many dimensions");
      out_shape[nd] = shape[d];
      for (int o = 0; o < nops; ++o) out_strides[o][nd] = strides[o][d];
      ++nd;
    }
  }
  if (nd == 0) {  // 0-d or all size-1: one element
    out_shape[0] = 1;
    for (int o = 0; o < nops; ++o) out_strides[o][0] = 0;
    nd = 1;
  }
  return nd;
}

}  // namespace loom
