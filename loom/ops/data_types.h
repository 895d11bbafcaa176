// The Array API standard's data type functions that take arrays: result_type over arrays,
// dtypes and Python scalars, and astype as a function with copy= and device=. The queries
// on dtypes alone (finfo, iinfo, can_cast, isdtype) are in core/dtype_info.h.
#pragma once
#include <optional>
#include <vector>

#include "loom/array/array.h"
#include "loom/core/scalar.h"

namespace loom {

/// numpy.result_type: the dtypes promote (promote_types, highest kind first, as NumPy),
/// then the Python scalars join as weak scalars (NEP 50: `int8` with 1 stays int8, with 1.0
/// is float64, `float32` with 1j is complex64). Scalars alone promote by their natural
/// dtypes (int64, float64, ...).
/// std::invalid_argument ("[result_type] ...") when given nothing.
DType result_type(const std::vector<DType>& dtypes, const std::vector<Scalar>& scalars = {});

/// The standard's astype(x, dtype, copy=, device=): `a` converted to `dtype` on `device`
/// (default: a's). With copy=false, `a` itself when neither changes; otherwise a new array.
Array astype(const Array& a, DType dtype, bool copy = true, const std::optional<Device>& device = std::nullopt);

}  // namespace loom
