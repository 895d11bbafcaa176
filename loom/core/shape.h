// Shapes and strides: element counts, C-contiguous strides, broadcasting and the
// collapsing of dimensions that can be walked as one.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace loom {

using Shape = std::vector<int64_t>;
/// Strides in bytes, NumPy convention (may be negative or zero).
using Strides = std::vector<int64_t>;

/// Product of the dimensions (1 for a 0-d shape); throws std::invalid_argument("[op] ...")
/// for a negative dimension or an overflowing product.
int64_t shape_size(const Shape& shape, const char* op = "shape");
/// C-contiguous strides in bytes for elements of `itemsize` bytes.
Strides contiguous_strides(const Shape& shape, size_t itemsize);
bool is_c_contiguous(const Shape& shape, const Strides& strides, size_t itemsize);
/// NumPy's broadcast of two shapes; throws std::invalid_argument naming `op`.
Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op);
/// NumPy's broadcast of any number of shapes.
Shape broadcast_shapes(const std::vector<Shape>& shapes, const char* op);
/// An axis in [-ndim, ndim) as a non-negative axis; otherwise throws loom::AxisError
/// ("[op] axis 3 is out of bounds for array of dimension 2").
int normalize_axis(int64_t axis, int ndim, const char* op);
/// Each axis normalized; a repeated axis throws std::invalid_argument ("[op] repeated axis").
std::vector<int> normalize_axes(const std::vector<int64_t>& axes, int ndim, const char* op);
/// "(2, 3)" as NumPy prints shapes.
std::string shape_str(const Shape& shape);

/// A strided layout reduced to the fewest dimensions: size-1 dims dropped and
/// neighbours merged where stride[i] == shape[i+1] * stride[i+1].
struct CollapsedLayout {
  Shape shape;
  Strides strides;
};
CollapsedLayout collapse_dims(const Shape& shape, const Strides& strides);

/// collapse_dims for `nops` operands walked together over `shape` (strides[o][d], in
/// elements or bytes): size-1 dims dropped, neighbours merged where every operand allows.
/// Writes out_shape[0, nd) and out_strides[o][0, nd) and returns nd, at least 1 (a 0-d or
/// all-size-1 shape is one element, stride 0). More than `max_dims` dims left raises
/// std::invalid_argument naming `op`.
int collapse_operands(const Shape& shape, int nops, const int64_t* const* strides, int max_dims,
                      int64_t* out_shape, int64_t* const* out_strides, const char* op);

}  // namespace loom
