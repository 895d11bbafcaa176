// Fusion of elementwise records for the jit compiler (transforms/compile.h).
//
// A group is a set of elementwise records (primitives::elementwise[...]) over one output
// shape and device, run together at the position of its last member. A record joins the
// group of a record whose output it reads when:
//   - every buffer both touch is accessed with one view (dtype, shape, strides, offset), so
//     element i of every access is element i of the loop (no other layout, no overlap);
//   - moving the earlier members down to the new record's position is safe: no op between
//     them reads or writes what an earlier member writes, or writes what it reads.
// Inside a group a read of a buffer that a member wrote before takes that member's value
// (cast to the buffer's dtype when the result dtype differs: an intermediate stored as
// float32 rounds as float32). A written buffer is stored only when something outside the
// group can see it: a result of the function, another op, memory the plan does not own.
#pragma once
#include <cstddef>
#include <unordered_set>
#include <vector>

#include "loom/ops/elementwise_primitives.h"
#include "loom/transforms/graph.h"

namespace loom {

struct FusedGroup {
  std::vector<size_t> members;  // indices into TracedGraph::ops, ascending (at least two)
  FusedCall call;               // graph, and abstract arrays of the traced buffers
};

/// Whether `op` is an elementwise record (its args are one ElementwiseCall).
bool is_elementwise_record(const TracedOp& op);

/// The FusedGraph of `members` (elementwise records, ascending, movable to the last one)
/// with an output for each written buffer in `visible_outside`; false when there is none
/// or the group has too many operands.
bool build_fused_group(const TracedGraph& g, const std::vector<size_t>& members,
                       const std::unordered_set<const Buffer*>& visible_outside, FusedGroup& out);

/// The groups of `g`'s live ops (live[i] for ops[i]).
std::vector<FusedGroup> find_fused_groups(const TracedGraph& g, const std::vector<bool>& live);

}  // namespace loom
