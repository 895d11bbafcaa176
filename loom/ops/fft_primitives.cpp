// The fft family's primitives (ops/fft_primitives.h), each row below with its rules.
//
// Derivative rules of the FFT primitives (backend/fft.h): unnormalised one-axis transforms
// of (outer, n, inner) arrays, linear in their input, so each cotangent is the adjoint
// transform of the output's (the adjoint convention of complex cotangents, docs/TRANSFORMS.md
// §6; ops/fft.cpp applies the norm's scale as an ordinary multiply). With F the forward DFT
// (F_kj = e^{-2 pi i jk/n}), F^H the unnormalised inverse:
//   c2c forward y = F x:             dx = F^H g;  inverse y = F^H x: dx = F g
//   r2c y = (F x)[0..n/2], x real:   dx = Re(F^H [g, 0...])  (g padded to n with zeros)
//   c2r x = F^H (Hermitian extension of h), real x: dh = w * (F dx)[0..n/2], w_k = 2 but for
//     k = 0 and k = n/2 (n even), which appear once (c2r reads only their real parts).
#include "loom/ops/fft_primitives.h"

#include "loom/dispatch/dispatch.h"
#include "loom/ops/batch_common.h"
#include "loom/ops/complex.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/grad_rules.h"
#include "loom/ops/shape_ops.h"

namespace loom::grad_rules {
namespace {

Array c2c(const Array& g, bool inverse) {
  const Array in = g.contiguous();
  const Array out = empty(in.shape(), in.dtype(), in.device());
  dispatch(primitives::fft_c2c, {in}, {out}, in, out, inverse);
  return out;
}

void c2c_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  if (!out_cts[0].valid() || !op.wants_cotangent(0)) return;
  const bool inverse = std::get<2>(op.args_as<const Array&, const Array&, bool>());
  in_cts[0] = c2c(out_cts[0], !inverse);
}

void r2c_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  if (!out_cts[0].valid() || !op.wants_cotangent(0)) return;
  const Array& x = op.inputs[0];
  const Array& g = out_cts[0];
  const int64_t n = x.shape()[1], half = g.shape()[1];
  const Array padded = n > half ? concatenate({g, zeros({g.shape()[0], n - half, g.shape()[2]}, g.dtype(), g.device())}, 1)
                                : g;
  in_cts[0] = real(c2c(padded, true)).contiguous();
}

void c2r_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  if (!out_cts[0].valid() || !op.wants_cotangent(0)) return;
  const Array& h = op.inputs[0];
  const Array gx = out_cts[0].contiguous();
  const int64_t n = gx.shape()[1], half = h.shape()[1];
  const Array spectrum = empty(h.shape(), h.dtype(), h.device());
  dispatch(primitives::fft_r2c, {gx}, {spectrum}, gx, spectrum);
  // The weights: 2 for the frequencies that stand for a conjugate pair, 1 for 0 and n/2.
  const Array k = reshape(arange(0, half, 1, DType::int64, h.device()), {1, half, 1});
  const Array once = logical_or(equal(k, 0), equal(multiply(k, 2), n));
  in_cts[0] = multiply(spectrum, where(once, 1.0, 2.0));
}

}  // namespace

}  // namespace loom::grad_rules

namespace loom {

// Batching: the evals transform every row of (outer, n, inner), so the examples' rows are
// more rows of `outer` and one call does the whole batch (batch::rows_rule).
const Primitive<FftC2CFn> primitives::fft_c2c{
    PrimitiveInfo{"fft_c2c", "fft"}
        .takes_complex()
        .complex_vjp(grad_rules::c2c_vjp)
        .batched(batch::rows_rule<const Array&, const Array&, bool>),
    cpu_backend::fft_c2c, gpu_backend::fft_c2c};
const Primitive<FftR2CFn> primitives::fft_r2c{PrimitiveInfo{"fft_r2c", "fft"}
                                                  .takes_complex()
                                                  .complex_vjp(grad_rules::r2c_vjp)
                                                  .batched(batch::rows_rule<const Array&, const Array&>),
                                              cpu_backend::fft_r2c, gpu_backend::fft_r2c};
const Primitive<FftC2RFn> primitives::fft_c2r{PrimitiveInfo{"fft_c2r", "fft"}
                                                  .takes_complex()
                                                  .complex_vjp(grad_rules::c2r_vjp)
                                                  .batched(batch::rows_rule<const Array&, const Array&>),
                                              cpu_backend::fft_c2r, gpu_backend::fft_c2r};

}  // namespace loom
