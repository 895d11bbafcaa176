// Reductions (NumPy 2 semantics): sum prod mean var std min/amin max/amax argmin argmax
// any all, the scans cumsum cumprod, and linalg::norm, vector_norm and matrix_norm.
//
// Shared conventions:
//  - axis: nullopt reduces every axis; otherwise a list of axes (negative counts from the
//    end; a repeated axis is a ValueError, an out-of-range one loom::AxisError).
//  - keepdims keeps reduced axes as size-1 dimensions.
//  - dtype: the dtype the elements are cast to before accumulating (NumPy's dtype=).
//  - out: an existing array of the result's shape (any dtype and layout on the CPU) that
//    receives the result (cast as NumPy's copyto); the function then returns `out`.
// Dtype rules (NumPy 2): sum/prod/cumsum/cumprod of bool and signed integers give int64,
// of unsigned integers uint64; float16/bfloat16 accumulate in float32 and keep their dtype;
// mean/var/std of bool and integers give float64; argmin/argmax give int64 (first
// occurrence; the first NaN wins); min/max propagate NaN; any/all give bool.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "loom/array/array.h"

namespace loom {

using AxisArg = std::optional<std::vector<int64_t>>;

Array sum(const Array& a, const AxisArg& axis = std::nullopt, bool keepdims = false,
          std::optional<DType> dtype = std::nullopt, const std::optional<Array>& out = std::nullopt);
Array prod(const Array& a, const AxisArg& axis = std::nullopt, bool keepdims = false,
           std::optional<DType> dtype = std::nullopt, const std::optional<Array>& out = std::nullopt);
/// Arithmetic mean; an empty reduction gives NaN (NumPy also warns).
Array mean(const Array& a, const AxisArg& axis = std::nullopt, bool keepdims = false,
           std::optional<DType> dtype = std::nullopt, const std::optional<Array>& out = std::nullopt);
/// Variance with divisor max(N - ddof, 0), computed in two passes (mean, then squared
/// deviations) for accuracy.
Array var(const Array& a, const AxisArg& axis = std::nullopt, bool keepdims = false,
          std::optional<DType> dtype = std::nullopt, double ddof = 0,
          const std::optional<Array>& out = std::nullopt);
/// sqrt(var(...)).
Array std(const Array& a, const AxisArg& axis = std::nullopt, bool keepdims = false,
          std::optional<DType> dtype = std::nullopt, double ddof = 0,
          const std::optional<Array>& out = std::nullopt);
/// Minimum / maximum; ValueError when a reduced axis is empty (no identity).
Array min(const Array& a, const AxisArg& axis = std::nullopt, bool keepdims = false,
          const std::optional<Array>& out = std::nullopt);
Array max(const Array& a, const AxisArg& axis = std::nullopt, bool keepdims = false,
          const std::optional<Array>& out = std::nullopt);
inline Array amin(const Array& a, const AxisArg& axis = std::nullopt, bool keepdims = false,
                  const std::optional<Array>& out = std::nullopt) {
  return min(a, axis, keepdims, out);
}
inline Array amax(const Array& a, const AxisArg& axis = std::nullopt, bool keepdims = false,
                  const std::optional<Array>& out = std::nullopt) {
  return max(a, axis, keepdims, out);
}
/// Index of the first minimum / maximum along `axis` (flat C-order index when nullopt).
Array argmin(const Array& a, std::optional<int64_t> axis = std::nullopt, bool keepdims = false,
             const std::optional<Array>& out = std::nullopt);
Array argmax(const Array& a, std::optional<int64_t> axis = std::nullopt, bool keepdims = false,
             const std::optional<Array>& out = std::nullopt);
Array any(const Array& a, const AxisArg& axis = std::nullopt, bool keepdims = false,
          const std::optional<Array>& out = std::nullopt);
Array all(const Array& a, const AxisArg& axis = std::nullopt, bool keepdims = false,
          const std::optional<Array>& out = std::nullopt);
/// Inclusive scans along `axis`; nullopt scans the flattened (C-order) array.
Array cumsum(const Array& a, std::optional<int64_t> axis = std::nullopt,
             std::optional<DType> dtype = std::nullopt, const std::optional<Array>& out = std::nullopt);
Array cumprod(const Array& a, std::optional<int64_t> axis = std::nullopt,
              std::optional<DType> dtype = std::nullopt, const std::optional<Array>& out = std::nullopt);

namespace linalg {

/// NumPy's `ord` argument: None, a number (inf and -inf included) or "fro"/"f"/"nuc".
struct NormOrd {
  enum class Kind : uint8_t { none, number, fro, nuc } kind = Kind::none;
  double p = 0;
  static NormOrd number(double v) { return {Kind::number, v}; }
};

/// numpy.linalg.norm: vector norms (ord None/2, 1, inf, -inf, 0, any p) and matrix norms
/// (None/"fro", 1, -1, inf, -inf, and 2, -2, "nuc" through the singular values). Integer and bfloat16 inputs are computed in float64 (NumPy casts
/// non-inexact dtypes with astype(float)); float16/32/64 keep their dtype.
Array norm(const Array& x, const NormOrd& ord = {}, const AxisArg& axis = std::nullopt,
           bool keepdims = false);
/// The Array API's vector_norm: the vector norm `ord` (as norm's; default 2) over every
/// axis in `axis` at once (nullopt: all of them), in norm's dtypes.
Array vector_norm(const Array& x, const AxisArg& axis = std::nullopt, bool keepdims = false,
                  const NormOrd& ord = {});
/// The Array API's matrix_norm: norm's matrix norm `ord` (default Frobenius) of the
/// matrices spanned by the last two axes.
Array matrix_norm(const Array& x, bool keepdims = false, const NormOrd& ord = {});

}  // namespace linalg
}  // namespace loom
