// numpy's tri, tril, triu, diag and diagflat as compositions (ops/triangles.h).
#include "loom/ops/triangles.h"

#include <cstdlib>
#include <string>

#include "loom/core/error.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/shape_ops.h"

namespace loom {
namespace {

// The boolean n x m mask of row + k >= column (at and below diagonal k).
Array lower_mask(int64_t n, int64_t m, int64_t k, Device device) {
  const Array row = expand_dims(arange(0, n, 1, DType::int64, device), {1});
  const Array col = expand_dims(arange(0, m, 1, DType::int64, device), {0});
  return greater_equal(add(row, k), col);
}

Array masked(const char* op, const Array& a, int64_t k, bool lower) {
  if (a.ndim() == 0) throw_value_error(op, "input must be at least 1-d");
  const int64_t n = a.ndim() == 1 ? a.shape()[0] : a.shape()[a.ndim() - 2], m = a.shape().back();
  // triu keeps what tril(k - 1) zeroes: row + k - 1 < column.
  const Array keep = lower ? lower_mask(n, m, k, a.device()) : logical_not(lower_mask(n, m, k - 1, a.device()));
  return where(keep, a, zeros({}, a.dtype(), a.device()));  // a 0-d zero keeps a's dtype (bool too)
}

}  // namespace

Array tri(int64_t n, std::optional<int64_t> m, int64_t k, DType dtype, std::optional<Device> device) {
  const int64_t cols = m.value_or(n);
  if (n < 0 || cols < 0) throw_value_error("tri", "negative dimensions are not allowed");
  return lower_mask(n, cols, k, device.value_or(default_device())).astype(dtype);
}

Array tril(const Array& a, int64_t k) { return masked("tril", a, k, true); }
Array triu(const Array& a, int64_t k) { return masked("triu", a, k, false); }

Array diag(const Array& v, int64_t k) {
  if (v.ndim() == 2) return diagonal(v, k, 0, 1);
  if (v.ndim() != 1) throw_value_error("diag", "Input must be 1- or 2-d.");
  const int64_t n = v.shape()[0] + std::llabs(k);
  const Array out = zeros({n, n}, v.dtype(), v.device());
  copyto(diagonal(out, k, 0, 1), v);
  return out;
}

Array diagflat(const Array& v, int64_t k) { return diag(reshape(v.contiguous(), {v.size()}), k); }

}  // namespace loom
