// The counting family's primitives (ops/counting_primitives.h), each row below with its rules.
//
// Derivative rules of the counting family: bincount's and histogram's sums are linear in
// their weights, so a weight's cotangent is its bin's (zero for a value outside the range);
// the values (integers, or floats whose bins change only by jumps) get none. The
// histogram's bins come from its own eval in bin_index mode, NumPy's rule again.
#include "loom/ops/counting_primitives.h"

#include "loom/dispatch/dispatch.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/grad_rules.h"
#include "loom/ops/indexing.h"

namespace loom::grad_rules {
namespace {

void bincount_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  const auto& [x, weights, out] = op.args_as<Array, Array, Array>();
  if (!out_cts[0].valid() || !weights.valid() || !is_floating(weights.dtype())) return;
  in_cts[1] = getitem(out_cts[0], {Index(x.astype(DType::int64))});
}

void histogram_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  const auto& [x, edges, weights, p, out] = op.args_as<Array, Array, Array, HistogramParams, Array>();
  if (!out_cts[0].valid() || !weights.valid() || !is_floating(weights.dtype()) || p.bin_index) return;
  HistogramParams q = p;
  q.bin_index = true;
  const Array bin = Array::allocate({x.size()}, DType::int64, x.device());
  dispatch(primitives::histogram, {x, edges}, {bin}, x, edges, Array(), q, bin);
  const Array at = clip(bin, Operand(int64_t{0}), Operand(p.bins - 1));
  in_cts[2] = where(greater_equal(bin, int64_t{0}), getitem(out_cts[0], {Index(at)}), 0.0).astype(weights.dtype());
}

}  // namespace

}  // namespace loom::grad_rules

namespace loom {

// The range read of bincount and histogram: one pass for both values, one host read.
const Primitive<MinMaxFn> primitives::minmax{
    PrimitiveInfo{"minmax", "counting"}
        .no_vjp_because("the range only places the bins: no derivative flows through it")
        .no_batch_because("ops/ reads the range back to size the bins, so no batched trace holds it"),
    cpu_backend::minmax, gpu_backend::minmax};
// Complex operands: complex128 weights and sums.
const Primitive<BincountFn> primitives::bincount{
    PrimitiveInfo{"bincount", "counting"}
        .takes_complex()
        .real_vjp(grad_rules::bincount_vjp)
        .no_batch_because("each example counts into bins of its own: vmap runs it once per example"),
    cpu_backend::bincount, gpu_backend::bincount};
const Primitive<HistogramFn> primitives::histogram{
    PrimitiveInfo{"histogram", "counting"}
        .takes_complex()
        .real_vjp(grad_rules::histogram_vjp)
        .no_batch_because("each example counts into bins of its own: vmap runs it once per example"),
    cpu_backend::histogram, gpu_backend::histogram};

}  // namespace loom
