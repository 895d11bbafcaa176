// NumPy 2 dtype resolution of elementwise ops (internal to loom/ops).
#pragma once
#include <optional>

#include "loom/ops/elementwise.h"

namespace loom::ew_rules {

/// The loop dtype of `op` for these operands: arrays promote (np.result_type), weak
/// scalars join by kind (NEP 50), `dtype` overrides (same_kind check of the inputs).
/// A Python int outside the integer dtype's range raises std::overflow_error, except for
/// comparisons (computed in a wider dtype, as NumPy 2) and clip (the bound is clamped,
/// which `scalars` receives). Unsupported dtypes raise DTypeError. `scalars[i]` holds
/// ops[i].scalar on entry (it is read from there, not from ops, so callers need not copy
/// the array operands).
DType resolve(OpId op, const Operand* ops, Scalar* scalars, int nin, std::optional<DType> dtype,
              Casting casting = Casting::same_kind);

/// The promoted array dtype `p` joined with a weak scalar (NEP 50): `p` itself when the
/// scalar's kind is not higher than p's, else the dtype the scalar's kind brings in (a
/// float: float64 for integer p; a complex: p's precision for float p). No range check.
DType join_weak_scalar(DType p, const Scalar& s);

}  // namespace loom::ew_rules
