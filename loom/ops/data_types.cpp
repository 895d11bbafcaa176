#include "loom/ops/data_types.h"

#include <algorithm>
#include <stdexcept>

#include "loom/ops/elementwise_rules.h"

namespace loom {

DType result_type(const std::vector<DType>& dtypes, const std::vector<Scalar>& scalars) {
  if (dtypes.empty() && scalars.empty())
    throw std::invalid_argument("[result_type] at least one array or dtype is required");
  // NumPy promotes the highest kind first (complex, float, integer, bool), then the rest
  // into it: int8, uint8 and float16 give float16, where int8 + uint8 first would give
  // int16 and then float32. The order within a kind does not matter.
  std::vector<DType> order(dtypes);
  const auto rank = [](DType d) {
    const DTypeKind k = dtype_kind(d);
    return k == DTypeKind::complex ? 3 : k == DTypeKind::floating ? 2 : k == DTypeKind::boolean ? 0 : 1;
  };
  std::stable_sort(order.begin(), order.end(), [&](DType a, DType b) { return rank(a) > rank(b); });
  std::optional<DType> p;
  for (DType d : order) p = p ? promote_types(*p, d) : d;
  if (!p) {
    // Only Python scalars: NumPy's default dtypes, as an op on scalars alone computes in.
    for (const Scalar& s : scalars) p = p ? promote_types(*p, s.natural_dtype()) : s.natural_dtype();
    return *p;
  }
  for (const Scalar& s : scalars) p = ew_rules::join_weak_scalar(*p, s);
  return *p;
}

Array astype(const Array& a, DType dtype, bool copy, const std::optional<Device>& device) {
  const bool move = device && *device != a.device();
  const bool cast = dtype != a.dtype();
  if (!move && !cast) return copy ? a.copy() : a;
  // Cast where the data is when it shrinks, so the copy between devices moves fewer bytes.
  if (move && cast && itemsize(dtype) < a.itemsize()) return a.astype(dtype).copy_to(*device);
  const Array moved = move ? a.copy_to(*device) : a;
  return cast ? moved.astype(dtype) : moved;
}

}  // namespace loom
