// The control-flow family's primitives (loom::lax, transforms/control_flow.h): records whose
// eval runs traced functions, so a loop stays one op of a trace: jit compiles the function
// around it, vmap batches it and grad reads its rule like any other record's. Defined with
// their rules in transforms/control_flow_primitives.cpp (dispatch/primitive.h,
// ops/primitive_list.h). They sit in transforms/, above ops/, because their evals replay and
// compile graphs; for the same reason one eval serves every device (it dispatches the body's
// records, which pick their backends), so the row names it as both cpu and gpu eval; scan's
// gpu eval first tries the scan's CUDA graph (transforms/scan_graph.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "loom/ops/primitive_list.h"
#include "loom/transforms/compile.h"
#include "loom/transforms/graph.h"
#include "loom/transforms/scan_graph.h"

namespace loom {

/// What a while_loop record runs: `cond` and `body` traced on one carry, each closed over
/// the arrays it read from an enclosing trace. Both graphs take (carry..., captured...):
/// the carry's arrays, then each captured buffer whole, as uint8 bytes (its abstract
/// buffer becomes a graph input, so the loop op's operands name everything it reads).
/// `cond` returns one bool scalar, `body` the next carry (the carry's shapes and dtypes).
struct LoopProgram {
  TracedGraph cond, body;
  size_t num_carry = 0;
  /// Whether a graph writes its carry arguments in place: the eval then gives them copies, so
  /// the loop never changes the arrays it started from.
  bool writes_carry = false;

  /// The two graphs compiled (transforms/compile.h) at the first run, once.
  const CompiledPlan& cond_plan() const;
  const CompiledPlan& body_plan() const;

 private:
  void compile() const;
  mutable std::once_flag compiled_;
  mutable std::unique_ptr<CompiledPlan> cond_plan_, body_plan_;
};
using LoopProgramPtr = std::shared_ptr<const LoopProgram>;
/// A record holds its program as it is: the graphs' abstract buffers are the program's own
/// (the operands carry what a run binds), so rebinding leaves it untouched.
inline void rebind_arg(LoopProgramPtr&, const BufferMap&) {}

/// out (the final carry, one array per carry element) = the carry, starting from `init`,
/// replaced by program.body while program.cond holds; `captured` are the buffers the two
/// functions read from outside (LoopProgram).
using WhileLoopFn = void(const std::vector<Array>& init, const std::vector<Array>& captured,
                         const std::vector<Array>& out, const LoopProgramPtr& program);

/// What a while_loop_transpose record runs (reverse mode of a while_loop): the loop's own
/// program, and `back` traced on (carry..., captured..., carry cotangent..., back captured...)
/// returning the cotangents of the carry the body started from and of the captured arrays
/// (the body's pullback at that carry, the captured cotangents zero where a buffer is not
/// differentiable).
struct LoopTransposeProgram {
  LoopProgramPtr loop;
  TracedGraph back;
  size_t num_captured = 0;
  /// Whether `back` writes one of its arguments in place: the eval then gives it copies.
  bool back_writes_inputs = false;
  /// `back` compiled at the first run, once.
  const CompiledPlan& back_plan() const;

 private:
  mutable std::once_flag compiled_;
  mutable std::unique_ptr<CompiledPlan> back_plan_;
};
using LoopTransposeProgramPtr = std::shared_ptr<const LoopTransposeProgram>;
inline void rebind_arg(LoopTransposeProgramPtr&, const BufferMap&) {}

/// ct_init and ct_captured: the cotangents of a while_loop's init and captured arrays for the
/// cotangents `cts` of its final carry. The eval runs the loop again from `init`, keeping the
/// carry each iteration starts from (the trip count is known only then, at run time), and
/// then runs program.back over those carries from the last to the first.
using WhileLoopTransposeFn = void(const std::vector<Array>& init, const std::vector<Array>& captured,
                                  const std::vector<Array>& cts, const std::vector<Array>& back_captured,
                                  const std::vector<Array>& ct_init, const std::vector<Array>& ct_captured,
                                  const LoopTransposeProgramPtr& program);

/// What a scan record runs: `body` traced on (carry..., x...), returning (carry..., y...),
/// with the captured buffers appended to its inputs as for a loop (LoopProgram). The trip
/// count is fixed when the scan is made, so reverse mode can run the steps backwards.
struct ScanProgram {
  TracedGraph body;
  size_t num_carry = 0, num_xs = 0, num_ys = 0;
  int64_t length = 0;
  bool reverse = false;
  /// Whether the body writes a carry or x argument in place: the eval then gives it copies.
  bool writes_inputs = false;

  /// The body compiled (transforms/compile.h) at the first run, once.
  const CompiledPlan& body_plan() const;
  /// The whole scan as a CUDA graph once it has run twice on a GPU (transforms/scan_graph.h).
  const std::shared_ptr<ScanGraphCache> graph_cache = new_scan_graph_cache();

 private:
  mutable std::once_flag compiled_;
  mutable std::unique_ptr<CompiledPlan> body_plan_;
};
using ScanProgramPtr = std::shared_ptr<const ScanProgram>;
inline void rebind_arg(ScanProgramPtr&, const BufferMap&) {}

/// carry_out (one array per carry element) and ys (each of shape (length, *y.shape)) from
/// `length` steps of program.body over the leading axis of each of `xs` (C-contiguous),
/// from the last step back to the first when program.reverse; y of step t is ys[t].
using ScanLoopFn = void(const std::vector<Array>& init, const std::vector<Array>& xs, const std::vector<Array>& captured,
                    const std::vector<Array>& carry_out, const std::vector<Array>& ys, const ScanProgramPtr& program);

/// What a switch record runs: one traced graph per branch, each on (operand..., captured...)
/// (the captures of every branch, in one list, appended to each), returning arrays of the
/// same specs in every branch.
struct SwitchProgram {
  std::vector<TracedGraph> branches;
  size_t num_operands = 0;
  /// Branch k compiled at its first run, once.
  const CompiledPlan& plan(size_t k) const;

  explicit SwitchProgram(size_t n) : branches(n), plans_(n), once_(n) {}

 private:
  mutable std::vector<std::unique_ptr<CompiledPlan>> plans_;
  mutable std::vector<std::once_flag> once_;
};
using SwitchProgramPtr = std::shared_ptr<const SwitchProgram>;
inline void rebind_arg(SwitchProgramPtr&, const BufferMap&) {}

/// out = program.branches[clamp(index)] on (operands, captured); index is an int32 scalar,
/// read on the host.
using SwitchFn = void(const Array& index, const std::vector<Array>& operands, const std::vector<Array>& captured,
                      const std::vector<Array>& out, const SwitchProgramPtr& program);

/// What a checkpoint record runs: `fn` traced on (operand..., captured...), compiled once.
struct RematProgram {
  TracedGraph fn;
  const CompiledPlan& plan() const;

 private:
  mutable std::once_flag compiled_;
  mutable std::unique_ptr<CompiledPlan> plan_;
};
using RematProgramPtr = std::shared_ptr<const RematProgram>;
inline void rebind_arg(RematProgramPtr&, const BufferMap&) {}

/// out = program.fn(operands, captured). grad keeps only the record's operands and results:
/// its rule runs fn again under vjp, so fn's intermediates are recomputed, never stored.
using RematFn = void(const std::vector<Array>& operands, const std::vector<Array>& captured,
                     const std::vector<Array>& out, const RematProgramPtr& program);

/// What a custom_vjp record runs: `fwd` traced on (arg..., captured...), returning the
/// function's outputs then its residuals; `bwd`, the user's rule, maps (residual..., output
/// cotangent...) to one cotangent per arg. bwd runs when the backward pass reaches the record.
struct CustomVjpProgram {
  TracedGraph fwd;
  ArrayFn bwd;
  size_t num_args = 0, num_out = 0;
  const CompiledPlan& plan() const;

 private:
  mutable std::once_flag compiled_;
  mutable std::unique_ptr<CompiledPlan> plan_;
};
using CustomVjpProgramPtr = std::shared_ptr<const CustomVjpProgram>;
inline void rebind_arg(CustomVjpProgramPtr&, const BufferMap&) {}

/// out (the outputs, then the residuals) = program.fwd(args, captured).
using CustomVjpFn = void(const std::vector<Array>& args, const std::vector<Array>& captured,
                         const std::vector<Array>& out, const CustomVjpProgramPtr& program);

/// What a custom_jvp record runs: `fn` traced on (arg..., captured...); `jvp`, the user's
/// rule, maps (primal arg..., tangent arg...) to one tangent per output of fn, linearly in the
/// tangents. Reverse mode transposes that linear map (a vjp of jvp in the tangents).
struct CustomJvpProgram {
  TracedGraph fn;
  ArrayFn jvp;
  size_t num_args = 0;
  const CompiledPlan& plan() const;

 private:
  mutable std::once_flag compiled_;
  mutable std::unique_ptr<CompiledPlan> plan_;
};
using CustomJvpProgramPtr = std::shared_ptr<const CustomJvpProgram>;
inline void rebind_arg(CustomJvpProgramPtr&, const BufferMap&) {}

/// out = program.fn(args, captured).
using CustomJvpFn = void(const std::vector<Array>& args, const std::vector<Array>& captured,
                         const std::vector<Array>& out, const CustomJvpProgramPtr& program);

#define LOOM_CONTROL_FLOW_PRIMITIVES(X)           \
  X(WhileLoopFn, while_loop, )                    \
  X(WhileLoopTransposeFn, while_loop_transpose, ) \
  X(ScanLoopFn, scan_loop, )                      \
  X(SwitchFn, switch_branches, )                  \
  X(RematFn, remat, )                             \
  X(CustomVjpFn, custom_vjp_call, )               \
  X(CustomJvpFn, custom_jvp_call, )

namespace primitives {
LOOM_CONTROL_FLOW_PRIMITIVES(LOOM_DECLARE_PRIMITIVE)
}  // namespace primitives

/// The cotangents of a while_loop record's init and captured arrays (in that order) for the
/// cotangents `cts` of its final carry, as one while_loop_transpose record (traced in
/// transforms/control_flow.cpp; its eval and rules are in loop_transpose.cpp). Real values
/// only: the while_loop's vjp rule is registered for reals, so no conjugation is involved.
std::vector<Array> while_loop_transpose(const LoopProgramPtr& loop, const std::vector<Array>& init,
                                        const std::vector<Array>& captured, const std::vector<Array>& cts);

namespace control_flow_vjp {
/// while_loop's vjp rule (transforms/loop_transpose.cpp).
void while_loop_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts);
}  // namespace control_flow_vjp

/// The records of transforms/ (ops/primitive_list.h lists those of ops/).
std::vector<const PrimitiveInfo*> control_flow_primitives();

}  // namespace loom
