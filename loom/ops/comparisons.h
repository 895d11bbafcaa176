// numpy's isclose, allclose, array_equal and array_equiv (ops/comparisons.cpp): compositions
// of elementwise ops and reductions, on every device.
#pragma once
#include "loom/array/array.h"

namespace loom {

/// |a - b| <= atol + rtol |b| elementwise (b the reference), infinities close to themselves,
/// NaNs close to each other only with equal_nan; integers compare in floating point.
Array isclose(const Array& a, const Array& b, double rtol = 1e-05, double atol = 1e-08, bool equal_nan = false);
/// Whether every element of a and b is close; waits for the device.
bool allclose(const Array& a, const Array& b, double rtol = 1e-05, double atol = 1e-08, bool equal_nan = false);
/// Same shape and equal elements (NaNs equal with equal_nan); waits for the device.
bool array_equal(const Array& a, const Array& b, bool equal_nan = false);
/// Broadcastable shapes with equal elements; waits for the device.
bool array_equiv(const Array& a, const Array& b);

}  // namespace loom
