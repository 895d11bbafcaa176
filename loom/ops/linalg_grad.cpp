// Derivative rule of the batched matrix product that matmul, dot, tensordot and einsum run:
// out[i] = a[i] @ b[i] gives da[i] = ct[i] @ b[i]^T and db[i] = a[i]^T @ ct[i]. A batch
// axis broadcast in an operand (stride 0) is summed by the engine.
#include "loom/backend/linalg.h"
#include "loom/ops/grad_rules.h"
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
  if (is_floating(a.dtype())) in_cts[0] = matmul(c, swapaxes(b, 1, 2));
  if (is_floating(b.dtype())) in_cts[1] = matmul(swapaxes(a, 1, 2), c);
}

}  // namespace

void register_linalg() { set_vjp_rule(primitives::matmul.info, matmul_vjp); }

}  // namespace loom::grad_rules
