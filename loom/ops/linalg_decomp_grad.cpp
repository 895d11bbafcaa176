// Derivative rules of the decompositions (backend/linalg_decomp.h), in public ops so that
// they nest. With A the matrices the primitive read (cholesky and eigh read one triangle;
// their gradients are symmetrised, as JAX's and PyTorch's, for symmetric inputs):
//   solve  A X = B:          dB = solve(A.T, G),  dA = -dB X.T     (the primitive holds B.T, X.T)
//   inv   X = A^-1:          dA = -X.T G X.T
//   slogdet:                 dA = ct_logabs * inv(A).T             (sign is piecewise constant)
//   cholesky A = L L.T:      dA = sym(L^-T Phi(L.T dL) L^-1), Phi = lower triangle, halved diagonal
//   eigh A = V diag(w) V.T:  dA = sym(V (diag(dw) + F o (V.T dV)) V.T), F_ij = 1 / (w_j - w_i), F_ii = 0
//   svdvals A = U diag(s) Vh: dA = U diag(ds) Vh (the factors recomputed)
//   svd (reduced factors, distinct singular values; Townsend's formula, V = Vh.T):
//     dA = U [(F o (U.T dU - dU.T U)) S + diag(ds) + S (F o (V.T dV - dV.T V))] Vh
//          + (I - U U.T) dU S^-1 Vh + U S^-1 dV.T (I - V V.T),   F_ij = 1 / (s_j^2 - s_i^2), F_ii = 0
// QR and eig have no rule yet: differentiating through them raises, naming them.
#include "loom/backend/linalg_decomp.h"
#include "loom/core/error.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/complex.h"
#include "loom/ops/grad_rules.h"
#include "loom/ops/grad_util.h"
#include "loom/ops/linalg.h"
#include "loom/ops/shape_ops.h"

namespace loom::grad_rules {
namespace {

Array mT(const Array& a) { return swapaxes(a, -1, -2); }
// The conjugate transpose: the adjoint convention's transpose (mT for real a).
Array mH(const Array& a) { return conj(mT(a)); }

// The Hermitian part (the symmetric part for real a).
Array symmetrise(const Array& a) { return multiply(add(a, mH(a)), 0.5); }

// 1 below the diagonal, 1/2 on it, 0 above, as a (n, n) array of a's dtype.
Array lower_halved(int64_t n, const Array& like) {
  const Array row = expand_dims(arange(0, n, 1, DType::int64, like.device()), {1});
  const Array col = expand_dims(arange(0, n, 1, DType::int64, like.device()), {0});
  return add(greater(row, col).astype(like.dtype()), multiply(equal(row, col).astype(like.dtype()), 0.5));
}

void solve_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  if (!out_cts[0].valid()) return;
  const Array &a = op.inputs[0], &xt = op.outputs[0];
  const Array db = solve(mH(a), mT(out_cts[0]));  // (B, n, k)
  if (op.wants_cotangent(1)) in_cts[1] = mT(db);
  if (op.wants_cotangent(0)) in_cts[0] = negative(matmul(db, conj(xt)));
}

void inv_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  if (!out_cts[0].valid() || !op.wants_cotangent(0)) return;
  const Array xh = mH(op.outputs[0]);
  in_cts[0] = negative(matmul(matmul(xh, out_cts[0]), xh));
}

// d logabs = Re tr(A^-1 dA); a complex sign s = det / |det| moves too, d s = i s Im tr(A^-1 dA),
// so a sign cotangent g adds c = -Im(conj(g) s) to the imaginary part of the scale.
void slogdet_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  if (!op.wants_cotangent(0)) return;
  const Array& a = op.inputs[0];
  const bool sign_moves = is_complex(a.dtype()) && out_cts[0].valid();
  if (!out_cts[1].valid() && !sign_moves) return;
  Array scale = out_cts[1].valid() ? out_cts[1] : Array();
  if (sign_moves) {
    const Array c = negative(imag(multiply(conj(out_cts[0]), op.outputs[0])));
    const Array ic = multiply(c, Operand(Scalar::complex(0.0, 1.0)));
    scale = scale.valid() ? add(scale, ic) : ic;
  }
  in_cts[0] = multiply(expand_dims(scale, {1, 2}), mH(inv(a)));
}

void cholesky_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  if (!out_cts[0].valid() || !op.wants_cotangent(0)) return;
  const Array& l = op.outputs[0];
  const Array p = multiply(matmul(mH(l), out_cts[0]), lower_halved(l.shape().back(), l));
  // L^-H P L^-1 as two solves with L^H: M = L^-H P, then (L^-H M^H)^H = M L^-1.
  const Array m = solve(mH(l), p);
  in_cts[0] = symmetrise(mH(solve(mH(l), mH(m))));
}

Array eigen_cotangent(const Array& w, const Array& v, const Array& dw, const Array& dv) {
  const int64_t n = w.shape().back();
  Array inner;
  if (dv.valid()) {
    const Array diff = subtract(expand_dims(w, {-2}), expand_dims(w, {-1}));  // w_j - w_i
    const Array on_diag = eye(n, std::nullopt, 0, DType::bool_, w.device());
    const Array f = where(on_diag, 0.0, true_divide(1.0, where(on_diag, 1.0, diff)));
    inner = multiply(f, matmul(mH(v), dv));
  }
  if (dw.valid()) {
    const Array d = multiply(expand_dims(dw, {-2}), eye(n, std::nullopt, 0, w.dtype(), w.device()));
    inner = inner.valid() ? add(inner, d) : d;
  }
  return symmetrise(matmul(matmul(v, inner), mH(v)));
}

void eigh_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  if ((!out_cts[0].valid() && !out_cts[1].valid()) || !op.wants_cotangent(0)) return;
  in_cts[0] = eigen_cotangent(op.outputs[0], op.outputs[1], out_cts[0], out_cts[1]);
}

void eigvalsh_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  if (!out_cts[0].valid() || !op.wants_cotangent(0)) return;
  const auto [w, v] = eigh(op.inputs[0]);  // the eigenvectors, which eigvalsh did not keep
  in_cts[0] = eigen_cotangent(w, v, out_cts[0], Array());
}

void svdvals_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  if (!out_cts[0].valid() || !op.wants_cotangent(0)) return;
  const SvdResult f = svd(op.inputs[0], false);
  in_cts[0] = matmul(multiply(f.u, expand_dims(out_cts[0], {-2})), f.vh);
}

// The factors' gauge (a sign per singular pair) cancels in every function of them that is
// well defined, which is what this formula differentiates.
void svd_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  if (!op.wants_cotangent(0) || (!out_cts[0].valid() && !out_cts[1].valid() && !out_cts[2].valid())) return;
  const Array &u = op.outputs[0], &s = op.outputs[1], &vh = op.outputs[2];
  const int64_t k = s.shape().back(), m = u.shape()[1], n = vh.shape()[2];
  if (u.shape()[2] != k || vh.shape()[1] != k)
    throw UnsupportedError("[grad] svd: the extra columns of full_matrices=True factors of a non-square matrix have "
                           "no derivative; use full_matrices=False");
  const Array v = mH(vh);
  const Array s_row = expand_dims(s, {-2}), s_col = expand_dims(s, {-1}), inv_s = true_divide(1.0, s);
  Array inner = out_cts[1].valid() ? multiply(expand_dims(out_cts[1], {-2}), eye(k, std::nullopt, 0, s.dtype(), s.device()))
                                   : zeros({u.shape()[0], k, k}, s.dtype(), s.device());
  const Array s2 = multiply(s, s);
  const Array diff = subtract(expand_dims(s2, {-2}), expand_dims(s2, {-1}));  // s_j^2 - s_i^2
  const Array on_diag = eye(k, std::nullopt, 0, DType::bool_, s.device());
  const Array f = where(on_diag, 0.0, true_divide(1.0, where(on_diag, 1.0, diff)));
  Array grad;
  if (out_cts[0].valid()) {
    const Array& gu = out_cts[0];
    const Array ut_gu = matmul(mH(u), gu);
    inner = add(inner, multiply(multiply(f, subtract(ut_gu, mH(ut_gu))), s_row));
    // Complex factors: the phase of each singular pair moves with Im diag(U^H gU) (Wan & Zhang).
    if (is_complex(u.dtype())) {
      const Array phase = multiply(multiply(imag(diagonal(ut_gu, 0, -2, -1)), inv_s), Operand(Scalar::complex(0.0, 1.0)));
      inner = add(inner, multiply(expand_dims(phase, {-2}), eye(k, std::nullopt, 0, s.dtype(), s.device())));
    }
    if (m > k) grad = matmul(multiply(subtract(gu, matmul(u, ut_gu)), expand_dims(inv_s, {-2})), vh);
  }
  if (out_cts[2].valid()) {
    const Array gv = mH(out_cts[2]);
    const Array vt_gv = matmul(vh, gv);
    inner = add(inner, multiply(s_col, multiply(f, subtract(vt_gv, mH(vt_gv)))));
    if (n > k) {
      const Array t = matmul(u, multiply(expand_dims(inv_s, {-1}), mH(subtract(gv, matmul(v, vt_gv)))));
      grad = grad.valid() ? add(grad, t) : t;
    }
  }
  const Array core = matmul(matmul(u, inner), vh);
  in_cts[0] = grad.valid() ? add(core, grad) : core;
}

}  // namespace

void register_linalg_decomp() {
  set_complex_vjp_rule(primitives::svd.info, svd_vjp);
  set_complex_vjp_rule(primitives::svdvals.info, svdvals_vjp);
  set_complex_vjp_rule(primitives::solve.info, solve_vjp);
  set_complex_vjp_rule(primitives::inv.info, inv_vjp);
  set_complex_vjp_rule(primitives::slogdet.info, slogdet_vjp);
  set_complex_vjp_rule(primitives::cholesky.info, cholesky_vjp);
  set_complex_vjp_rule(primitives::eigh.info, eigh_vjp);
  set_complex_vjp_rule(primitives::eigvalsh.info, eigvalsh_vjp);
}

}  // namespace loom::grad_rules
