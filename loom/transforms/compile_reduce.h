// Fusion of reductions with elementwise prologues and epilogues for the jit compiler
// (transforms/compile.h, docs/TRANSFORMS.md "Compiling").
//
// A reduction record (primitives::reduce[...], reduce_std) absorbs
//   - its prologue: the fused group (or single elementwise record) that writes its input
//     buffer, when nothing else reads that buffer (no other op, not a result, owned by the
//     plan), the group has no other output, and the element the reduction reads at memory
//     index k is the group's element k: its output is C-contiguous and the reduction's
//     dense view starts where it does; every array the group reads is C-contiguous of that
//     size or has all strides 0 (a broadcast element). Broadcasting along some axes only,
//     strided or transposed operands are left unfused.
//   - its epilogue: the group (or record) that is the only reader of its result buffer,
//     with one output, C-contiguous, of the result's size, reading the result through a
//     contiguous view of all of it and otherwise arrays of that size (contiguous or all
//     strides 0) and scalars.
// The fused op (primitives::fused_reduce) runs at the position of its last absorbed
// record; every op between that it moves past must not write what it reads nor touch the
// buffers it no longer stores.
#pragma once
#include <cstddef>
#include <vector>

#include "loom/ops/reduce_primitives.h"
#include "loom/transforms/compile_fuse.h"
#include "loom/transforms/graph.h"

namespace loom {

struct ReduceFusion {
  size_t reduce = 0;             // the reduction record
  std::vector<size_t> absorbed;  // every record it replaces, the reduction included
  size_t at = 0;                 // the record whose position it runs at (the last absorbed)
  FusedReduceCall call;
};

/// Whether `op` is a reduction record (primitives::reduce[...] or reduce_std).
bool is_reduce_record(const TracedOp& op);

/// The reductions of `g`'s live ops that absorb a prologue and/or an epilogue; the groups
/// they absorb are removed from `groups`.
std::vector<ReduceFusion> find_reduce_fusions(const TracedGraph& g, const std::vector<bool>& live,
                                              std::vector<FusedGroup>& groups);

}  // namespace loom
