// numpy's NaN-ignoring reductions as compositions (ops/nan_reduce.h): NaNs replaced by the
// reduction's identity (0 for sums, 1 for products, -inf / +inf for extrema), and counts
// of the other elements where NumPy divides by them.
#include "loom/ops/nan_reduce.h"

#include <cmath>

#include "loom/core/error.h"
#include "loom/ops/complex.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"

namespace loom {
namespace {

bool has_nans(DType t) { return is_floating(t) || is_complex(t); }

// a with its NaNs replaced by `fill` (a itself for dtypes without NaN).
Array filled(const Array& a, double fill) {
  return has_nans(a.dtype()) ? where(isnan(a), fill, a) : a;
}

// The number of non-NaN elements reduced into each result, in the real dtype of `like`.
Array counts(const Array& a, const AxisArg& axis, bool keepdims, DType like) {
  return sum(logical_not(isnan(a)), axis, keepdims, DType::int64).astype(real_dtype(like));
}

Array nan_extreme(const Array& a, const AxisArg& axis, bool keepdims, bool is_max) {
  if (!has_nans(a.dtype())) return is_max ? max(a, axis, keepdims) : min(a, axis, keepdims);
  const Array x = filled(a, is_max ? -INFINITY : INFINITY);
  const Array m = is_max ? max(x, axis, keepdims) : min(x, axis, keepdims);
  return where(all(isnan(a), axis, keepdims), NAN, m);
}

Array nan_arg(const char* op, const Array& a, std::optional<int64_t> axis, bool keepdims, bool is_max) {
  if (!has_nans(a.dtype())) return is_max ? argmax(a, axis, keepdims) : argmin(a, axis, keepdims);
  const AxisArg axes = axis ? AxisArg(std::vector<int64_t>{*axis}) : std::nullopt;
  bool all_nan_slice = false;
  if (a.size() > 0) any(all(isnan(a), axes)).copy_to_host(&all_nan_slice);
  if (all_nan_slice) throw_value_error(op, "All-NaN slice encountered");
  const Array x = filled(a, is_max ? -INFINITY : INFINITY);
  return is_max ? argmax(x, axis, keepdims) : argmin(x, axis, keepdims);
}

}  // namespace

Array nansum(const Array& a, const AxisArg& axis, bool keepdims, std::optional<DType> dtype) {
  return sum(filled(a, 0), axis, keepdims, dtype);
}

Array nanprod(const Array& a, const AxisArg& axis, bool keepdims, std::optional<DType> dtype) {
  return prod(filled(a, 1), axis, keepdims, dtype);
}

Array nanmean(const Array& a, const AxisArg& axis, bool keepdims, std::optional<DType> dtype) {
  if (!has_nans(a.dtype())) return mean(a, axis, keepdims, dtype);
  const Array total = sum(filled(a, 0), axis, keepdims, dtype);
  return true_divide(total, counts(a, axis, keepdims, total.dtype()));  // 0 / 0: NaN for all-NaN slices
}

Array nanvar(const Array& a, const AxisArg& axis, bool keepdims, std::optional<DType> dtype, double ddof) {
  if (!has_nans(a.dtype())) return var(a, axis, keepdims, dtype, ddof);
  const Array nan = isnan(a);
  const Array x = where(nan, 0.0, dtype ? a.astype(*dtype) : a);
  const Array avg = true_divide(sum(x, axis, true), counts(a, axis, true, x.dtype()));
  const Array d = where(nan, 0.0, subtract(x, avg));
  const Array sq = is_complex(d.dtype()) ? add(square(real(d)), square(imag(d))) : multiply(d, d);
  const Array dof = subtract(counts(a, axis, keepdims, x.dtype()), ddof);
  return where(greater(dof, 0.0), true_divide(sum(sq, axis, keepdims), dof), NAN);
}

Array nanstd(const Array& a, const AxisArg& axis, bool keepdims, std::optional<DType> dtype, double ddof) {
  return sqrt(nanvar(a, axis, keepdims, dtype, ddof));
}

Array nanmax(const Array& a, const AxisArg& axis, bool keepdims) { return nan_extreme(a, axis, keepdims, true); }
Array nanmin(const Array& a, const AxisArg& axis, bool keepdims) { return nan_extreme(a, axis, keepdims, false); }

Array nanargmax(const Array& a, std::optional<int64_t> axis, bool keepdims) {
  return nan_arg("nanargmax", a, axis, keepdims, true);
}
Array nanargmin(const Array& a, std::optional<int64_t> axis, bool keepdims) {
  return nan_arg("nanargmin", a, axis, keepdims, false);
}

}  // namespace loom
