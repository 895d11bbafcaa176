// The random family's primitives (ops/random_primitives.h), each row below with its rules.
//
// Batching random draws. The key is a host value of the record (loom_random_params), never
// a traced array, so a draw inside vmap is unbatched: every example gets the same numbers,
// as in JAX with an unbatched key. It is batched only when its buffer is later written per
// example, and then each example starts from those same numbers.
#include "loom/ops/random_primitives.h"

#include "loom/ops/batch_common.h"
#include "loom/ops/grad_rules.h"

namespace loom {

// One record per draw kind, indexed by it (loom_rng_uniform, ...), named by the public op
// of that kind (rand draws uniform, randn normal). The generator's state is an argument,
// so a draw is a pure function of its arguments and traceable; no derivative reaches it.
#define LOOM_DRAW_ROW(name)                                                                                   \
  {PrimitiveInfo{name, "random"}.complex_vjp(grad_rules::no_cotangent).batched(batch::once_then_broadcast), \
   cpu_backend::random_fill, gpu_backend::random_fill}
const Primitive<RandomFillFn> primitives::random[4] = {
    LOOM_DRAW_ROW("uniform"),
    LOOM_DRAW_ROW("normal"),
    LOOM_DRAW_ROW("randint"),
    LOOM_DRAW_ROW("bernoulli"),
};
#undef LOOM_DRAW_ROW
static_assert(loom_rng_uniform == 0 && loom_rng_normal == 1 && loom_rng_randint == 2 && loom_rng_bernoulli == 3,
              "one record per draw kind, in kind order");

}  // namespace loom
