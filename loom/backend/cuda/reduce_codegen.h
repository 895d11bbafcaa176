// Reduction kernels generated from a small spec, as CuPy's ReductionKernel: the spec's
// expressions become an Op struct that the templates of kernels/loom_reduce.cuh run
// (full reductions, rows, strided columns, and optionally the scans). Issue 4's
// ReductionKernel reuses reduction_source() with user expressions.
#pragma once
#include <string>
#include <vector>

#include "loom/runtime/cuda/module_cache.h"
#include "loom/backend/reduce_kinds.h"
#include "loom/graph/fused_graph.h"

namespace loom::cuda {

/// A reduction as C++ expressions over device types (see loom_reduce.cuh):
///   map_expr:    the element `x` (its value type: float for float16/bfloat16), its index `i`
///                along the reduction, the output index `j`, the params `p` -> acc_type
///   reduce_expr: `a`, `b` -> acc_type (associative and commutative)
///   identity:    an acc_type expression
///   post_expr:   `a`, `j`, `p` -> a value cast (loom_cast) to out_type
struct ReductionSpec {
  std::string name;  // program name, e.g. "loom_reduce_sum_float"
  std::string in_type, acc_type, out_type;
  std::string map_expr, reduce_expr, identity, post_expr;
  std::string preamble;  // device code placed before the Op (helpers)
  bool scans = false;    // also export the scan kernels (sum and prod)
  std::string params_type = "loom_reduce_params";  // `p`'s type: it or a struct derived from it
  std::string element_expr;  // non-empty: element `k` (memory order) from `p`, an in_t (no input array)
};

/// The NVRTC source of a spec: #include "loom_reduce.cuh", the preamble and `struct loom_op`.
std::string reduction_source(const ReductionSpec& spec);

/// The kernels a spec's program exports (name expressions), in a fixed order.
enum class ReductionKernelId : int {
  block_map_post, block_map, block_post, warp, cols_map_post, cols_map, cols_post,
  scan_rows_map_post, scan_rows_acc, scan_cols,
};
const std::string& reduction_kernel_name(ReductionKernelId id);
std::vector<std::string> reduction_kernel_names(bool scans);

/// The program of a spec (source + name expressions + options).
Program reduction_program(const ReductionSpec& spec);

/// loom's built-in specs: `kind` over input dtype `in`. var_mean is var's first pass
/// (mean per output, written in the accumulator dtype).
ReductionSpec builtin_reduction_spec(ReduceKind kind, DType in, bool var_mean = false);

/// The graphs of a jit-fused reduction (backend/reduce.h, FusedReduceCall) as the
/// generated program sees them: whether each array input is read as one element (all
/// strides 0), and which post input is the reduction's result.
struct FusedReductionGraphs {
  const FusedGraph* pre = nullptr;  // null: the elements are loaded from `in`
  std::vector<bool> pre_uniform;
  const FusedGraph* post = nullptr;
  int post_value = -1;
  std::vector<bool> post_uniform;
};

/// The spec of `kind` over elements of dtype `elem` computed by f.pre (from the params'
/// arrays and scalars), with f.post applied to each result. Params: a struct derived from
/// loom_reduce_params with `const char* in[]` (pre's array inputs, then post's, in input
/// order) and `unsigned long long s[]` (their scalars, the value in the low bytes), each
/// at least one long. var_mean: var's first pass (no post).
ReductionSpec fused_reduction_spec(ReduceKind kind, DType elem, bool var_mean, const FusedReductionGraphs& f,
                                   const std::string& name);

}  // namespace loom::cuda
