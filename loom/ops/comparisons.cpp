// numpy's isclose, allclose, array_equal and array_equiv as compositions (ops/comparisons.h).
#include "loom/ops/comparisons.h"

#include "loom/core/error.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"

namespace loom {
namespace {

bool to_bool(const Array& flag) {
  bool v = false;
  flag.astype(DType::bool_).copy_to_host(&v);
  return v;
}

// NumPy compares integers and bool in at least float64 (result_type(y, 1.0)), keeping
// floating and complex dtypes.
Array inexact(const Array& x) {
  return is_floating(x.dtype()) || is_complex(x.dtype()) ? x : x.astype(DType::float64);
}

}  // namespace

Array isclose(const Array& a, const Array& b, double rtol, double atol, bool equal_nan) {
  check_same_device("isclose", a.device(), b.device());
  const Array x = inexact(a), y = inexact(b);
  const Array within = less_equal(absolute(subtract(x, y)), add(multiply(absolute(y), rtol), atol));
  Array close = logical_or(logical_and(within, isfinite(y)), equal(x, y));
  if (equal_nan) close = logical_or(close, logical_and(isnan(x), isnan(y)));
  return close;
}

bool allclose(const Array& a, const Array& b, double rtol, double atol, bool equal_nan) {
  return to_bool(all(isclose(a, b, rtol, atol, equal_nan)));
}

bool array_equal(const Array& a, const Array& b, bool equal_nan) {
  check_same_device("array_equal", a.device(), b.device());
  if (a.shape() != b.shape()) return false;
  Array same = equal(a, b);
  if (equal_nan && (is_floating(a.dtype()) || is_complex(a.dtype())) &&
      (is_floating(b.dtype()) || is_complex(b.dtype())))
    same = logical_or(same, logical_and(isnan(a), isnan(b)));
  return to_bool(all(same));
}

bool array_equiv(const Array& a, const Array& b) {
  check_same_device("array_equiv", a.device(), b.device());
  try {
    broadcast_shapes(a.shape(), b.shape(), "array_equiv");
  } catch (const std::invalid_argument&) {
    return false;
  }
  return to_bool(all(equal(a, b)));
}

}  // namespace loom
