// Derivative rules of advanced indexing. A gather's plan (byte offsets from the indexed
// view's element 0 and a walk of its strides) applies unchanged to any array laid out as
// that view, so each rule runs the family's own gather and scatter primitives on
// cotangents laid out that way (grad_rules.h: zeros_laid_out_as):
//   getitem: the source's cotangent is the output's scatter-added at the gathered places;
//   setitem / at: the values' cotangent is the output's gathered at the written places, the
//   destination's is the output's with set places zeroed (add: unchanged; multiply: scaled
//   by the values; min/max: where the old value survived). A multiply scatter's value
//   cotangent includes the other values written to its place (repeated indices).
#include "loom/backend/indexing.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/core/error.h"
#include "loom/ops/grad_rules.h"
#include "loom/ops/grad_util.h"

namespace loom::grad_rules {
namespace {

// The elements of `src` (laid out as the indexed view) at the plan's places, `shape`.
Array gather(const Array& src, const Array& offsets, const IndexLayout& l, const Shape& shape) {
  if (!offsets.valid()) return src.copy();  // a basic view: the walk is every element, in order
  Array out = Array::allocate(shape, src.dtype(), src.device());
  if (out.size() > 0) dispatch(primitives::getitem, {src, offsets}, {out}, src, offsets, l, out);
  return out;
}

void scatter(const Array& dst, const Array& offsets, const IndexLayout& l, const Array& values, ScatterMode m) {
  const Array v = values.dtype() == dst.dtype() && values.is_contiguous() ? values : values.astype(dst.dtype());
  const Primitive<ScatterFn>& p = m == ScatterMode::set ? primitives::setitem : primitives::at;
  if (offsets.valid()) dispatch(p, {dst, offsets, v}, {dst}, dst, offsets, l, v, m);
  else dispatch(p, {dst, v}, {dst}, dst, offsets, l, v, m);
}

// For each value of a multiply scatter, the product of the other values written to the
// same place (1 where the place is written once), so repeated indices differentiate
// exactly: per place, the product of its nonzero values and the count of its zeros; a
// nonzero value's others are that product divided by it (0 when the place has a zero), a
// zero's are the product when it is the place's only zero (else 0).
Array other_factors(const Array& old, const Array& offsets, const IndexLayout& l, const Array& values) {
  const Array v = values.dtype() == old.dtype() ? values : values.astype(old.dtype());
  const Array zero = equal(v, 0);
  const Array prod = copy_laid_out_as(ones(old.shape(), old.dtype(), old.device()), old);
  scatter(prod, offsets, l, where(zero, ones_like(v), v), ScatterMode::multiply);
  const Array zeros_at = zeros_laid_out_as(old);
  scatter(zeros_at, offsets, l, zero.astype(old.dtype()), ScatterMode::add);
  const Array p = gather(prod, offsets, l, v.shape()), z = gather(zeros_at, offsets, l, v.shape());
  const Array none = zeros_like(v);
  return where(zero, where(equal(z, 1), p, none), where(equal(z, 0), divide(p, where(zero, ones_like(v), v)), none));
}

void getitem_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  const auto& args = op.args_as<const Array&, const Array&, const IndexLayout&, const Array&>();
  const IndexLayout& l = std::get<2>(args);
  const Array& src = op.inputs[0];
  if (!out_cts[0].valid() || !has_tangent_space(src.dtype())) return;
  const Array d = zeros_laid_out_as(src);
  scatter(d, op.inputs[1], l, out_cts[0], ScatterMode::add);
  in_cts[0] = d;
}

void scatter_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  const auto& args = op.args_as<const Array&, const Array&, const IndexLayout&, const Array&, ScatterMode>();
  const IndexLayout& l = std::get<2>(args);
  const ScatterMode mode = std::get<4>(args);
  if (!out_cts[0].valid()) return;
  const bool has_offsets = op.inputs.size() == 3;
  const Array offsets = has_offsets ? op.inputs[1] : Array();
  const Array& old = op.inputs[0];
  const Array& values = op.inputs.back();
  const Array& now = op.outputs[0];
  const Array ct = copy_laid_out_as(out_cts[0], old);  // its own buffer: the rules write into it
  const Array g = gather(ct, offsets, l, values.shape());
  Array dv, dd = ct;
  switch (mode) {
    case ScatterMode::set:
      dv = g;
      scatter(dd, offsets, l, zeros(values.shape(), old.dtype(), old.device()), ScatterMode::set);
      break;
    case ScatterMode::add: dv = g; break;
    case ScatterMode::multiply:
      // Complex values: the adjoint convention multiplies by the conjugate factors.
      dv = multiply(g, conj(multiply(gather(old, offsets, l, values.shape()), other_factors(old, offsets, l, values))));
      scatter(dd, offsets, l, conj(values), ScatterMode::multiply);
      break;
    case ScatterMode::min:
    case ScatterMode::max:
      if (is_complex(old.dtype()))
        throw UnsupportedError("[grad] x.at[].min/max of complex values has no derivative rule");
      dv = multiply(g, equal(values, gather(now, offsets, l, values.shape())));
      dd = multiply(ct, equal(old, now));
      break;
  }
  in_cts[0] = dd;
  in_cts.back() = dv;
}

}  // namespace

void register_indexing() {
  set_complex_vjp_rule(primitives::getitem.info, getitem_vjp);
  set_complex_vjp_rule(primitives::setitem.info, scatter_vjp);
  set_complex_vjp_rule(primitives::at.info, scatter_vjp);
  for (const auto* p : {&primitives::getitem_offsets, &primitives::setitem_offsets, &primitives::at_offsets})
    set_complex_vjp_rule(p->info, no_cotangent);
}

}  // namespace loom::grad_rules
