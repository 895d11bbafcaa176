// ElementwiseKernel (CuPy's): a kernel from a typed parameter list and a C++ operation on
// one element, generated as CUDA source and compiled through RawModule (NVRTC, cached in
// memory and on disk) once per (argument dtypes, kinds, layout class).
//
//   ElementwiseKernel k("T x, T y", "T z", "z = x * y + 1", "fma1");
//   std::vector<Array> out = k({x, y});          // z allocated: broadcast(x, y), dtype T
//
// In the operation, non-raw inputs are `const T x` (the element at i's broadcast position),
// non-raw outputs `T& z`, `i` is the flat index and `_ind.size()` the element count; raw
// parameters are indexed by a flat C-order index (`x[i]`, strides honoured) and have
// `.size()`. float16/bfloat16 elements read as float and convert back on assignment.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "loom/kernel/param_list.h"
#include "loom/kernel/raw_module.h"

namespace loom {

struct ElementwiseOptions {
  bool reduce_dims = true;   // collapse dims that can be walked as one (CuPy's reduce_dims)
  bool no_return = false;    // Python: the call returns None
  bool return_tuple = false; // Python: a tuple even for one output
  std::string preamble;      // device code placed before the kernel (after the typedefs)
  std::vector<std::string> options;  // NVRTC options
};

/// How one call of an ElementwiseKernel runs (not backend/elementwise.h's ElementwiseCall).
struct ElementwiseKernelCall {
  std::optional<int64_t> size;  // the element count when every array argument is raw
  unsigned block = 0;           // threads per block; 0: 256
  bool auto_block = false;      // block="auto": autotuned (loom/kernel/autotune.h)
  const Stream* stream = nullptr;
};

class ElementwiseKernel {
 public:
  /// Parses and checks the parameter lists (ValueError / TypeError, "[ElementwiseKernel name] ...").
  ElementwiseKernel(const std::string& in_params, const std::string& out_params, std::string operation,
                    std::string name = "kernel", ElementwiseOptions options = {});

  /// Runs the kernel: `args` are the inputs, then optionally every output. Returns the
  /// outputs (allocated when not given). Asynchronous on the GPU.
  std::vector<Array> operator()(const std::vector<UserArg>& args, const ElementwiseKernelCall& call = {}) const;

  /// The CUDA source a call with these arguments compiles (no launch, no GPU).
  std::string source(const std::vector<UserArg>& args, std::optional<int64_t> size = std::nullopt) const;
  /// The RawModule a call with these arguments uses (compile(90) checks it without a GPU).
  RawModule module(const std::vector<UserArg>& args, std::optional<int64_t> size = std::nullopt) const;

  const std::string& name() const;
  const std::vector<KernelParam>& in_params() const;
  const std::vector<KernelParam>& out_params() const;
  const std::string& operation() const;
  const ElementwiseOptions& options() const;
  /// Number of distinct modules generated so far (one per dtype/layout class).
  size_t cached_modules() const;

  struct State;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace loom
