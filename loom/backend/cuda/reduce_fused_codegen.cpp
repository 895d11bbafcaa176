// The ReductionSpec of a jit-fused reduction (reduce_codegen.h, fused_reduction_spec): the
// built-in spec of the kind, with the prologue graph as the element function and the
// epilogue graph around the post-map, both emitted by graph/cuda_codegen so that they
// compute what the fused elementwise kernels (and eager ops) compute, bit for bit.
#include <string>

#include "loom/backend/cuda/programs.h"
#include "loom/backend/cuda/reduce_codegen.h"
#include "loom/graph/cuda_codegen.h"

namespace loom::cuda {
namespace {

// The raw storage type graph/cuda_codegen uses for a graph input of `dt`.
std::string storage_type(DType dt) { return dt == bool_ ? "unsigned char" : device_type_name(dt); }

// Arguments of a graph function: arrays read from p.in at `index` (0 when uniform),
// scalars from p.s; `value` (>= 0) is passed `value_expr`. Slots are numbered on from na, ns.
std::string graph_args(const FusedGraph& g, const std::vector<bool>& uniform, const std::string& index, int value,
                       const std::string& value_expr, int& na, int& ns) {
  std::string args;
  for (int i = 0; i < static_cast<int>(g.inputs.size()); ++i) {
    if (i) args += ", ";
    const std::string st = storage_type(g.inputs[i].dtype);
    if (i == value) args += value_expr;
    else if (g.inputs[i].kind == FusedGraph::InputKind::param)
      args += "loom_scalar_bits<" + st + ">(p.s[" + std::to_string(ns++) + "])";
    else
      args += "reinterpret_cast<const " + st + "*>(p.in[" + std::to_string(na++) + "])[" +
              (i < static_cast<int>(uniform.size()) && uniform[i] ? std::string("0") : index) + "]";
  }
  return args;
}

}  // namespace

ReductionSpec fused_reduction_spec(ReduceKind kind, DType elem, bool var_mean, const FusedReductionGraphs& f,
                                   const std::string& name) {
  ReductionSpec s = builtin_reduction_spec(kind, elem, var_mean);
  s.name = name;
  s.scans = false;
  int na = 0, ns = 0;
  std::string fns;
  if (f.pre) {
    fns += graph_function_source(*f.pre, "loom_pre");
    s.element_expr = "loom_pre(" + graph_args(*f.pre, f.pre_uniform, "k", -1, "", na, ns) + ")";
  }
  if (f.post) {
    // The result as the unfused reduction stores it, then the epilogue on it. var's first
    // pass has no epilogue but the same params layout.
    const std::string value = "loom_cast<" + s.out_type + ">(" + s.post_expr + ")";
    const std::string args = graph_args(*f.post, f.post_uniform, "j", f.post_value, value, na, ns);
    if (!var_mean) {
      fns += graph_function_source(*f.post, "loom_post");
      s.post_expr = "loom_post(" + args + ")";
      s.out_type = device_type_name(f.post->outputs[0].dtype);
    }
  }
  s.params_type = "loom_fused_params";
  s.preamble = "#include \"loom_math.cuh\"\nstruct loom_fused_params : loom_reduce_params {\n  const char* in[" +
               std::to_string(na > 0 ? na : 1) + "];\n  unsigned long long s[" + std::to_string(ns > 0 ? ns : 1) +
               "];\n};\n" + fns;
  return s;
}

}  // namespace loom::cuda
