// The special rows' public functions (ops/special.h): each applies its op-table row, so the
// rules of every ufunc (ops/elementwise_rules.cpp) hold for them unchanged.
#include "loom/ops/special.h"

namespace loom::special {

#define LOOM_SPECIAL_DEFINE_1(name) \
  Array name(const Operand& x, const UfuncArgs& args) { return apply(OpId::name, &x, 1, args); }
#define LOOM_SPECIAL_DEFINE_2(name)                                       \
  Array name(const Operand& x1, const Operand& x2, const UfuncArgs& args) { \
    const Operand in[2] = {x1, x2};                                       \
    return apply(OpId::name, in, 2, args);                                \
  }
#define LOOM_SPECIAL_DEFINE_3(name)                                                          \
  Array name(const Operand& x1, const Operand& x2, const Operand& x3, const UfuncArgs& args) { \
    const Operand in[3] = {x1, x2, x3};                                                      \
    return apply(OpId::name, in, 3, args);                                                   \
  }
#define LOOM_SPECIAL_DEFINE(name, arity, mask, rule, expr, api, traits, doc) LOOM_SPECIAL_DEFINE_##arity(name)
LOOM_SPECIAL_OPS(LOOM_SPECIAL_DEFINE)
#undef LOOM_SPECIAL_DEFINE
#undef LOOM_SPECIAL_DEFINE_3
#undef LOOM_SPECIAL_DEFINE_2
#undef LOOM_SPECIAL_DEFINE_1

}  // namespace loom::special
