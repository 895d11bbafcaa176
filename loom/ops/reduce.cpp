// sum prod mean var std min max argmin argmax any all: NumPy 2's rules on top of
// reduce_masked (reduce_common.cpp), which picks the layout and the backend.
#include "loom/ops/reduce.h"

#include <algorithm>

#include "loom/core/error.h"
#include "loom/ops/complex.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/reduce_common.h"

namespace loom {
namespace {

using reduce_impl::complex_extreme;
using reduce_impl::finish_out;
using reduce_impl::reduce_masked;
using reduce_impl::reduced_mask;

// sum/prod with dtype=: NumPy casts the elements to `dtype` before accumulating. The
// backends accumulate integers in 64 bits, which gives the same wrapped result when cast
// down at the end (int8 sums wrap as int8 ones do).
Array sum_like(const char* op, ReduceKind kind, const Array& a, const AxisArg& axis, bool keepdims,
               std::optional<DType> dtype, const std::optional<Array>& out) {
  if (!dtype && out) dtype = out->dtype();  // ufunc.reduce: dtype defaults to out's
  const auto mask = reduced_mask(a, axis, op);
  const DType natural = reduce_out_dtype(kind, a.dtype());
  const bool recast = dtype && *dtype != a.dtype() && *dtype != natural;
  const Array src = recast ? a.astype(*dtype) : a;
  Array r = reduce_masked(op, src, mask, keepdims, kind);
  if (dtype && r.dtype() != *dtype) r = r.astype(*dtype);
  return finish_out(op, r, out);
}

// mean/var/std with dtype=: a float dtype is the accumulation dtype (the input is cast to
// it); an integer dtype gets the float64 result cast to it.
Array mean_like(const char* op, ReduceKind kind, const Array& a, const AxisArg& axis, bool keepdims,
                std::optional<DType> dtype, const ReduceParams& params, const std::optional<Array>& out) {
  const auto mask = reduced_mask(a, axis, op);
  Array src = a;
  if (dtype && is_floating(*dtype) && *dtype != a.dtype()) src = a.astype(*dtype);
  Array r = reduce_masked(op, src, mask, keepdims, kind, params);
  if (dtype && r.dtype() != *dtype) r = r.astype(*dtype);
  return finish_out(op, r, out);
}

int64_t reduced_count(const Array& a, const std::vector<bool>& mask) {
  int64_t n = 1;
  for (int d = 0; d < a.ndim(); ++d)
    if (mask[d]) n *= a.shape()[d];
  return n;
}

Array var_like(const char* op, const Array& a, const AxisArg& axis, bool keepdims, std::optional<DType> dtype,
               double ddof, bool take_sqrt, const std::optional<Array>& out) {
  const auto mask = reduced_mask(a, axis, op);
  ReduceParams params;
  params.count = static_cast<double>(reduced_count(a, mask));
  params.divisor = std::max(params.count - ddof, 0.0);
  params.take_sqrt = take_sqrt;
  if (is_complex(a.dtype()) && (!dtype || is_complex(*dtype))) {
    // NumPy's complex var: the mean of |x - mean|^2, real (float32 for complex64), computed
    // as the sums of the parts' squares over the divisor.
    const Array x = dtype ? a.astype(*dtype) : a;
    const Array m = divide(sum_like(op, ReduceKind::sum, x, axis, true, std::nullopt, std::nullopt),
                           Operand(params.count));
    const Array d = subtract(x, m), re = real(d), im = imag(d);
    const Array sq = add(multiply(re, re), multiply(im, im));  // (d * conj(d)).real, as NumPy
    Array r = divide(sum_like(op, ReduceKind::sum, sq, axis, keepdims, std::nullopt, std::nullopt),
                     Operand(params.divisor));
    if (take_sqrt) r = sqrt(r);
    return finish_out(op, r, out);
  }
  return mean_like(op, ReduceKind::var, a, axis, keepdims, dtype, params, out);
}

Array plain(const char* op, ReduceKind kind, const Array& a, const AxisArg& axis, bool keepdims,
            const std::optional<Array>& out) {
  return finish_out(op, reduce_masked(op, a, reduced_mask(a, axis, op), keepdims, kind), out);
}

Array arg(const char* op, ReduceKind kind, const Array& a, std::optional<int64_t> axis, bool keepdims,
          const std::optional<Array>& out) {
  AxisArg axes;
  if (axis) axes = std::vector<int64_t>{*axis};
  if (is_complex(a.dtype())) return complex_extreme(op, a, axes, keepdims, kind == ReduceKind::argmax, true, out);
  return plain(op, kind, a, axes, keepdims, out);
}

}  // namespace

Array sum(const Array& a, const AxisArg& axis, bool keepdims, std::optional<DType> dtype,
          const std::optional<Array>& out) {
  return sum_like("sum", ReduceKind::sum, a, axis, keepdims, dtype, out);
}

Array prod(const Array& a, const AxisArg& axis, bool keepdims, std::optional<DType> dtype,
           const std::optional<Array>& out) {
  return sum_like("prod", ReduceKind::prod, a, axis, keepdims, dtype, out);
}

Array mean(const Array& a, const AxisArg& axis, bool keepdims, std::optional<DType> dtype,
           const std::optional<Array>& out) {
  ReduceParams params;
  params.divisor = static_cast<double>(reduced_count(a, reduced_mask(a, axis, "mean")));
  if (is_complex(a.dtype()) && (!dtype || is_complex(*dtype))) {
    // NumPy's complex mean: the sum in the complex dtype over the count.
    const Array s = sum_like("mean", ReduceKind::sum, a, axis, keepdims, dtype, std::nullopt);
    return finish_out("mean", divide(s, Operand(params.divisor)), out);
  }
  return mean_like("mean", ReduceKind::mean, a, axis, keepdims, dtype, params, out);
}

Array var(const Array& a, const AxisArg& axis, bool keepdims, std::optional<DType> dtype, double ddof,
          const std::optional<Array>& out) {
  return var_like("var", a, axis, keepdims, dtype, ddof, false, out);
}

Array std(const Array& a, const AxisArg& axis, bool keepdims, std::optional<DType> dtype, double ddof,
          const std::optional<Array>& out) {
  return var_like("std", a, axis, keepdims, dtype, ddof, true, out);
}

Array min(const Array& a, const AxisArg& axis, bool keepdims, const std::optional<Array>& out) {
  if (is_complex(a.dtype())) return complex_extreme("min", a, axis, keepdims, false, false, out);
  return plain("min", ReduceKind::min, a, axis, keepdims, out);
}

Array max(const Array& a, const AxisArg& axis, bool keepdims, const std::optional<Array>& out) {
  if (is_complex(a.dtype())) return complex_extreme("max", a, axis, keepdims, true, false, out);
  return plain("max", ReduceKind::max, a, axis, keepdims, out);
}

// any/all read truth values only: a complex array reduces as its bool "nonzero" (either
// part), the reduction kernels having real dtypes.
Array any(const Array& a, const AxisArg& axis, bool keepdims, const std::optional<Array>& out) {
  return plain("any", ReduceKind::any, is_complex(a.dtype()) ? not_equal(a, 0) : a, axis, keepdims, out);
}

Array all(const Array& a, const AxisArg& axis, bool keepdims, const std::optional<Array>& out) {
  return plain("all", ReduceKind::all, is_complex(a.dtype()) ? not_equal(a, 0) : a, axis, keepdims, out);
}

Array argmin(const Array& a, std::optional<int64_t> axis, bool keepdims, const std::optional<Array>& out) {
  return arg("argmin", ReduceKind::argmin, a, axis, keepdims, out);
}

Array argmax(const Array& a, std::optional<int64_t> axis, bool keepdims, const std::optional<Array>& out) {
  return arg("argmax", ReduceKind::argmax, a, axis, keepdims, out);
}

}  // namespace loom
