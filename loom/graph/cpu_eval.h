// The CPU evaluator of fused graphs (graph/fused_graph.h): fused loops over the graph on
// cpu() arrays, block by block of elements, so no node gets a temporary array. It is what
// loom.jit fuses with on the CPU; eager elementwise ops keep their per-op loops
// (backend/cpu/elementwise.cpp). Both compute through graph/op_scalar.h, so a graph gives
// the same bits as its ops run one by one. A large graph over contiguous operands runs
// instead as a loop compiled for the host CPU once one is ready (graph/cpu_compiled.h).
#pragma once
#include <vector>

#include "loom/array/array.h"
#include "loom/core/scalar.h"
#include "loom/graph/fused_graph.h"

namespace loom {

/// What feeds one graph input: an array (for `array` and `uniform` inputs) or a scalar
/// (for `param` inputs; cast to the input's dtype with NumPy's rules).
struct GraphArg {
  Array array;
  Scalar scalar;
  bool is_scalar = false;
  GraphArg(Array a) : array(std::move(a)) {}
  GraphArg(const Scalar& s) : scalar(s), is_scalar(true) {}
};

/// Evaluates `g` on the CPU: args[i] feeds input i (arrays of the input's dtype,
/// broadcast to the outputs' shape with NumPy's rules, any strides); outs[k] (cpu arrays
/// of output k's dtype, one shape for all, any strides) receive the outputs. An output may
/// be an input array itself (in-place); other overlaps are not allowed. Large sizes are
/// split over the CPU thread pool. Throws std::invalid_argument / DTypeError on misuse.
void eval_graph_cpu(const FusedGraph& g, const std::vector<GraphArg>& args, const std::vector<Array>& outs);

}  // namespace loom
