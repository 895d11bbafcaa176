// The fused elementwise expression graph: a dataflow graph of op-table ops over inputs
// and scalars, shared by the CUDA code generator (graph/cuda_codegen.h) and the CPU
// evaluator (graph/cpu_eval.h). An eager op is a graph of one node; loom.jit builds
// larger ones and hands them to the same two consumers, so both devices fuse alike.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "loom/core/dtype.h"
#include "loom/graph/op_table.h"

namespace loom {

/// Values are numbered: inputs first (0..), then one value per node. Every value has a
/// dtype: an input's storage dtype, or a node's result dtype (result_dtype(rule, loop)).
/// Nodes cast their arguments to the op's loop dtypes (NumPy's casts: input_loop_dtype),
/// and outputs are cast to their storage dtype. A node reads only values before it.
struct FusedGraph {
  enum class InputKind : uint8_t {
    array,    // an array walked with the output's layout (any strides)
    uniform,  // one element that every output element reads (stride 0 everywhere)
    param,    // a scalar passed by value (weak scalars), already in the input's dtype
  };
  struct Input {
    DType dtype;
    InputKind kind;
  };
  struct Node {
    OpId op;
    DType loop;
    int args[3];
  };
  struct Output {
    int value;
    DType dtype;
  };
  std::vector<Input> inputs;
  std::vector<Node> nodes;
  std::vector<Output> outputs;

  /// The dtype of value `v`.
  DType value_dtype(int v) const;
  int num_values() const { return static_cast<int>(inputs.size() + nodes.size()); }

  // Builders: each returns the new value's number.
  int add_input(DType dtype, InputKind kind = InputKind::array);
  /// A node of `op` at loop dtype `loop` over values `args` (arity of the op).
  int add_node(OpId op, DType loop, std::initializer_list<int> args);
  /// A node at the loop dtype NumPy picks for its arguments' dtypes (their promotion,
  /// then the op's DTypeRule). Throws DTypeError when the op does not allow it.
  int add_op(OpId op, std::initializer_list<int> args);
  void add_output(int value, DType dtype);
  void add_output(int value) { add_output(value, value_dtype(value)); }
};

/// Throws std::invalid_argument (message prefixed by `who`) unless every node reads values
/// computed before it with the op's arity, every loop dtype exists for its op, and every
/// output names a value.
void check_graph(const FusedGraph& g, const char* who);

/// The one-node graph of an eager op: inputs of `in_dtypes`/`kinds`, op at `loop`,
/// one output of `out_dtype`.
FusedGraph single_op_graph(OpId op, DType loop, const std::vector<DType>& in_dtypes,
                           const std::vector<FusedGraph::InputKind>& kinds, DType out_dtype);

/// A hash of everything that decides generated code (structure, dtypes, kinds), for
/// caches of compiled graphs. Equal graphs hash equally.
uint64_t graph_hash(const FusedGraph& g);
bool operator==(const FusedGraph& a, const FusedGraph& b);

}  // namespace loom
