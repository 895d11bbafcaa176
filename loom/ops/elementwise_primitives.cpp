// The elementwise family's primitives (ops/elementwise_primitives.h), each row below with its rules.
//
// Batching the elementwise family: one call on the batched views. Each operand of an
// ElementwiseCall is a strided view broadcast to out's shape, so the batch is one more
// leading axis (stride 0 for an operand shared by all examples): one kernel, no loop.
// Derivatives: ew_grad::vjp (ops/elementwise_grad.cpp) over the table's partial derivatives.
#include "loom/ops/elementwise_primitives.h"

#include "loom/ops/batch_common.h"
#include "loom/ops/elementwise_grad.h"

namespace loom::batch {
namespace {

void elementwise_rule(const TracedOp& op, const BatchMap& m) {
  ElementwiseCall c = std::get<0>(op.args_as<ElementwiseCall>());
  for (int i = 0; i < c.nin; ++i)
    if (!c.is_scalar[i] && c.in[i].valid()) c.in[i] = m.batched(c.in[i]);
  c.out = m.batched(c.out);
  redispatch<void, const ElementwiseCall&>(op, batched_all(op.inputs, m), batched_all(op.outputs, m), c);
}

}  // namespace

}  // namespace loom::batch

namespace loom {

// One record per op-table entry, indexed by OpId and named as the table names the op. Each
// takes complex operands (PrimitiveInfo::complex): the table's dtype masks say which ops do
// (true_divide and mod run as divide and remainder; `copy` is the table's internal cast).
// Every one is traceable, and fuses into jit's elementwise kernels. power's check that
// integers are not raised to negative integers, which needs the exponents' values, is
// split in ops/elementwise.cpp into a device part (the dispatched ops less and any) and a
// host part (one bool read back before power is dispatched), so the power record itself
// never reads device data.
const Primitive<ElementwiseFn> primitives::elementwise[kNumOps] = {
#define LOOM_EW_PRIMITIVE(name, arity, mask, rule, expr, ...)                                          \
  {PrimitiveInfo{#name, "elementwise"}.takes_complex().fuses(Fusion::elementwise).complex_vjp(ew_grad::vjp) \
       .batched(batch::elementwise_rule),                                                               \
   cpu_backend::elementwise, gpu_backend::elementwise},
    LOOM_ELEMENTWISE_OPS(LOOM_EW_PRIMITIVE)
#undef LOOM_EW_PRIMITIVE
};

// copyto into a strided view runs the table's `copy` op; hooks see the op the user called.
const Primitive<ElementwiseFn> primitives::copyto_strided{
    PrimitiveInfo{"copyto", "elementwise"}.takes_complex().complex_vjp(ew_grad::vjp).batched(batch::elementwise_rule),
    cpu_backend::elementwise, gpu_backend::elementwise};

// A fused group made by loom.jit's compiler. It is never recorded by a tracer: under an
// enclosing trace jit replays the raw traced ops instead (transforms/jit.cpp), so it
// needs no derivative or batching rules.
const Primitive<FusedFn> primitives::fused{
    PrimitiveInfo{"fused", "elementwise"}
        .takes_complex()
        .no_vjp_because("jit's compiler makes it after tracing; an enclosing trace records the ops it fused")
        .no_batch_because("jit's compiler makes it after tracing; an enclosing trace records the ops it fused"),
    cpu_backend::fused, gpu_backend::fused};

}  // namespace loom
