// The indexing family's primitives (ops/indexing_primitives.h), each row below with its rules.
//
// Derivative rules of advanced indexing. A gather's plan (byte offsets from the indexed
// view's element 0 and a walk of its strides) applies unchanged to any array laid out as
// that view, so each rule runs the family's own gather and scatter primitives on
// cotangents laid out that way (grad_rules.h: zeros_laid_out_as):
//   getitem: the source's cotangent is the output's scatter-added at the gathered places;
//   setitem / at: the values' cotangent is the output's gathered at the written places, the
//   destination's is the output's with set places zeroed (add: unchanged; multiply: scaled
//   by the values; min/max: where the old value survived). A multiply scatter's value
//   cotangent includes the other values written to its place (repeated indices).
//
// Batching advanced indexing (backend/indexing_plan.h): one call for the whole batch.
//
// A gather or scatter walks an IndexLayout: position o of the walk reads (or writes)
// view.data() + offsets[b] + s, where s and b are the walk's coordinates dotted with its
// src and b strides. Under vmap the examples of the view's buffer lie a batch stride apart
// (BatchMap), and those of the offsets buffer too, so the batch is one more, leading,
// walk dimension: size examples, src stride = the view's batch stride in bytes, b stride =
// the offsets' batch stride in elements (either 0 when shared by all examples). The plan
// is otherwise the one recorded, so an unbatched index (stride 0), a batched source, a
// batched index or both are the same single call. The values of a scatter are read
// position by position of the walk, so they are made one dense block for all examples.
//
// The offsets eval turns index arrays (contiguous int64 of the index shape B) into byte
// offsets within one example: the batch is folded into B. Each index becomes one dense
// [size * |B|] block (a view when it already is one, else a copy: an index shared by all
// examples is repeated), one eval writes all the offsets, and one strided copy puts them
// into the batched output (whose examples are |B| + 1 apart: the eval's bounds word, which
// nothing reads under a trace, as out-of-bounds indices are clamped there).
#include "loom/ops/indexing_primitives.h"

#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/batch_common.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
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

}  // namespace loom::grad_rules

namespace loom::batch {
namespace {

// The recorded walk with the batch as a leading dimension. A walk with no dimension (one
// element) gets a trailing one of size 1, so the innermost dimension stays a plain row:
// the CPU gather reads the innermost dimension as either a row (b stride 0) or B.
IndexLayout batched_layout(const IndexLayout& l, int64_t size, int64_t src_stride, int64_t b_stride) {
  IndexLayout r;
  r.shape.reserve(l.shape.size() + 1);
  r.shape.push_back(size);
  r.src_strides.push_back(src_stride);
  r.b_strides.push_back(b_stride);
  r.shape.insert(r.shape.end(), l.shape.begin(), l.shape.end());
  r.src_strides.insert(r.src_strides.end(), l.src_strides.begin(), l.src_strides.end());
  r.b_strides.insert(r.b_strides.end(), l.b_strides.begin(), l.b_strides.end());
  if (l.shape.empty()) {
    r.shape.push_back(1);
    r.src_strides.push_back(0);
    r.b_strides.push_back(0);
  }
  return r;
}

// The offsets' batch stride in elements (int64 offsets: always a multiple of 8 bytes).
int64_t offsets_stride(const Array& offsets, const BatchMap& m) {
  return offsets.valid() ? batch_stride(offsets, m) / static_cast<int64_t>(sizeof(int64_t)) : 0;
}

void offsets_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [ix, out] = op.args_as<IndexArrays, Array>();
  bool any = false;
  for (const Array& i : ix.indices) any = any || m.is_batched(i);
  if (!any || !m.is_batched(out)) return once_then_broadcast(op, m);  // the same offsets for all
  if (m.size == 0) return;
  const int64_t n = out.size() - 1, size = m.size;
  IndexArrays all = ix;
  for (Array& i : all.indices) i = dense_batch_copy(i, n, m);
  const Array flat = Array::allocate({size * n + 1}, int64, out.device());
  redispatch<void, const IndexArrays&, const Array&>(op, all.indices, {flat}, all, flat);
  const Array o = m.batched(out);
  copyto(o.view({size, n}, {o.strides()[0], 8}, o.offset()), flat.view({size, n}, {n * 8, 8}, flat.offset()));
}

void gather_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [src, offsets, l, out] = op.args_as<Array, Array, IndexLayout, Array>();
  const Array o = m.batched(out);
  if (!m.is_batched(out) || !o.is_contiguous()) return per_example(op, m);
  if (m.size == 0) return;
  const Array s = m.batched(src), f = m.batched(offsets);
  const IndexLayout bl = batched_layout(l, m.size, batch_stride(src, m), offsets_stride(offsets, m));
  redispatch<void, const Array&, const Array&, const IndexLayout&, const Array&>(op, {s, f}, {o}, s, f, bl, o);
}

void scatter_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [dst, offsets, l, values, mode] = op.args_as<Array, Array, IndexLayout, Array, ScatterMode>();
  // A destination shared by all examples (an array captured from outside: the engine gives
  // every abstract buffer written per example its own copies) keeps the loop's order.
  if (!m.is_batched(dst)) return per_example(op, m);
  if (m.size == 0) return;
  const Array d = m.batched(dst);
  const Array v = dense_batch_copy(values, values.size(), m);
  const IndexLayout bl = batched_layout(l, m.size, batch_stride(dst, m), offsets_stride(offsets, m));
  if (offsets.valid()) {
    const Array f = m.batched(offsets);
    redispatch<void, const Array&, const Array&, const IndexLayout&, const Array&, ScatterMode>(
        op, {d, f, v}, {d}, d, f, bl, v, mode);
  } else {
    redispatch<void, const Array&, const Array&, const IndexLayout&, const Array&, ScatterMode>(
        op, {d, v}, {d}, d, offsets, bl, v, mode);
  }
}

}  // namespace

}  // namespace loom::batch

namespace loom {

// The offsets (and the bounds word) of an advanced index, one record per public op. Split,
// hence traceable: the eval leaves the first bad position on the device and ops/ reads
// that word back (the one wait the GPU made before the split, at no extra cost).
// Indexing only moves elements, so getitem and setitem take complex arrays (PrimitiveInfo::
// complex). `at` takes them for add (two real additions per element: two atomicAdds on the
// GPU); ops/indexing.cpp refuses complex multiply, min and max before dispatch.
const Primitive<IndexOffsetsFn> primitives::getitem_offsets{
    PrimitiveInfo{"getitem", "indexing"}.takes_complex().complex_vjp(grad_rules::no_cotangent).batched(batch::offsets_rule),
    cpu_backend::index_offsets, gpu_backend::index_offsets};
const Primitive<IndexOffsetsFn> primitives::setitem_offsets{
    PrimitiveInfo{"setitem", "indexing"}.takes_complex().complex_vjp(grad_rules::no_cotangent).batched(batch::offsets_rule),
    cpu_backend::index_offsets, gpu_backend::index_offsets};
const Primitive<IndexOffsetsFn> primitives::at_offsets{
    PrimitiveInfo{"at", "indexing"}.takes_complex().complex_vjp(grad_rules::no_cotangent).batched(batch::offsets_rule),
    cpu_backend::index_offsets, gpu_backend::index_offsets};
const Primitive<GatherFn> primitives::getitem{
    PrimitiveInfo{"getitem", "indexing"}.takes_complex().complex_vjp(grad_rules::getitem_vjp).batched(batch::gather_rule),
    cpu_backend::gather, gpu_backend::gather};
// Eager getitem whose result is the index shape alone (take, x[i, j]): the bounds check and
// the gather in one pass, its flag read back after it. Only outside tracing (ops/indexing.cpp):
// a tracer records the split pair above, whose batching and derivative rules exist.
const Primitive<GatherIndexedFn> primitives::getitem_indexed{
    PrimitiveInfo{"getitem", "indexing"}
        .takes_complex()
        .no_vjp_because("ops/indexing.cpp records the split getitem_offsets and getitem while tracing")
        .no_batch_because("ops/indexing.cpp records the split getitem_offsets and getitem while tracing"),
    cpu_backend::gather_indexed, gpu_backend::gather_indexed};
const Primitive<ScatterFn> primitives::setitem{
    PrimitiveInfo{"setitem", "indexing"}.takes_complex().complex_vjp(grad_rules::scatter_vjp).batched(batch::scatter_rule),
    cpu_backend::scatter, gpu_backend::scatter};
const Primitive<ScatterFn> primitives::at{
    PrimitiveInfo{"at", "indexing"}.takes_complex().complex_vjp(grad_rules::scatter_vjp).batched(batch::scatter_rule),
    cpu_backend::scatter, gpu_backend::scatter};
// Split, hence traceable: nonzero is a count per chunk (device part), the read of its total
// in ops/ (which sizes the result, as the GPU eval's own read did before), then the index
// writes. count_nonzero is the count alone, whose total ops/ reads back.
const Primitive<NonzeroStartsFn> primitives::nonzero_count{
    PrimitiveInfo{"nonzero", "indexing"}
        .no_vjp_because("its result is integer counts")
        .no_batch_because("ops/ reads its total back to size nonzero's result, so no batched trace holds it"),
    cpu_backend::nonzero_starts, gpu_backend::nonzero_starts};
const Primitive<NonzeroFn> primitives::nonzero{
    PrimitiveInfo{"nonzero", "indexing"}
        .no_vjp_because("its result is integer indices")
        .no_batch_because("its result's size depends on each example's data: vmap runs it once per example"),
    cpu_backend::nonzero, gpu_backend::nonzero};
const Primitive<NonzeroStartsFn> primitives::count_nonzero{
    PrimitiveInfo{"count_nonzero", "indexing"}
        .no_vjp_because("its result is integer counts")
        .no_batch_because("ops/ reads its total back, so no batched trace holds it"),
    cpu_backend::nonzero_starts, gpu_backend::nonzero_starts};

}  // namespace loom
