// Compiling a traced function (transforms/graph.h) into a plan that loom::jit runs on
// every later call (docs/TRANSFORMS.md, "Compiling"):
//   1. dead code elimination: ops that no result depends on are dropped, unless they write
//      memory the plan does not own (an argument, an array captured from outside);
//   2. fusion: groups of elementwise records over one output shape, whose intermediates are
//      read only inside the group, become one FusedGraph run as one dispatched op
//      (primitives::fused); intermediates are never stored;
//   2b. reductions absorb the elementwise group (or op) that produces their input and the
//      one that consumes their result (transforms/compile_reduce.h), run as one op
//      (primitives::fused_reduce); neither intermediate is stored;
//   3. buffer slots: each buffer an op touches is a numbered slot, bound once per call
//      (an argument, a fresh copy of a written constant, or a fresh allocation at its first
//      use) and released after its last use, so the stream-ordered caching allocator hands
//      the memory to later intermediates of the same call.
// run() binds the slots and dispatches each step: elementwise and fused steps rebind their
// arrays by precomputed slot numbers (no map lookups); other ops go through their
// TracedOp::run with a small BufferMap.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "loom/ops/elementwise_primitives.h"
#include "loom/ops/reduce_primitives.h"
#include "loom/transforms/graph.h"

namespace loom {

class CompiledPlan {
 public:
  /// Compiles `g`, which must outlive the plan (the plan points into its records).
  explicit CompiledPlan(const TracedGraph& g);
  /// Runs the plan on `args` (checked against the graph's specs by the caller). With
  /// `into`, result i is written straight into into[i] when that is a valid array of its
  /// shape and dtype, C-contiguous, and the result is a whole buffer of the plan's own (no
  /// copy afterwards: a scan writes each step's ys into their rows this way); the returned
  /// array is then a view of into[i], as is every other result of the same buffer (a scan's
  /// carry that is also a y is read from the y's row). Other results are fresh, as without
  /// `into`. An into[i] must not overlap the arguments (the plan would write what it still reads).
  std::vector<Array> run(const std::vector<Array>& args, const std::vector<Array>* into = nullptr) const;

  /// What compiling did, for tests and inspection.
  struct Stats {
    size_t traced_ops = 0;  // records in the traced graph
    size_t dead_ops = 0;    // dropped by dead code elimination
    size_t groups = 0;      // fused groups (of two or more elementwise records)
    size_t fused_ops = 0;   // elementwise records inside those groups
    size_t reduce_fusions = 0;  // reductions fused with a prologue and/or an epilogue
    size_t reduce_fused_ops = 0;  // records those replace, the reductions included
    size_t steps = 0;       // ops dispatched per run
    size_t slots = 0;       // buffers bound per run
  };
  const Stats& stats() const { return stats_; }
  /// The fused graph of each group, in plan order.
  std::vector<std::shared_ptr<const FusedGraph>> fused_graphs() const;

  struct Step;

 private:
  const TracedGraph* g_;
  std::vector<Step> steps_;
  std::vector<int> input_slot_;     // per graph input
  std::vector<int> constant_slot_;  // per written constant
  struct SlotInfo {
    const Buffer* abstract;  // the buffer it stands for
    size_t nbytes;
    Device device;
  };
  std::vector<SlotInfo> slots_;
  std::vector<int> output_slot_;  // per graph output: its slot, or -1 (a constant or captured array)
  std::vector<int> output_alloc_;  // slots that only outputs use (allocated, never written)
  std::vector<bool> output_whole_;  // per graph output: a whole slot of the plan's, no other result's
  bool has_generic_ = false;       // a step runs through TracedOp::run (needs a BufferMap)
  Stats stats_;
};

/// One dispatched op of a plan.
struct CompiledPlan::Step {
  enum class Kind { generic, elementwise, fused, fused_reduce } kind = Kind::generic;
  const TracedOp* op = nullptr;   // generic and elementwise
  ElementwiseCall ew;             // elementwise: the recorded call
  FusedCall fused;                // fused: its graph and abstract arrays
  FusedReduceCall reduce;         // fused_reduce: its graphs, reduction and abstract arrays
  std::string profile_name;       // fused, fused_reduce: the profiler's name, "fused[multiply,add]"
  Device device;
  std::vector<int> slots;         // per array of the call (ew: in[0..nin), out; fused: in, out;
                                  // fused_reduce: in, post_in, out), -1 = as is
  std::vector<int> alloc_before;  // slots first used here: allocated before dispatch
  std::vector<int> free_after;    // slots last used here: released after dispatch
};

}  // namespace loom
