// The reduce family's primitives (ops/reduce_primitives.h), each row below with its rules.
//
// Derivative rules of the reductions, norms and scans. A reduction's input is recorded as
// the view it read, dense in memory as [outer][len][inner] (backend/reduce.h); the axes
// it reduced are those whose strides fall in the `len` block, and its output lists the
// kept axes in the view's order, so the output reshaped with those axes kept as 1
// broadcasts against the input. Complex inputs (the adjoint convention, docs/TRANSFORMS.md
// §6): the products' rules multiply by conjugate factors, the norms' by z / |z| where the
// real rules have sign(x); min, max and argmin/argmax of complex values raise.
//
// Batching reductions and scans: the eval reads a dense [outer][len][inner] block from
// in.data(), so the examples, laid back to back, are `size` more outer rows: one call with
// outer * size. An input whose examples are not back to back (a strided view of a batched
// buffer, or one shared by all examples) is copied together first; an output that is not
// one block per example falls back to the loop.
#include "loom/ops/reduce_primitives.h"

#include <vector>

#include "loom/core/error.h"
#include "loom/ops/batch_common.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/grad_rules.h"
#include "loom/ops/grad_util.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"

namespace loom::grad_rules {
namespace {

using ReduceArgs = std::tuple<Array, ReduceGeometry, ReduceKind, ReduceParams, Array>;

struct Reduced {
  std::vector<int64_t> axes;  // the reduced axes of the input view
  Shape keep_shape;           // the input's shape with those axes as 1
};

Reduced reduced_axes(const Array& x, const ReduceGeometry& g) {
  Reduced r;
  r.keep_shape = x.shape();
  const int64_t isz = static_cast<int64_t>(x.itemsize());
  const int64_t lo = g.inner * isz, hi = g.inner * g.len * isz;
  for (int d = 0; d < x.ndim(); ++d)
    if (x.shape()[d] > 1 && x.strides()[d] >= lo && x.strides()[d] < hi) {
      r.axes.push_back(d);
      r.keep_shape[d] = 1;
    }
  return r;
}

// ct * mask / (the number of true entries of mask along the reduced axes): the cotangent
// of a min or max shared among the elements that attain it.
Array share(const Array& ct, const Array& mask, const Reduced& r, DType dt) {
  const Array m = mask.astype(dt);
  return divide(multiply(ct, m), sum(m, r.axes, true));
}

// The product of the other elements along the reduced axes, exact where x has zeros (y / x
// is not): with no zero it is y / x; with one zero, the product of the nonzero elements at
// the zero and 0 elsewhere; with more, 0. Divisions use x with zeros replaced by 1, so no
// inf or NaN appears even in lanes `where` discards (their derivatives would be NaN).
Array prod_of_others(const Array& x, const Reduced& r) {
  const Array zero = equal(x, 0);
  const Array safe = where(zero, 1, x);
  const Array p = prod(safe, r.axes, true);
  const Array zeros = sum(zero.astype(int64), r.axes, true);
  return where(equal(zeros, 0), divide(p, safe), where(logical_and(equal(zeros, 1), zero), p, 0));
}

void reduce_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  const auto& [in, g, kind, params, out] = op.args_as<const Array&, const ReduceGeometry&, ReduceKind,
                                                       const ReduceParams&, const Array&>();
  (void)in, (void)out;
  const Array& x = op.inputs[0];
  if (x.size() == 0 || !out_cts[0].valid()) return;
  const Reduced r = reduced_axes(x, g);
  const Array ct = reshape(out_cts[0], r.keep_shape);
  const Array y = reshape(op.outputs[0], r.keep_shape);
  const DType dt = x.dtype();
  const bool cplx = is_complex(dt);
  if (cplx && (kind == ReduceKind::min || kind == ReduceKind::max))
    throw UnsupportedError("[grad] min and max of complex values have no derivative rule");
  // sign(x) of the real rules; x / |x| (0 at 0) for complex x.
  auto phase = [&] { return cplx ? divide(x, where(equal(x, 0), 1, absolute(x))) : sign(x); };
  Array d;  // the cotangent before broadcasting to x's shape
  switch (kind) {
    case ReduceKind::sum: d = ct; break;
    case ReduceKind::mean: d = divide(ct, params.divisor); break;
    case ReduceKind::prod: d = multiply(ct, conj(prod_of_others(x, r))); break;
    case ReduceKind::min:
    case ReduceKind::max: d = share(ct, equal(x, y), r, dt); break;
    case ReduceKind::var: {
      const Array centered = subtract(x, divide(sum(x, r.axes, true), params.count));
      d = multiply(ct, centered);
      d = params.take_sqrt ? divide(d, multiply(y, params.divisor)) : multiply(d, 2.0 / params.divisor);
      break;
    }
    case ReduceKind::norm_l2: d = multiply(ct, divide(x, y)); break;
    case ReduceKind::norm_l1: d = multiply(ct, phase()); break;
    case ReduceKind::norm_max_abs:
    case ReduceKind::norm_min_abs: d = multiply(share(ct, equal(absolute(x), y), r, real_dtype(dt)), phase()); break;
    case ReduceKind::norm_p: {
      const double p = params.p;
      d = multiply(ct, multiply(phase(), divide(power(absolute(x), p - 1), power(y, p - 1))));
      break;
    }
    default: return;  // norm_l0 (a count), any, all, argmin, argmax: no derivative
  }
  in_cts[0] = broadcast_to(d, x.shape());
}

// The sum over positions i >= j along axis 1 (the scan axis): a reversed cumsum.
Array suffix_sum(const Array& a) {
  return flip(cumsum(flip(a, std::vector<int64_t>{1}), 1), std::vector<int64_t>{1});
}

// cumprod's cotangent, exact where x has zeros: y_i depends on x_j (j <= i) through the
// product of x_k, k <= i, k != j. Before the first zero z that is y_i / x_j; at z it is the
// product of the x before z times that of the x from z + 1 to i; after z it is 0.
Array cumprod_vjp(const Array& x, const Array& y, const Array& ct) {
  const Array zero = equal(x, 0);
  const Array zeros_so_far = cumsum(zero.astype(int64), 1);
  const Array before = equal(zeros_so_far, 0);                        // j < z
  const Array first_zero = logical_and(zero, equal(zeros_so_far, 1));  // j == z
  const Array safe = where(zero, 1, x);
  const Array a = where(before, divide(suffix_sum(multiply(ct, where(before, y, 0))), safe), 0);
  // At z: (product of x before z) * sum over i >= z of ct_i * (product of x in (z, i]).
  const Array head = prod(where(before, x, 1), std::vector<int64_t>{1}, true);
  const Array after = greater(zeros_so_far, 0);  // i >= z
  const Array tail = cumprod(where(logical_or(before, first_zero), 1, x), 1);
  const Array at_z = multiply(head, sum(multiply(ct, where(after, tail, 0)), std::vector<int64_t>{1}, true));
  return where(first_zero, at_z, a);
}

// cumsum/cumprod: x and out are dense (outer, len, inner); the scan runs along len.
void scan_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  const auto& args = op.args_as<const Array&, const ReduceGeometry&, ScanKind, const Array&>();
  const ReduceGeometry& g = std::get<1>(args);
  const ScanKind kind = std::get<2>(args);
  const Array& x = op.inputs[0];
  if (x.size() == 0 || !out_cts[0].valid()) return;
  const Shape s3{g.outer, g.len, g.inner};
  const Array ct = reshape(out_cts[0], s3);
  // The cumprod rule is linear in ct and a polynomial in x and y: conjugating those gives
  // the adjoint convention's cotangent for complex values.
  const Array d = kind == ScanKind::prod ? cumprod_vjp(conj(reshape(x, s3)), conj(reshape(op.outputs[0], s3)), ct)
                                         : suffix_sum(ct);
  in_cts[0] = reshape(d, x.shape());
}

}  // namespace

}  // namespace loom::grad_rules

namespace loom::batch {
namespace {

void reduce_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [src, g, kind, params, out] = op.args_as<Array, ReduceGeometry, ReduceKind, ReduceParams, Array>();
  const Array o = dense_batch(out, g.outer * g.inner, m);
  if (!o.valid()) return per_example(op, m);
  const Array flat = dense_batch_copy(src, g.outer * g.len * g.inner, m);
  const ReduceGeometry bg{g.outer * m.size, g.len, g.inner};
  // Recorded as [outer][len][inner] and [outer][inner], not flat: the derivative rule finds
  // the reduced axis by its stride (reduced_axes), which a flat view would hide (grad of a
  // vmapped sum took the whole batch for one reduction).
  const int64_t si = static_cast<int64_t>(flat.itemsize()), oi = static_cast<int64_t>(o.itemsize());
  const Array s = flat.view({bg.outer, bg.len, bg.inner}, {bg.len * bg.inner * si, bg.inner * si, si}, flat.offset());
  const Array o2 = o.view({bg.outer, bg.inner}, {bg.inner * oi, oi}, o.offset());
  redispatch<void, const Array&, const ReduceGeometry&, ReduceKind, const ReduceParams&, const Array&>(
      op, {s}, {o2}, s, bg, kind, params, o2);
}

void scan_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [src, g, kind, out] = op.args_as<Array, ReduceGeometry, ScanKind, Array>();
  const int64_t n = g.outer * g.len * g.inner;
  const Array o = dense_batch(out, n, m);
  if (!o.valid()) return per_example(op, m);
  const Array s = dense_batch_copy(src, n, m);
  const ReduceGeometry bg{g.outer * m.size, g.len, g.inner};
  redispatch<void, const Array&, const ReduceGeometry&, ScanKind, const Array&>(op, {s}, {o}, s, bg, kind, o);
}

}  // namespace

}  // namespace loom::batch

namespace loom {

// One record per ReduceKind, indexed by it, named by the public op that runs that kind
// (the norms all come from linalg.norm). All are traceable: the result's size follows from
// the shapes alone. std is var with ReduceParams::take_sqrt and has its own record. sum and
// prod also take complex arrays (mean of a complex array is their sum over a count).
#define LOOM_REDUCE_INFO(name)                                                                                 \
  PrimitiveInfo{name, "reduce"}.fuses(Fusion::reduction).complex_vjp(grad_rules::reduce_vjp).batched(batch::reduce_rule)
#define LOOM_REDUCE_ROW(name) {LOOM_REDUCE_INFO(name), cpu_backend::reduce, gpu_backend::reduce}
#define LOOM_REDUCE_ROW_C(name) {LOOM_REDUCE_INFO(name).takes_complex(), cpu_backend::reduce, gpu_backend::reduce}
const Primitive<ReduceFn> primitives::reduce[kNumReduceKinds] = {
    LOOM_REDUCE_ROW_C("sum"),  LOOM_REDUCE_ROW_C("prod"), LOOM_REDUCE_ROW("min"),  LOOM_REDUCE_ROW("max"),
    LOOM_REDUCE_ROW("any"),    LOOM_REDUCE_ROW("all"),    LOOM_REDUCE_ROW("argmin"), LOOM_REDUCE_ROW("argmax"),
    LOOM_REDUCE_ROW("mean"),   LOOM_REDUCE_ROW("var"),    LOOM_REDUCE_ROW("norm"), LOOM_REDUCE_ROW("norm"),
    LOOM_REDUCE_ROW("norm"),   LOOM_REDUCE_ROW("norm"),   LOOM_REDUCE_ROW("norm"), LOOM_REDUCE_ROW("norm"),
};
const Primitive<ReduceFn> primitives::reduce_std = LOOM_REDUCE_ROW("std");
#undef LOOM_REDUCE_ROW_C
#undef LOOM_REDUCE_ROW
#undef LOOM_REDUCE_INFO

// A reduction fused with its prologue/epilogue by loom.jit's compiler. Never recorded by a
// tracer (jit replays the raw traced ops under an enclosing trace), so it has no rules.
const Primitive<FusedReduceFn> primitives::fused_reduce{
    PrimitiveInfo{"fused_reduce", "reduce"}
        .no_vjp_because("jit's compiler makes it after tracing; an enclosing trace records the ops it fused")
        .no_batch_because("jit's compiler makes it after tracing; an enclosing trace records the ops it fused"),
    cpu_backend::fused_reduce, gpu_backend::fused_reduce};

// One record per ScanKind, indexed by it; complex too (the sum/prod accumulators).
const Primitive<ScanFn> primitives::scan[2] = {
    {PrimitiveInfo{"cumsum", "reduce"}.takes_complex().complex_vjp(grad_rules::scan_vjp).batched(batch::scan_rule),
     cpu_backend::scan, gpu_backend::scan},
    {PrimitiveInfo{"cumprod", "reduce"}.takes_complex().complex_vjp(grad_rules::scan_vjp).batched(batch::scan_rule),
     cpu_backend::scan, gpu_backend::scan},
};

}  // namespace loom
