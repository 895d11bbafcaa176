// The linalg_decomp family's primitives (ops/linalg_decomp_primitives.h), each row below with its rules.
//
// Derivative rules of the decompositions (backend/linalg_decomp.h, and qr_factors of
// ops/linalg_qr.h), in public ops so that they nest. Real and complex matrices alike: the
// backward pass holds cotangents in the adjoint convention (docs/TRANSFORMS.md §6), so
// each formula is the real one with conjugate transposes (^H) for transposes. With A the
// matrices the primitive read (cholesky and eigh read one triangle; their gradients are
// made Hermitian, as JAX's and PyTorch's, for Hermitian inputs):
//   solve  A X = B:          dB = solve(A^H, G),  dA = -dB X^H     (the primitive holds B.T, X.T)
//   inv   X = A^-1:          dA = -X^H G X^H
//   slogdet:                 dA = (g_logabs + i c) A^-H, c = -Im(conj(g_sign) sign) (0 for real A,
//                            whose sign is piecewise constant)
//   cholesky A = L L^H:      dA = herm(L^-H Phi(L^H dL) L^-1), Phi = lower triangle, halved diagonal
//   eigh A = V diag(w) V^H:  dA = herm(V (diag(dw) + F o (V^H dV)) V^H), F_ij = 1 / (w_j - w_i), F_ii = 0
//   svdvals A = U diag(s) Vh: dA = U diag(ds) Vh (the factors recomputed)
//   svd (reduced factors, distinct singular values; Townsend's formula, V = Vh^H):
//     dA = U [(F o (U^H dU - dU^H U)) S + diag(ds) + S (F o (V^H dV - dV^H V)) + i Im diag(U^H dU) / S] Vh
//          + (I - U U^H) dU S^-1 Vh + U S^-1 dV^H (I - V V^H),   F_ij = 1 / (s_j^2 - s_i^2), F_ii = 0
//     (the imaginary diagonal term, Wan & Zhang's, is zero for real matrices)
//   qr A = Q R (R's diagonal real), m >= n:  dA = (dQ + Q copyltu(M)) R^-H, M = R dR^H - dQ^H Q;
//     wide (m < n) through its leading square block; complete mode of a tall matrix raises
//   eig A V = V diag(w) (unit-norm V, distinct w; PyTorch's formula, E_ij = w_j - w_i):
//     dA = V^-H (diag(dw) + offdiag((V^H dV - V^H V Re diag(V^H dV)) / conj(E))) V^H; eigvals
//     recomputes V. Real A takes the real part. Repeated eigenvalues give inf/NaN.
// Functions of eigenvectors, singular vectors and Q must be invariant to each vector's
// phase (sign) for the derivative to exist; the rules do not check it (that would read
// values back mid-trace).
#include "loom/ops/linalg_decomp_primitives.h"

#include "loom/core/error.h"
#include "loom/ops/batch_common.h"
#include "loom/ops/complex.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/grad_rules.h"
#include "loom/ops/grad_util.h"
#include "loom/ops/indexing.h"
#include "loom/ops/linalg.h"
#include "loom/ops/linalg_qr.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/triangles.h"

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

// QR, A = Q R with R's diagonal real (LAPACK's gauge), m >= n (Walter & Lehmann; PyTorch's
// linalg_qr_backward): dA = (gQ + Q copyltu(M)) R^-H, M = R gR^H - gQ^H Q, where
// copyltu(M) = tril(M, -1) + tril(M, -1)^H + Re diag(M) (Hermitian, from M's lower part).
Array qr_tall_cotangent(const Array& q, const Array& r, const Array& gq, const Array& gr) {
  const int64_t c = r.shape().back();  // R is square here
  Array mm;
  if (gr.valid()) mm = matmul(r, mH(gr));
  if (gq.valid()) mm = mm.valid() ? subtract(mm, matmul(mH(gq), q)) : negative(matmul(mH(gq), q));
  const Array low = tril(mm, -1);
  const Array re_diag = multiply(expand_dims(real(diagonal(mm, 0, -2, -1)), {-2}),
                                 eye(c, std::nullopt, 0, real_dtype(mm.dtype()), mm.device()));
  Array b = matmul(q, add(add(low, mH(low)), re_diag));
  if (gq.valid()) b = add(b, gq);
  return mH(solve(r, mH(b)));  // b R^-H
}

void qr_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  const Array &gq = out_cts[0], &gr = out_cts[1];
  if (!op.wants_cotangent(0) || (!gq.valid() && !gr.valid())) return;
  const Array &x = op.inputs[0], &q = op.outputs[0], &r = op.outputs[1];
  const int64_t m = x.shape()[1], n = x.shape()[2], c = q.shape()[2];
  if (c > n)
    throw UnsupportedError("[grad] qr: mode='complete' of a matrix with more rows than columns (" + std::to_string(m) +
                           " x " + std::to_string(n) + ") has no derivative, as its last " + std::to_string(m - n) +
                           " columns of Q are not unique; use mode='reduced'");
  if (m >= n) {
    in_cts[0] = qr_tall_cotangent(q, r, gq, gr);
    return;
  }
  // Wide: A = [X | Y] with X = Q R_X square and R_Y = Q^H Y. Y's cotangent is Q gR_Y, and
  // R_Y passes gQ' = gQ + Y gR_Y^H on to X's square factorisation.
  const auto cols = [](const Array& a, int64_t lo, int64_t hi) {
    return getitem(a, {Index(ellipsis), Index(Slice{lo, hi, std::nullopt})});
  };
  const Array rx = cols(r, 0, m);
  Array gq_x = gq, gr_x, gy;
  if (gr.valid()) {
    gr_x = cols(gr, 0, m);
    const Array gr_y = cols(gr, m, n);
    const Array through_y = matmul(cols(x, m, n), mH(gr_y));
    gq_x = gq.valid() ? add(gq, through_y) : through_y;
    gy = matmul(q, gr_y);
  }
  const Array gx = qr_tall_cotangent(q, rx, gq_x, gr_x);
  in_cts[0] = gy.valid() ? concatenate({gx, gy}, -1) : concatenate({gx, zeros_like(cols(x, m, n))}, -1);
}

// eig, A V = V diag(w), V's columns of unit norm, distinct eigenvalues (PyTorch's
// linalg_eig_backward): with E_ij = w_j - w_i,
//   dA = V^-H (diag(gw) + offdiag((V^H gV - V^H V Re diag(V^H gV)) / conj(E))) V^H,
// the real part for a real A (the engine takes it). Repeated eigenvalues divide by zero:
// inf or NaN, as PyTorch. Functions of V must not depend on each column's phase.
Array eig_cotangent(const Array& w, const Array& v, const Array& gw, const Array& gv) {
  const int64_t n = w.shape().back();
  const Array on_diag = eye(n, std::nullopt, 0, DType::bool_, w.device());
  const Array vh = mH(v);
  Array inner;
  if (gv.valid()) {
    const Array vhgv = matmul(vh, gv);
    const Array re_diag = real(diagonal(vhgv, 0, -2, -1));
    const Array t = subtract(vhgv, matmul(vh, multiply(v, expand_dims(re_diag, {-2}))));
    const Array e = conj(subtract(expand_dims(w, {-2}), expand_dims(w, {-1})));  // conj(w_j - w_i)
    inner = where(on_diag, 0.0, true_divide(t, where(on_diag, 1.0, e)));
  }
  if (gw.valid()) {
    const Array d = multiply(expand_dims(gw, {-2}), eye(n, std::nullopt, 0, w.dtype(), w.device()));
    inner = inner.valid() ? add(inner, d) : d;
  }
  return solve(vh, matmul(inner, vh));
}

void eig_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  if ((!out_cts[0].valid() && !out_cts[1].valid()) || !op.wants_cotangent(0)) return;
  in_cts[0] = eig_cotangent(op.outputs[0], op.outputs[1], out_cts[0], out_cts[1]);
}

void eigvals_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  if (!out_cts[0].valid() || !op.wants_cotangent(0)) return;
  const auto [w, v] = eig(op.inputs[0]);  // the eigenvectors, which eigvals did not keep
  in_cts[0] = eig_cotangent(w, v, out_cts[0], Array());
}

}  // namespace

}  // namespace loom::grad_rules

namespace loom {

// Every decomposition takes complex64/complex128 as well. Batching: the evals already loop
// over a leading axis of independent matrices, so the examples' matrices are more matrices
// and one call does them all (batch::rows_rule over the eval's arguments).
#define LOOM_DECOMP_ROW(Fn, name, label, vjp, ...)                                                              \
  const Primitive<Fn> primitives::name{                                                                      \
      PrimitiveInfo{label, "linalg_decomp"}.takes_complex().complex_vjp(vjp).batched(batch::rows_rule<__VA_ARGS__>), \
      cpu_backend::name, gpu_backend::name};
using A = const Array&;
LOOM_DECOMP_ROW(SolveFn, solve, "solve", grad_rules::solve_vjp, A, A, A)
LOOM_DECOMP_ROW(InvFn, inv, "inv", grad_rules::inv_vjp, A, A)
LOOM_DECOMP_ROW(SlogdetFn, slogdet, "slogdet", grad_rules::slogdet_vjp, A, A, A)
LOOM_DECOMP_ROW(CholeskyFn, cholesky, "cholesky", grad_rules::cholesky_vjp, A, A)
LOOM_DECOMP_ROW(EighFn, eigh, "eigh", grad_rules::eigh_vjp, A, A, A)
LOOM_DECOMP_ROW(EigvalshFn, eigvalsh, "eigvalsh", grad_rules::eigvalsh_vjp, A, A)
LOOM_DECOMP_ROW(EigFn, eig, "eig", grad_rules::eig_vjp, A, A, A)
LOOM_DECOMP_ROW(EigvalsFn, eigvals, "eigvals", grad_rules::eigvals_vjp, A, A)
LOOM_DECOMP_ROW(SvdFn, svd, "svd", grad_rules::svd_vjp, A, A, A, A)
LOOM_DECOMP_ROW(SvdvalsFn, svdvals, "svdvals", grad_rules::svdvals_vjp, A, A)
#undef LOOM_DECOMP_ROW

// qr's two LAPACK steps: while a tracer is installed qr records qr_factors instead
// (ops/linalg_qr.h), whose rule works on Q and R.
const Primitive<GeqrfFn> primitives::geqrf{
    PrimitiveInfo{"geqrf", "linalg_decomp"}
        .takes_complex()
        .no_vjp_because("qr records qr_factors while tracing; a rule on the Householder reflectors would be impractical")
        .batched(batch::rows_rule<A, A, A>),
    cpu_backend::geqrf, gpu_backend::geqrf};
const Primitive<OrgqrFn> primitives::orgqr{
    PrimitiveInfo{"orgqr", "linalg_decomp"}
        .takes_complex()
        .no_vjp_because("qr records qr_factors while tracing; a rule on the Householder reflectors would be impractical")
        .batched(batch::rows_rule<A, A, A>),
    cpu_backend::orgqr, gpu_backend::orgqr};
// Its eval is the same on both backends: geqrf and orgqr dispatched on a's device.
const Primitive<QrFn> primitives::qr_factors{
    PrimitiveInfo{"qr", "linalg_decomp"}.takes_complex().complex_vjp(grad_rules::qr_vjp).batched(batch::rows_rule<A, A, A>),
    qr_factors_eval, qr_factors_eval};

}  // namespace loom
