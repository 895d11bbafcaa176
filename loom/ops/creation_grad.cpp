// Derivative rules of the conversions (astype, copy, copyto: the cotangent passes through,
// cast back by the engine to the input's dtype, a complex one to a real input as its real
// part; a broadcast source is summed by the
// engine), of stop_gradient (none passes), and of the ops whose outputs depend on no
// differentiable input (fills, ranges, uploads, random draws).
#include "loom/backend/creation.h"
#include "loom/backend/elementwise.h"
#include "loom/backend/random.h"
#include "loom/ops/grad_rules.h"

namespace loom::grad_rules {
namespace {

void convert_vjp(const TracedOp&, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  in_cts[0] = out_cts[0];
}

}  // namespace

void register_creation() {
  for (const auto* p : {&primitives::astype, &primitives::copy, &primitives::copyto})
    set_complex_vjp_rule(p->info, convert_vjp);
  set_complex_vjp_rule(primitives::copyto_strided.info, convert_vjp);
  set_complex_vjp_rule(primitives::stop_gradient.info, no_cotangent);
  set_complex_vjp_rule(primitives::full.info, no_cotangent);
  set_complex_vjp_rule(primitives::from_host.info, no_cotangent);
  set_complex_vjp_rule(primitives::arange.info, no_cotangent);
  set_complex_vjp_rule(primitives::linspace.info, no_cotangent);
  set_complex_vjp_rule(primitives::eye.info, no_cotangent);
  for (const auto& p : primitives::random) set_complex_vjp_rule(p.info, no_cotangent);
}

}  // namespace loom::grad_rules
