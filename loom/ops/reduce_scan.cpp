// cumsum and cumprod: inclusive scans along one axis, or over the flattened array.
#include "loom/ops/reduce_primitives.h"
#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/reduce.h"
#include "loom/ops/reduce_common.h"

namespace loom {
namespace {

Array scan_op(const char* op, ScanKind kind, const Array& a, std::optional<int64_t> axis,
              std::optional<DType> dtype, const std::optional<Array>& out) {
  if (!dtype && out) dtype = out->dtype();  // ufunc.accumulate: dtype defaults to out's
  const ReduceKind rk = scan_reduce_kind(kind);
  ReduceGeometry g;
  Shape shape;
  if (axis) {
    const int k = normalize_axis(*axis, a.ndim(), op);
    shape = a.shape();
    for (int d = 0; d < a.ndim(); ++d) (d < k ? g.outer : d > k ? g.inner : g.len) *= shape[d];
  } else {
    shape = {a.size()};
    g = {1, a.size(), 1};
  }
  const DType natural = reduce_out_dtype(rk, a.dtype());
  Array src = dtype && *dtype != a.dtype() && *dtype != natural ? a.astype(*dtype) : a.contiguous();
  Array r = Array::allocate(shape, reduce_out_dtype(rk, src.dtype()), a.device());
  if (r.size() > 0) dispatch(primitives::scan[static_cast<int>(kind)], {src}, {r}, src, g, kind, r);
  if (dtype && r.dtype() != *dtype) r = r.astype(*dtype);
  return reduce_impl::finish_out(op, r, out);
}

}  // namespace

Array cumsum(const Array& a, std::optional<int64_t> axis, std::optional<DType> dtype,
             const std::optional<Array>& out) {
  return scan_op("cumsum", ScanKind::sum, a, axis, dtype, out);
}

Array cumprod(const Array& a, std::optional<int64_t> axis, std::optional<DType> dtype,
              const std::optional<Array>& out) {
  return scan_op("cumprod", ScanKind::prod, a, axis, dtype, out);
}

}  // namespace loom
