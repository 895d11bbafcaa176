// The shape_ops family's primitives (ops/shape_ops_primitives.h), each row below with its rules.
//
// Derivative rule of repeat's row gather (take_rows): dst[o, j, :] = src[o, idx[j], :], so
// the source's cotangent adds each output row's cotangent into the row it came from.
//
// Batching the row gather behind repeat (take_rows): with the row indices shared by all
// examples, the examples are `size` more outer blocks of src and dst, one call. Indices that
// differ per example would need a gather per example: those run the loop.
#include "loom/ops/shape_ops_primitives.h"

#include "loom/core/error.h"
#include "loom/ops/batch_common.h"
#include "loom/ops/creation.h"
#include "loom/ops/grad_rules.h"
#include "loom/ops/grad_util.h"
#include "loom/ops/indexing.h"
#include "loom/ops/shape_ops.h"

namespace loom::grad_rules {
namespace {

void repeat_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  const auto& args = op.args_as<const Array&, const Array&, const Array&, int64_t, int64_t, int64_t>();
  const int64_t outer = std::get<3>(args), n = std::get<4>(args), inner = std::get<5>(args);
  const Array& src = op.inputs[0];
  const Array& idx = op.inputs[1];
  if (!out_cts[0].valid() || !has_tangent_space(src.dtype())) return;
  const Array ct = reshape(out_cts[0], {outer, idx.size(), inner});
  const Array z = zeros({outer, n, inner}, src.dtype(), src.device());
  const Array d = at_update(z, {Slice{}, idx}, ct, AtOp::add);
  in_cts[0] = reshape(d, src.shape());
}

}  // namespace

}  // namespace loom::grad_rules

namespace loom::batch {
namespace {

void take_rows_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [src, idx, dst, outer, n, inner] = op.args_as<Array, Array, Array, int64_t, int64_t, int64_t>();
  if (m.is_batched(idx)) return per_example(op, m);
  const Array d = dense_batch(dst, outer * idx.size() * inner, m);
  if (!d.valid()) return per_example(op, m);
  const Array s = dense_batch_copy(src, outer * n * inner, m);
  const Array i = first_example(m.batched(idx));
  redispatch<void, const Array&, const Array&, const Array&, int64_t, int64_t, int64_t>(
      op, {s, i}, {d}, s, i, d, outer * m.size, n, inner);
}

}  // namespace

}  // namespace loom::batch

namespace loom {

// Whole rows are moved as bytes, so complex rows are no different.
const Primitive<TakeRowsFn> primitives::repeat{
    PrimitiveInfo{"repeat", "shape_ops"}.takes_complex().complex_vjp(grad_rules::repeat_vjp).batched(batch::take_rows_rule),
    cpu_backend::take_rows, gpu_backend::take_rows};

}  // namespace loom
