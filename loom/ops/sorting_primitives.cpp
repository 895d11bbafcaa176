// The sorting family's primitives (ops/sorting_primitives.h), each row below with its rules.
//
// Derivative rule of sort: out[..., j] = src[..., perm[..., j]] with perm = argsort(src)
// (the same stable order), so the source's cotangent adds out's cotangent back through
// the permutation. argsort, searchsorted and unique have integer results: no rule.
//
// Batching sort and argsort: the eval sorts along the last axis of a view of any rank, so
// the batched views (one more leading axis) are one call.
//
// searchsorted searches one 1-d sorted array. With that array shared by all examples, the
// batched values are one dense block: one call. With a batched sorted array, no single
// call of the eval describes the batch, so the insertion points are counted instead, as
// JAX's method='compare_all': left = #{a < v}, right = #{a <= v} in the order the evals
// use (NaN above everything, -0.0 == 0.0), one comparison over [size, len(v), len(a)] and
// one sum; past kCompareAllMax comparisons (memory) the engine's loop is kept. A sorter
// reads its values back to be checked, so it never reaches a trace: the loop too.
#include "loom/ops/sorting_primitives.h"

#include "loom/core/error.h"
#include "loom/ops/batch_common.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/grad_rules.h"
#include "loom/ops/grad_util.h"
#include "loom/ops/indexing.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/sorting.h"

namespace loom::grad_rules {
namespace {

void sort_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  const Array& src = op.inputs[0];
  if (!out_cts[0].valid() || !has_tangent_space(src.dtype()) || src.size() == 0) return;
  const int64_t len = src.ndim() == 0 ? 1 : src.shape().back();
  const int64_t rows = src.size() / len;
  // Flat positions of the sorted elements in src (C order): row * len + perm.
  const Array perm = reshape(argsort(src, -1), {rows, len});
  const Array base = reshape(arange(0, rows * len, len, int64, src.device()), {rows, 1});
  const Array pos = ravel(add(perm, base));
  const Array z = zeros({src.size()}, src.dtype(), src.device());
  const Array d = at_update(z, {pos}, ravel(out_cts[0]), AtOp::add);
  in_cts[0] = reshape(d, src.shape());
}

}  // namespace

}  // namespace loom::grad_rules

namespace loom::batch {
namespace {

void sort_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [src, out, indices] = op.args_as<Array, Array, bool>();
  const Array o = m.batched(out);
  if (!o.is_contiguous()) return per_example(op, m);
  const Array s = m.batched(src);
  redispatch<void, const Array&, const Array&, bool>(op, {s}, {o}, s, o, indices);
}

constexpr int64_t kCompareAllMax = int64_t{1} << 26;

void searchsorted_rule(const TracedOp& op, const BatchMap& m) {
  const auto& [a, v, sorter, right, out] = op.args_as<Array, Array, Array, bool, Array>();
  const int64_t k = v.size(), n = a.size(), size = m.size;
  const Array o = dense_batch(out, k, m);
  if (sorter.valid() || !o.valid()) return per_example(op, m);
  if (size == 0) return;
  if (!m.is_batched(a)) {  // one sorted array: the batch is more values
    const Array as = first_example(m.batched(a)), vs = dense_batch_copy(v, k, m);
    return redispatch<void, const Array&, const Array&, const Array&, bool, const Array&>(
        op, {as, vs}, {o}, as, vs, sorter, right, o);
  }
  if (size * k * n > kCompareAllMax) return per_example(op, m);
  const int64_t item = static_cast<int64_t>(a.itemsize());
  const Array ab = m.batched(a), vb = m.batched(v);  // a, v contiguous per example
  const Array A = ab.view({size, 1, n}, {ab.strides()[0], 0, item}, ab.offset());
  const Array V = vb.view({size, k, 1}, {vb.strides()[0], item, 0}, vb.offset());
  Array below = right ? less_equal(A, V) : less(A, V);
  if (is_floating(a.dtype())) {  // a NaN v is above every number (and, searching right, every NaN)
    const Array nan_v = isnan(V);
    below = logical_or(below, right ? nan_v : logical_and(nan_v, logical_not(isnan(A))));
  }
  sum(below, std::vector<int64_t>{2}, false, int64, o.view({size, k}, {k * 8, 8}, o.offset()));
}

}  // namespace

}  // namespace loom::batch

namespace loom {

const Primitive<SortLastAxisFn> primitives::sort{
    PrimitiveInfo{"sort", "sorting"}.complex_vjp(grad_rules::sort_vjp).batched(batch::sort_rule),
    cpu_backend::sort_last_axis, gpu_backend::sort_last_axis};
const Primitive<SortLastAxisFn> primitives::argsort{
    PrimitiveInfo{"argsort", "sorting"}.no_vjp_because("its result is integer indices").batched(batch::sort_rule),
    cpu_backend::sort_last_axis, gpu_backend::sort_last_axis};
// Not traceable: the number of unique values sizes every output, and the GPU eval reads it
// back between its sort and its scatter. Splitting it would carry the sorted keys, the
// permutation and the group numbers (each backend's own layout) across the dispatch point
// for an op whose result shape depends on the data anyway.
const Primitive<UniqueFn> primitives::unique{PrimitiveInfo{"unique", "sorting"}.not_traceable(), cpu_backend::unique,
                                             gpu_backend::unique};
// searchsorted with a sorter: the check is a device part of its own, whose flag ops/ reads
// back before the search (the same single wait as before the split).
const Primitive<CheckSorterFn> primitives::searchsorted_sorter{
    PrimitiveInfo{"searchsorted", "sorting"}
        .no_vjp_because("its result is a flag")
        .no_batch_because("its flag is read back before the search, so it never reaches a trace"),
    cpu_backend::check_sorter, gpu_backend::check_sorter};
// Takes complex arrays: NumPy's lexicographic sort order (NaN class, real, imaginary part).
const Primitive<SearchsortedFn> primitives::searchsorted{
    PrimitiveInfo{"searchsorted", "sorting"}
        .takes_complex()
        .no_vjp_because("its result is integer indices")
        .batched(batch::searchsorted_rule),
    cpu_backend::searchsorted, gpu_backend::searchsorted};
// Order statistics of one slice (quantile, median).
const Primitive<SelectRanksFn> primitives::select_ranks{
    PrimitiveInfo{"select_ranks", "sorting"}
        .no_vjp_because("ops/quantiles.cpp takes the sort path while a tracer is installed")
        .no_batch_because("ops/quantiles.cpp takes the sort path while a tracer is installed"),
    cpu_backend::select_ranks, gpu_backend::select_ranks};

}  // namespace loom
