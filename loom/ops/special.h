// scipy.special's functions on arrays (the op table's `special` rows, graph/op_table.h):
// ufuncs with broadcasting, weak scalars, out= and where= as the NumPy ufuncs of
// ops/elementwise.h, computed by common/loom_special.cuh on every backend. Their loops are
// SciPy's: float32 stays float32, every other real dtype computes in float64; complex
// operands raise DTypeError. jit fuses them, and grad differentiates them in the arguments
// SciPy's (and JAX's) derivatives are defined for (ops/elementwise_grad_special.cpp).
#pragma once
#include "loom/ops/elementwise.h"

namespace loom::special {

// One function per special row, by arity:
//   Array erfinv(const Operand& x, const UfuncArgs& args = {});
//   Array gammainc(const Operand& a, const Operand& x, const UfuncArgs& args = {});
//   Array betainc(const Operand& a, const Operand& b, const Operand& x, const UfuncArgs& args = {});
#define LOOM_SPECIAL_DECLARE_1(name) Array name(const Operand& x, const UfuncArgs& args = {});
#define LOOM_SPECIAL_DECLARE_2(name) Array name(const Operand& x1, const Operand& x2, const UfuncArgs& args = {});
#define LOOM_SPECIAL_DECLARE_3(name) \
  Array name(const Operand& x1, const Operand& x2, const Operand& x3, const UfuncArgs& args = {});
#define LOOM_SPECIAL_DECLARE(name, arity, mask, rule, expr, api, traits, doc) LOOM_SPECIAL_DECLARE_##arity(name)
LOOM_SPECIAL_OPS(LOOM_SPECIAL_DECLARE)
#undef LOOM_SPECIAL_DECLARE
#undef LOOM_SPECIAL_DECLARE_3
#undef LOOM_SPECIAL_DECLARE_2
#undef LOOM_SPECIAL_DECLARE_1

/// SciPy's psi, the same function as digamma.
inline Array psi(const Operand& x, const UfuncArgs& args = {}) { return digamma(x, args); }

}  // namespace loom::special
