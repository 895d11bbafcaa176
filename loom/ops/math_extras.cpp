// numpy's elementwise and sequence helpers as compositions (ops/math_extras.h).
#include "loom/ops/math_extras.h"

#include <cmath>
#include <limits>
#include <string>

#include "loom/core/dtype_info.h"
#include "loom/core/error.h"
#include "loom/core/shape.h"
#include "loom/ops/complex.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/indexing.h"
#include "loom/ops/numeric.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/take.h"

namespace loom {
namespace {

constexpr double kPi = 3.14159265358979323846;

bool inexact(DType t) { return is_floating(t) || is_complex(t); }

// The largest finite value of a floating dtype (its real parts' for complex).
double max_finite(DType t) {
  switch (real_dtype(t)) {
    case DType::float16: return 65504.0;
    case DType::bfloat16: return 3.3895313892515355e38;
    case DType::float32: return std::numeric_limits<float>::max();
    default: return std::numeric_limits<double>::max();
  }
}

Array replace_nonfinite(const Array& x, double nan, double posinf, double neginf) {
  return where(isnan(x), nan, where(greater(x, 0.0), where(isinf(x), posinf, x), where(isinf(x), neginf, x)));
}

Array scan_with_initial(const Array& x, std::optional<int64_t> axis, bool include_initial, bool product,
                        std::optional<DType> dtype) {
  if (!axis && x.ndim() > 1) throw_value_error(product ? "cumulative_prod" : "cumulative_sum",
                                               "axis must be specified for arrays of more than one dimension");
  const int64_t ax = axis.value_or(0);
  const std::optional<int64_t> scan_axis = x.ndim() == 0 ? std::nullopt : std::optional<int64_t>(ax);
  Array r = product ? cumprod(x, scan_axis, dtype) : cumsum(x, scan_axis, dtype);
  if (!include_initial) return r;
  const int a = normalize_axis(ax, r.ndim(), "cumulative_sum");
  Shape s = r.shape();
  s[a] = 1;
  return concatenate({full(s, product ? 1 : 0, r.dtype(), r.device()), r}, a);
}

}  // namespace

Array deg2rad(const Array& x) { return multiply(x, kPi / 180.0); }
Array rad2deg(const Array& x) { return multiply(x, 180.0 / kPi); }

Array sinc(const Array& x) {
  // NumPy 2: y = pi * x, its zeros replaced by the dtype's eps (1e-20 for complex, which a
  // float16 would round to 0 and make 0 / 0); sin(y) / y.
  const Array px = multiply(x, kPi);
  const double tiny = is_floating(px.dtype()) ? finfo(px.dtype()).eps : 1.0e-20;
  const Array y = where(equal(px, 0), tiny, px);
  return true_divide(sin(y), y);
}

Array heaviside(const Array& x1, const Array& x2) {
  check_same_device("heaviside", x1.device(), x2.device());
  const Array zero_one = where(less(x1, 0), 0.0, where(greater(x1, 0), 1.0, x2));
  return where(isnan(x1), NAN, zero_one.astype(promote_types(promote_types(x1.dtype(), x2.dtype()), DType::float16)));
}

Array signbit(const Array& x) {
  if (!inexact(x.dtype())) return less(x, 0);
  if (is_complex(x.dtype())) throw_dtype_error("signbit", "ufunc 'signbit' not supported for complex input");
  return less(copysign(1.0, x), 0.0);  // copysign reads the sign bit: -0.0 and -NaN too
}

Array nan_to_num(const Array& x, double nan, std::optional<double> posinf, std::optional<double> neginf) {
  if (!inexact(x.dtype())) return x.copy();
  const double big = max_finite(x.dtype());
  const double hi = posinf.value_or(big), lo = neginf.value_or(-big);
  if (!is_complex(x.dtype())) return replace_nonfinite(x, nan, hi, lo).astype(x.dtype());
  const Array out = x.copy();
  copyto(real(out), replace_nonfinite(real(x), nan, hi, lo));
  copyto(imag(out), replace_nonfinite(imag(x), nan, hi, lo));
  return out;
}

Array logaddexp(const Array& x1, const Array& x2) {
  check_same_device("logaddexp", x1.device(), x2.device());
  // numpy's npy_logaddexp: max + log1p(exp(-|x1 - x2|)), and x1 + log(2) where they are
  // equal (infinities of one sign included).
  const Array r = add(maximum(x1, x2), log1p(exp(negative(absolute(subtract(x1, x2))))));
  return where(equal(x1, x2), add(x1, std::log(2.0)), r);
}

Array logaddexp2(const Array& x1, const Array& x2) {
  check_same_device("logaddexp2", x1.device(), x2.device());
  const Array r = add(maximum(x1, x2), true_divide(log1p(exp2(negative(absolute(subtract(x1, x2))))), std::log(2.0)));
  return where(equal(x1, x2), add(x1, 1.0), r);
}

Array ediff1d(const Array& ary, const std::optional<Array>& to_end, const std::optional<Array>& to_begin) {
  std::vector<Array> parts;
  if (to_begin) parts.push_back(ravel(*to_begin).astype(ary.dtype()));
  parts.push_back(diff(ravel(ary)));
  if (to_end) parts.push_back(ravel(*to_end).astype(ary.dtype()));
  return parts.size() == 1 ? parts[0] : concatenate(parts, 0);
}

Array trapezoid(const Array& y, const std::optional<Array>& x, double dx, int64_t axis) {
  const int ax = normalize_axis(axis, y.ndim(), "trapezoid");
  const int64_t n = y.shape()[ax];
  std::vector<Index> hi(static_cast<size_t>(ax), Index(Slice{})), lo = hi;
  hi.emplace_back(Slice{1, std::nullopt, std::nullopt});
  lo.emplace_back(Slice{std::nullopt, -1, std::nullopt});
  const Array mid = multiply(add(getitem(y, hi), getitem(y, lo)), 0.5);
  if (!x) return multiply(sum(mid, std::vector<int64_t>{ax}), dx);
  Array d = x->ndim() == 1 ? diff(*x) : diff(*x, 1, axis);
  if (x->ndim() == 1) {  // 1-d sample points run along the axis
    if (x->shape()[0] != n) throw_value_error("trapezoid", "x and y must have the same length along axis");
    Shape s(static_cast<size_t>(y.ndim()), 1);
    s[ax] = n - 1;
    d = reshape(d, s);
  }
  return sum(multiply(d, mid), std::vector<int64_t>{ax});
}

// NumPy's: the scan of the array with NaNs replaced, dtype= and out= as cumsum's.
Array nancumsum(const Array& a, std::optional<int64_t> axis, std::optional<DType> dtype, const std::optional<Array>& out) {
  return cumsum(inexact(a.dtype()) ? where(isnan(a), 0.0, a) : a, axis, dtype, out);
}
Array nancumprod(const Array& a, std::optional<int64_t> axis, std::optional<DType> dtype, const std::optional<Array>& out) {
  return cumprod(inexact(a.dtype()) ? where(isnan(a), 1.0, a) : a, axis, dtype, out);
}

Array cumulative_sum(const Array& x, std::optional<int64_t> axis, bool include_initial, std::optional<DType> dtype) {
  return scan_with_initial(x, axis, include_initial, false, dtype);
}
Array cumulative_prod(const Array& x, std::optional<int64_t> axis, bool include_initial, std::optional<DType> dtype) {
  return scan_with_initial(x, axis, include_initial, true, dtype);
}

Array logspace(double start, double stop, int64_t num, bool endpoint, double base, std::optional<DType> dtype,
               std::optional<Device> device) {
  const Array y = power(base, linspace(start, stop, num, endpoint, DType::float64, device));
  return dtype ? y.astype(*dtype) : y;
}

Array geomspace(double start, double stop, int64_t num, bool endpoint, std::optional<DType> dtype,
                std::optional<Device> device) {
  if (start == 0 || stop == 0) throw_value_error("geomspace", "Geometric sequence cannot include zero");
  if ((start < 0) != (stop < 0))
    throw_value_error("geomspace", "start and stop of opposite signs need complex numbers, which are not supported");
  const double sign = start < 0 ? -1.0 : 1.0;
  Array y = multiply(logspace(std::log10(std::abs(start)), std::log10(std::abs(stop)), num, endpoint, 10.0,
                              std::nullopt, device),
                     sign);
  // numpy: the ends exactly start and stop.
  if (num > 0) setitem(y, {Index(int64_t{0})}, full({}, start, DType::float64, y.device()));
  if (num > 1 && endpoint) setitem(y, {Index(int64_t{-1})}, full({}, stop, DType::float64, y.device()));
  return dtype ? y.astype(*dtype) : y;
}

Array vander(const Array& x, std::optional<int64_t> n, bool increasing) {
  if (x.ndim() != 1) throw_value_error("vander", "x must be a one-dimensional array or sequence.");
  const int64_t cols = n.value_or(x.shape()[0]);
  if (cols < 0) throw_value_error("vander", "negative dimensions are not allowed");
  Array powers = arange(0, cols, 1, DType::int64, x.device());
  if (!increasing) powers = flip(powers);
  const DType t = promote_types(x.dtype(), DType::int64);
  return power(expand_dims(x.astype(t), {1}), expand_dims(powers.astype(t), {0}));
}

Array select(const std::vector<Array>& conditions, const std::vector<Array>& choices, const Array& fallback) {
  if (conditions.size() != choices.size())
    throw_value_error("select", "list of cases must be same length as list of conditions");
  if (conditions.empty()) throw_value_error("select", "select with an empty condition list is not possible");
  Array r = fallback;
  for (size_t i = conditions.size(); i-- > 0;) {
    if (conditions[i].dtype() != DType::bool_)
      throw_dtype_error("select", "invalid entry " + std::to_string(i) + " in condlist: should be boolean ndarray");
    r = where(conditions[i], choices[i], r);
  }
  return r;
}

Array extract(const Array& condition, const Array& arr) {
  return getitem(ravel(arr), {Index(not_equal(ravel(condition), 0))});
}

Array compress(const Array& condition, const Array& a, std::optional<int64_t> axis) {
  if (condition.ndim() != 1) throw_value_error("compress", "condition must be a 1-d array");
  const Array x = axis ? a : ravel(a);
  const int ax = axis ? normalize_axis(*axis, a.ndim(), "compress") : 0;
  if (condition.shape()[0] > x.shape()[ax])
    throw std::out_of_range("[compress] condition is longer than the axis");
  return take(x, nonzero(not_equal(condition, 0))[0], ax);
}

}  // namespace loom
