// CUDA C++ source of a fused graph (graph/fused_graph.h), generated from the op table
// (DESIGN.md §3). An eager op is a graph of one node; loom.jit hands larger graphs to the
// same generator. Pure string work: no GPU and no CUDA calls, so tests run anywhere;
// NVRTC compile and launch live in backend/cuda/elementwise.cpp.
#pragma once
#include <string>

#include "loom/graph/fused_graph.h"

namespace loom::cuda {

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

/// The C type generated code stores dtype `d` in ("unsigned char" for bool, loom_f16 and
/// loom_bf16 for the 16-bit floats, "long long" for int64).
const char* storage_type(DType d);

/// A function `name` computing the graph, declared with `qualifiers`: one parameter per
/// input in its raw storage type; it returns the output's raw storage, or with several
/// outputs writes them through reference parameters (one per output, after the inputs).
/// Needs the helpers of loom_math.cuh, which compile for the device and the host alike.
/// Other generators embed graphs with it: jit's fused reductions
/// (backend/cuda/reduce_codegen.h), jit's fused CPU loops (graph/cpu_codegen.h, with host
/// qualifiers).
std::string graph_function_source(const FusedGraph& g, const std::string& name,
                                  const char* qualifiers = "static __device__ __forceinline__");

}  // namespace loom::cuda
