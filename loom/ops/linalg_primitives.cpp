// The linalg family's primitives (ops/linalg_primitives.h), each row below with its rules.
//
// Derivative rule of the batched matrix product that matmul, dot, tensordot and einsum run:
// out[i] = a[i] @ b[i] gives da[i] = ct[i] @ b[i]^H and db[i] = a[i]^H @ ct[i] (conjugate
// transposes: the adjoint convention of complex cotangents; transposes for reals). A batch
// axis broadcast in an operand (stride 0) is summed by the engine.
//
// Batching the matrix product: always one GEMM, never a loop over examples. The record is
// out[i] = a[i] @ b[i] with a (B, m, k), b (B, k, n), out contiguous (B, m, n); under vmap
// each gains a leading batch axis of size S.
//  - One matrix shared by the batch and vectors per example (the matrix times a batch of
//    vectors): the vectors are the columns of one matrix, so out^T = b^T @ a^T is a single
//    (S, k) x (k, m) GEMM written straight into the batched output.
//  - Batched rows times a shared matrix: the rows of all examples stack into one tall GEMM.
//  - Otherwise the batch axis merges with B (copying an operand whose strides do not merge)
//    into one batched GEMM.
#include "loom/ops/linalg_primitives.h"

#include <optional>

#include "loom/backend/linalg_gemm_layout.h"
#include "loom/core/error.h"
#include "loom/ops/batch_common.h"
#include "loom/ops/elementwise.h"
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

}  // namespace loom::grad_rules

namespace loom::batch {
namespace {

using Gemm = const Array&;

void gemm(const TracedOp& op, const Array& a, const Array& b, const Array& out, bool tf32) {
  redispatch<void, Gemm, Gemm, Gemm, bool>(op, {a, b}, {out}, a, b, out, tf32);
}

// The stride of (S, B) merged into one axis, when one stride describes both.
std::optional<int64_t> merged(int64_t s, int64_t b, int64_t ss, int64_t sb) {
  if (b == 1) return ss;
  if (s == 1 || ss == b * sb) return sb;
  return std::nullopt;
}

// x (S, B, r, c) as (S*B, r, c): a view when the strides merge, else a contiguous copy.
Array merge3(const Array& x) {
  const Shape& s = x.shape();
  const Strides& st = x.strides();
  if (auto m = merged(s[0], s[1], st[0], st[1]))
    if (Array v = x.view({s[0] * s[1], s[2], s[3]}, {*m, st[2], st[3]}, x.offset()); gemm_operand(v).ok) return v;
  const Array c = x.contiguous();
  return c.view({s[0] * s[1], s[2], s[3]}, {c.strides()[1], c.strides()[2], c.strides()[3]}, c.offset());
}

// Shared a (1, m, k), batched vectors b (1, k, 1): out^T (S, m) = b^T (S, k) @ a^T (k, m).
bool matrix_times_vectors(const TracedOp& op, const Array& a, const Array& B, const Array& O, bool tf32) {
  const int64_t S = O.shape()[0], m = O.shape()[2], k = a.shape()[2];
  const int64_t item = static_cast<int64_t>(O.itemsize());
  if (O.shape()[3] != 1 || (S > 1 && O.strides()[0] != m * item)) return false;
  const Array at = a.view({1, k, m}, {0, a.strides()[2], a.strides()[1]}, a.offset());
  const Array bt = B.view({1, S, k}, {0, B.strides()[0], B.strides()[2]}, B.offset());
  const Array ot = O.view({1, S, m}, {0, m * item, item}, O.offset());
  if (!gemm_operand(at).ok || !gemm_operand(bt).ok) return false;
  gemm(op, bt, at, ot, tf32);
  return true;
}

// Batched a (S, 1, m, k), shared b (1, k, n): the S*m rows in one GEMM.
bool rows_times_matrix(const TracedOp& op, const Array& A, const Array& b, const Array& O, bool tf32) {
  const int64_t S = O.shape()[0], m = O.shape()[2], n = O.shape()[3], k = b.shape()[1];
  const int64_t item = static_cast<int64_t>(O.itemsize());
  if (S > 1 && O.strides()[0] != m * n * item) return false;
  const auto rs = merged(S, m, A.strides()[0], A.strides()[2]);
  if (!rs) return false;
  const Array a2 = A.view({1, S * m, k}, {0, *rs, A.strides()[3]}, A.offset());
  const Array o2 = O.view({1, S * m, n}, {0, n * item, item}, O.offset());
  if (!gemm_operand(a2).ok || !gemm_operand(b).ok) return false;
  gemm(op, a2, b, o2, tf32);
  return true;
}

void matmul_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [a, b, out, tf32] = op.args_as<Array, Array, Array, bool>();
  const Array A = m.batched(a), B = m.batched(b), O = m.batched(out);
  const bool ba = m.is_batched(a), bb = m.is_batched(b);
  const bool single = out.shape()[0] == 1;
  if (single && !ba && bb && matrix_times_vectors(op, first_example(A), B, O, tf32)) return;
  if (single && ba && !bb && rows_times_matrix(op, A, first_example(B), O, tf32)) return;
  const Array a3 = merge3(A), b3 = merge3(B);
  const Shape& os = O.shape();
  const int64_t item = static_cast<int64_t>(O.itemsize());
  const auto om = merged(os[0], os[1], O.strides()[0], O.strides()[1]);
  if (om && (os[0] * os[1] == 1 || *om == os[2] * os[3] * item)) {
    gemm(op, a3, b3, O.view({os[0] * os[1], os[2], os[3]}, {os[2] * os[3] * item, os[3] * item, item}, O.offset()),
         tf32);
    return;
  }
  // The batched output is not one contiguous block: compute into one and copy.
  const Array tmp = Array::allocate({os[0] * os[1], os[2], os[3]}, O.dtype(), O.device());
  gemm(op, a3, b3, tmp, tf32);
  const Strides& ts = tmp.strides();
  copyto(O, tmp.view(os, {ts[0] * os[1], ts[0], ts[1], ts[2]}, tmp.offset()));
}

}  // namespace

}  // namespace loom::batch

namespace loom {

// matmul, dot, vdot, inner, tensordot and einsum all run this one product.
const Primitive<GemmFn> primitives::matmul{
    PrimitiveInfo{"matmul", "linalg"}.takes_complex().complex_vjp(grad_rules::matmul_vjp).batched(batch::matmul_rule),
    cpu_backend::gemm, gpu_backend::gemm};
// The same public op when one operand is the other's remembered conjugate (ops/buffer_origin.h).
// ops/ takes this path only outside transformed functions; not traceable, so that a tracer
// would run it on concrete operands rather than record a record that has no batch or VJP rule.
const Primitive<HermitianGemmFn> primitives::matmul_hermitian{
    PrimitiveInfo{"matmul", "linalg"}.not_traceable().takes_complex(), cpu_backend::herk, gpu_backend::herk};

}  // namespace loom
