// Shared machinery of the reduction ops (reduce.cpp, reduce_scan.cpp, reduce_norm.cpp):
// the reduced-axis mask, the plan that views the input as dense [outer][len][inner]
// (copying only when no such view exists), and one driver that runs a ReduceKind on
// either backend.
#pragma once
#include <optional>
#include <vector>

#include "loom/array/array.h"
#include "loom/backend/reduce_kinds.h"
#include "loom/ops/reduce.h"

namespace loom::reduce_impl {

/// mask[d] is true when axis d is reduced (axis nullopt: every axis).
std::vector<bool> reduced_mask(const Array& a, const AxisArg& axis, const char* op);

struct Plan {
  Array src;            // `a` itself when it has a dense view, else a contiguous copy
  ReduceGeometry geom;  // src as [outer][len][inner]; output [outer][inner] in C order
  Shape out_shape;      // the result without keepdims
  Shape keep_shape;     // the result with keepdims
};
/// `ordered`: the reduced axes must also keep their order (argmin/argmax flat indices).
Plan plan_reduction(const Array& a, const std::vector<bool>& reduced, bool ordered);

/// A contiguous array's view with another shape of the same size.
Array reshaped(const Array& contiguous, const Shape& shape);

/// Runs `kind` over the axes of `mask`, returning a new array of reduce_out_dtype(kind, a)
/// (keepdims applied). Raises the NumPy ValueError for kinds without identity over an
/// empty axis.
Array reduce_masked(const char* op, const Array& a, const std::vector<bool>& mask, bool keepdims,
                    ReduceKind kind, const ReduceParams& params = {});

/// max/min (want_index false) or argmax/argmin of a complex array in NumPy's lexicographic
/// order, the first NaN winning (ops/reduce_complex.cpp).
Array complex_extreme(const char* op, const Array& a, const AxisArg& axis, bool keepdims, bool is_max,
                      bool want_index, const std::optional<Array>& out);

/// Writes `result` into `out` (shape must match exactly) and returns `out`; returns
/// `result` when out is empty.
Array finish_out(const char* op, const Array& result, const std::optional<Array>& out);

}  // namespace loom::reduce_impl
