// ReductionKernel (CuPy's): a reduction from C++ expressions, generated as CUDA source and
// compiled through RawModule (NVRTC, cached in memory and on disk) once per (argument
// dtypes, kernel shape class).
//
//   ReductionKernel l2("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
//   Array n = l2({x}, {.axes = std::vector<int64_t>{1}})[0];
//
// map_expr reads the inputs by name (broadcast together) and gives a value of the reduce
// type (default: the first output's type); reduce_expr combines `a` and `b`; post_map_expr
// reads the result `a` and writes the outputs by name. Deterministic (no atomics): large
// reductions run a first pass of many blocks and a second pass over their partials.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "loom/kernel/param_list.h"
#include "loom/kernel/raw_module.h"

namespace loom {

struct ReductionOptions {
  std::optional<std::string> reduce_type;  // a dtype name or a placeholder; default: first output's
  bool reduce_dims = true;
  std::string preamble;                    // device code placed before the kernels
  std::vector<std::string> options;        // NVRTC options
};

struct ReductionCall {
  std::optional<Array> out;                 // the (single) output, instead of allocating it
  std::optional<std::vector<int64_t>> axes; // nullopt: every axis
  bool keepdims = false;
  const Stream* stream = nullptr;
};

class ReductionKernel {
 public:
  /// `identity`: a C expression of the reduce type, or nullopt (then an empty reduction
  /// raises ValueError). Parameter lists are checked here ("[ReductionKernel name] ...").
  ReductionKernel(const std::string& in_params, const std::string& out_params, std::string map_expr,
                  std::string reduce_expr, std::string post_map_expr, std::optional<std::string> identity,
                  std::string name = "reduce_kernel", ReductionOptions options = {});

  /// Reduces: `args` are the inputs, then optionally every output. Returns the outputs.
  std::vector<Array> operator()(const std::vector<UserArg>& args, const ReductionCall& call = {}) const;

  /// The CUDA source a call with these arguments compiles (no launch, no GPU).
  std::string source(const std::vector<UserArg>& args, const ReductionCall& call = {}) const;
  /// The RawModule such a call uses (compile(90) checks it without a GPU).
  RawModule module(const std::vector<UserArg>& args, const ReductionCall& call = {}) const;

  const std::string& name() const;
  const std::vector<KernelParam>& in_params() const;
  const std::vector<KernelParam>& out_params() const;
  /// The expressions and options as given (CuPy exposes them; generic_filter reuses them).
  const std::string& map_expr() const;
  const std::string& reduce_expr() const;
  const std::string& post_map_expr() const;
  const std::optional<std::string>& identity() const;
  const ReductionOptions& options() const;
  size_t cached_modules() const;

  struct State;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace loom
