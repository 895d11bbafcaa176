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
#include "loom/backend/indexing.h"
#include "loom/ops/batch_common.h"
#include "loom/ops/elementwise.h"

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

void register_indexing() {
  for (const auto* p : {&primitives::getitem_offsets, &primitives::setitem_offsets, &primitives::at_offsets})
    set_batch_rule(p->info, offsets_rule);
  set_batch_rule(primitives::getitem.info, gather_rule);
  set_batch_rule(primitives::setitem.info, scatter_rule);
  set_batch_rule(primitives::at.info, scatter_rule);
}

}  // namespace loom::batch
