// The transform rules of the primitives (docs/TRANSFORMS.md): how each recorded op is
// differentiated (vjp, jvp) and batched (vmap). They are written in ops/ beside the op's
// shape and dtype rules, in terms of public ops (so that they are traced, batched and
// differentiated again when transforms nest), and registered here by primitive record.
// A primitive without a rule makes the transform raise UnsupportedError naming it.
#pragma once
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "loom/array/rebind.h"
#include "loom/backend/primitive.h"
#include "loom/dispatch/trace.h"

namespace loom {

/// Reverse mode. `op` is the recorded op with its arrays rebound to the forward pass's
/// values (inputs and outputs readable). `out_cts[i]` is the cotangent of op.outputs[i]
/// (shape and dtype of that view), or an invalid Array where it is zero. The rule sets
/// `in_cts[i]` (pre-sized to op.inputs.size(), all invalid) to the cotangent of
/// op.inputs[i] with that view's shape, or leaves it invalid for none (integers, indices).
/// The engine accumulates them into the inputs' buffers, summing over broadcast axes.
using VjpRule = void (*)(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts);

/// Forward mode, the same way round: `in_tangents` aligned with op.inputs (invalid: zero),
/// sets `out_tangents` aligned with op.outputs.
using JvpRule = void (*)(const TracedOp& op, const std::vector<Array>& in_tangents,
                         std::vector<Array>& out_tangents);

/// What stands for an abstract buffer under vmap: `size` examples laid out `batch_stride`
/// bytes apart from `offset_delta` in `buffer` (stride 0: one example shared by all).
struct BatchBinding {
  std::shared_ptr<Buffer> buffer;
  int64_t offset_delta = 0;
  int64_t batch_stride = 0;
};

struct BatchMap {
  int64_t size = 0;  // the batch size
  std::unordered_map<const Buffer*, BatchBinding> buffers;

  /// `v` (a view recorded on one example) over all examples: a leading axis of `size`
  /// with the buffer's batch stride. A buffer not in the map (a constant) gets stride 0.
  Array batched(const Array& v) const;
  /// Whether `v`'s buffer differs between examples.
  bool is_batched(const Array& v) const;
  /// The plain map of example `b`, to run a recorded op once per example.
  BufferMap example(int64_t b) const;
};

/// Batching: runs `op` (recorded on one example) for all examples of `m` at once, writing
/// the batched views of its outputs.
using BatchRule = void (*)(const TracedOp& op, const BatchMap& m);

struct TransformRules {
  VjpRule vjp = nullptr;
  JvpRule jvp = nullptr;
  BatchRule batch = nullptr;
  /// The vjp rule is written for complex values too (docs/TRANSFORMS.md §6, the adjoint
  /// convention); reverse mode refuses a record whose rule is not when a complex value
  /// that carries a cotangent flows through it.
  bool vjp_complex = false;
};

void set_vjp_rule(const PrimitiveInfo& p, VjpRule rule);
/// `rule`, declared correct for complex values as well as real ones.
void set_complex_vjp_rule(const PrimitiveInfo& p, VjpRule rule);
void set_jvp_rule(const PrimitiveInfo& p, JvpRule rule);
void set_batch_rule(const PrimitiveInfo& p, BatchRule rule);
/// The rules of `p` (null members where it has none).
TransformRules rules_of(const PrimitiveInfo& p);

}  // namespace loom
