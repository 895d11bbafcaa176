// What the batching rules (in ops/<family>_primitives.cpp; dispatch/primitive.h BatchRule) share: the loop
// over examples that is always correct, and the ways a rule re-dispatches a record on
// batched views, so that under an enclosing trace the batched op is recorded there.
#pragma once
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <vector>

#include "loom/dispatch/dispatch.h"
#include "loom/dispatch/rules.h"

namespace loom::batch {

/// Runs `op` once per example (BatchMap::example(b)): correct for every primitive, used
/// where no single call describes the batch.
void per_example(const TracedOp& op, const BatchMap& m);

/// For records that read no batched buffer but write a batched one (an op with no inputs,
/// or a buffer another op later writes per example): runs `op` once on example 0 and copies
/// its outputs to the other examples (every example gets the same values, as in JAX).
void once_then_broadcast(const TracedOp& op, const BatchMap& m);

/// The batched views (BatchMap::batched) of `arrays`.
std::vector<Array> batched_all(const std::vector<Array>& arrays, const BatchMap& m);

/// Example 0 of a batched view (its leading axis dropped): an unbatched operand rebound.
inline Array first_example(const Array& all) {
  return all.view(Shape(all.shape().begin() + 1, all.shape().end()),
                  Strides(all.strides().begin() + 1, all.strides().end()), all.offset());
}

/// `v`'s batch stride in bytes under `m` (0: shared by all examples).
int64_t batch_stride(const Array& v, const BatchMap& m);

/// The `n` elements of memory at v.data() (a dense region, as reductions read their input)
/// over all examples as one 1-d array of m.size * n elements, or an invalid Array when the
/// examples are not laid out back to back.
Array dense_batch(const Array& v, int64_t n, const BatchMap& m);

/// The same, copying the examples together when they are not back to back.
Array dense_batch_copy(const Array& v, int64_t n, const BatchMap& m);

/// A batched view `v` (S, N, ...) as (S*N, ...) when the examples lie back to back and each
/// is contiguous, else an invalid Array.
Array merge_leading(const Array& v);
/// The same, copying `v` to a contiguous array first when it does not merge (an input).
Array merge_leading_copy(const Array& v);

/// Dispatches the primitive of `op` (its record, signature R(A...)) again on `device` with
/// `args`; `in` and `out` are what hooks see.
template <class R, class... A, class... Args>
void redispatch(const TracedOp& op, const std::vector<Array>& in, const std::vector<Array>& out,
                Args&&... args) {
  const auto& p = *static_cast<const Primitive<R(A...)>*>(op.record);
  const auto in_refs = trace_detail::refs(in), out_refs = trace_detail::refs(out);
  dispatch_on(p, op.device, in_refs, out_refs, std::forward<Args>(args)...);
}

/// The rule of a primitive whose array arguments all run along a leading axis of independent
/// rows (images, samples; eval signature void(P...)): the examples' rows are more rows, so
/// one call on the merged arrays does the whole batch. An output whose examples do not lie
/// back to back makes it fall back to per_example.
template <class... P>
void rows_rule(const TracedOp& op, const BatchMap& m) {
  auto args = op.args_as<P...>();
  std::vector<Array> in, out;
  bool ok = true;
  auto merge = [&](auto& a) {
    if constexpr (std::is_same_v<std::decay_t<decltype(a)>, Array>) {
      bool is_out = false;
      for (const Array& o : op.outputs) is_out = is_out || (o.buffer() == a.buffer() && o.offset() == a.offset());
      const Array b = m.batched(a);
      a = is_out ? merge_leading(b) : merge_leading_copy(b);
      ok = ok && a.valid();
      (is_out ? out : in).push_back(a);
    }
  };
  std::apply([&](auto&... a) { (merge(a), ...); }, args);
  if (!ok) return per_example(op, m);
  std::apply([&](auto&... a) { redispatch<void, P...>(op, in, out, a...); }, args);
}

}  // namespace loom::batch
