// The creation family's primitives (ops/creation_primitives.h), each row below with its rules.
//
// Derivatives: the conversions (astype, copy, copyto) pass the cotangent through
// (grad_rules::pass_through); none passes stop_gradient, nor reaches the ops whose outputs
// depend on no differentiable input (fills, ranges, uploads).
//
// Batching the creation family. Fills, aranges and eyes read no operand, so they are
// batched only when another op later writes their buffer per example: every example starts
// with the same values. A conversion (astype, copy, copyto) is one call on the batched
// views when the batched destination is contiguous, as its eval needs, else one strided
// copy on the elementwise engine (as copyto does for a strided destination).
#include "loom/ops/creation_primitives.h"

#include "loom/ops/batch_common.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/grad_rules.h"

namespace loom::batch {
namespace {

void full_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [out, value] = op.args_as<Array, Scalar>();
  const Array all = m.batched(out);
  if (!all.is_contiguous()) return once_then_broadcast(op, m);
  redispatch<void, const Array&, const Scalar&>(op, {}, {all}, all, value);
}

void convert_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [src, dst] = op.args_as<Array, Array>();
  const Array d = m.batched(dst), s = m.batched(src);
  if (d.is_contiguous()) return redispatch<void, const Array&, const Array&>(op, {s}, {d}, s, d);
  copyto(d, s);  // a strided batched destination: one strided copy (ops/elementwise_copyto.cpp)
}

}  // namespace

}  // namespace loom::batch

namespace loom {

// zeros, ones, full and their _like forms all fill through full().
const Primitive<FillFn> primitives::full{
    PrimitiveInfo{"full", "creation"}.takes_complex().complex_vjp(grad_rules::no_cotangent).batched(batch::full_rule),
    cpu_backend::fill, gpu_backend::fill};
const Primitive<ArangeFn> primitives::arange{
    PrimitiveInfo{"arange", "creation"}.complex_vjp(grad_rules::no_cotangent).batched(batch::once_then_broadcast),
    cpu_backend::arange, gpu_backend::arange};
const Primitive<LinspaceFn> primitives::linspace{
    PrimitiveInfo{"linspace", "creation"}.complex_vjp(grad_rules::no_cotangent).batched(batch::once_then_broadcast),
    cpu_backend::linspace, gpu_backend::linspace};
const Primitive<EyeFn> primitives::eye{PrimitiveInfo{"eye", "creation"}
                                           .takes_complex()
                                           .complex_vjp(grad_rules::no_cotangent)
                                           .batched(batch::once_then_broadcast),
                                       cpu_backend::eye, gpu_backend::eye};
// Its input is host memory, not an operand array: hooks see only the output.
const Primitive<CopyFromHostFn> primitives::from_host{PrimitiveInfo{"from_host", "creation"}
                                                          .takes_complex()
                                                          .complex_vjp(grad_rules::no_cotangent)
                                                          .batched(batch::once_then_broadcast),
                                                      cpu_backend::copy_from_host, gpu_backend::copy_from_host};

// One eval, convert, under the names of the ops that call it, so that hooks see the op
// the user called. Copies between devices are no primitive: they are runtime transfers
// (array/transfer.h).
const Primitive<ConvertFn> primitives::astype{
    PrimitiveInfo{"astype", "creation"}.takes_complex().complex_vjp(grad_rules::pass_through).batched(batch::convert_rule),
    cpu_backend::convert, gpu_backend::convert};
const Primitive<ConvertFn> primitives::copy{
    PrimitiveInfo{"copy", "creation"}.takes_complex().complex_vjp(grad_rules::pass_through).batched(batch::convert_rule),
    cpu_backend::convert, gpu_backend::convert};
const Primitive<ConvertFn> primitives::copyto{
    PrimitiveInfo{"copyto", "creation"}.takes_complex().complex_vjp(grad_rules::pass_through).batched(batch::convert_rule),
    cpu_backend::convert, gpu_backend::convert};
// stop_gradient (ops/stop_gradient.h) while tracing: an identity copy that grad does not
// differentiate through.
const Primitive<ConvertFn> primitives::stop_gradient{PrimitiveInfo{"stop_gradient", "creation"}
                                                         .takes_complex()
                                                         .complex_vjp(grad_rules::no_cotangent)
                                                         .batched(batch::convert_rule),
                                                     cpu_backend::convert, gpu_backend::convert};
// copy_to_host of a CPU array converts into the caller's memory wrapped as a CPU array (a
// GPU array's is a download, a transfer). Not traceable: it hands data to the host, which
// a traced function cannot do with values it does not have yet.
const Primitive<ConvertFn> primitives::copy_to_host{
    PrimitiveInfo{"copy_to_host", "creation"}.not_traceable().takes_complex(), cpu_backend::convert,
    gpu_backend::convert};

}  // namespace loom
