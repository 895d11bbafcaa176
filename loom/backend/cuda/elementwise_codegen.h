// CUDA C source for elementwise kernels, generated from the op table (DESIGN.md §3).
// An eager op is a fused graph of one node; loom.jit can hand larger graphs to the
// same generator. Pure string work: no GPU and no CUDA calls, so tests run anywhere.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "loom/core/dtype.h"
#include "loom/graph/op_table.h"

namespace loom::cuda {

/// A dataflow graph of op table records. Values are numbered: inputs first (0..), then
/// one value per node. Every value has a dtype: an input's storage dtype, or a node's
/// result dtype (result_dtype(rule, loop)). Nodes cast their arguments to the op's loop
/// dtypes (NumPy's casts), outputs are cast to their storage dtype.
struct FusedGraph {
  enum class InputKind : uint8_t {
    array,    // a pointer walked with the kernel's layout
    uniform,  // a pointer to one element that every thread reads (stride 0 everywhere)
    param,    // the value itself, passed by value (weak scalars)
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
};

/// How the generated kernel walks memory.
struct KernelConfig {
  bool strided = false;  // false: every array operand is C-contiguous
  int vec = 1;           // contiguous only: elements per aligned vector access
  bool index32 = true;   // 32-bit element indices and byte offsets
  int ndim = 1;          // strided only: collapsed dims (the layout parameter's size)
};

/// Threads per block and vectors per thread per iteration of the contiguous kernels.
constexpr unsigned kElementwiseBlock = 256;
constexpr int kElementwiseUnroll = 4;

/// Source of one extern "C" kernel `name`. Parameters: one per input (a pointer, or the
/// value for `param` inputs), one pointer per output, the element count (unsigned or
/// unsigned long long with index32), and for strided kernels a struct of
/// {shape[ndim], strides[inputs + outputs][ndim]} (int or long long, strides in bytes;
/// non-array inputs' rows are unused).
std::string elementwise_source(const FusedGraph& g, const KernelConfig& cfg, const std::string& name);

/// The one-node graph of an eager op: inputs of `in_dtypes`/`kinds`, op at `loop`,
/// one output of `out_dtype`.
FusedGraph single_op_graph(OpId op, DType loop, const std::vector<DType>& in_dtypes,
                           const std::vector<FusedGraph::InputKind>& kinds, DType out_dtype);

}  // namespace loom::cuda
