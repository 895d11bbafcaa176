// Derivative rule of the batched matrix product that matmul, dot, tensordot and einsum run:
// out[i] = a[i] @ b[i] gives da[i] = ct[i] @ b[i]^H and db[i] = a[i]^H @ ct[i] (conjugate
// transposes: the adjoint convention of complex cotangents; transposes for reals). A batch
// axis broadcast in an operand (stride 0) is summed by the engine.
#include "loom/backend/linalg.h"
#include "loom/backend/linalg_gemm_layout.h"
#include "loom/core/error.h"
#include "loom/ops/grad_rules.h"
#include "loom/ops/grad_util.h"
#include "loom/ops/linalg.h"
#include "loom/ops/shape_ops.h"

namespace loom::grad_rules {
namespace {

void matmul_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  const Array& ct = out_cts[0];
  if (!ct.valid()) return;
  const Array& a = op.inputs[0];
  const Array& b = op.inputs[1];
  const Array c = ct.dtype() == a.dtype() ? ct : ct.astype(a.dtype());
  // An operand stored transposed (x @ w.T, as nn.Linear) gets its cotangent computed
  // transposed too, (c^T a)^T, so that it lands in the operand's own layout: the backward
  // pass then takes it as the cotangent buffer instead of copying it across.
  if (has_tangent_space(a.dtype()) && op.wants_cotangent(0))
    in_cts[0] = gemm_operand(a).transposed ? swapaxes(matmul(conj(b), swapaxes(c, 1, 2)), 1, 2)
                                           : matmul(c, swapaxes(conj(b), 1, 2));
  if (has_tangent_space(b.dtype()) && op.wants_cotangent(1))
    in_cts[1] = gemm_operand(b).transposed ? swapaxes(matmul(swapaxes(c, 1, 2), conj(a)), 1, 2)
                                           : matmul(swapaxes(conj(a), 1, 2), c);
}

}  // namespace

void register_linalg() { set_complex_vjp_rule(primitives::matmul.info, matmul_vjp); }

}  // namespace loom::grad_rules
