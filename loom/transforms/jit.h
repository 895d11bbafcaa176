// loom::jit (docs/TRANSFORMS.md): a function of arrays traced once per input signature
// (shapes, dtypes, devices, and a key for whatever else the caller keys on), compiled and
// cached; later calls with that signature run the compiled plan.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "loom/transforms/graph.h"

namespace loom {

class CompiledPlan;  // transforms/compile.h (internal: it names backend types)

class Jitted {
 public:
  explicit Jitted(ArrayFn f);
  /// Runs the plan of these arguments' signature, tracing and compiling it first when new.
  /// `static_key` tells apart traces that differ in something other than the arrays (the
  /// Python layer's static arguments and pytree structure). Under an enclosing trace (jit
  /// inside grad, vmap or jit) the traced ops are replayed into it instead.
  /// `plan`, when given, receives the index of the plan that ran (plans are numbered in
  /// the order they were traced), so a caller can keep something per plan (the Python
  /// layer keeps the result's pytree structure).
  std::vector<Array> operator()(const std::vector<Array>& args, uint64_t static_key = 0,
                                size_t* plan = nullptr) const;
  /// How many signatures have been traced.
  size_t num_traces() const;
  /// The traced graph of plan `i` (for inspection and tests).
  const TracedGraph& graph(size_t i) const;
  /// The compiled plan of signature `i` (fusion groups, dead ops, slots: for tests).
  const CompiledPlan& plan(size_t i) const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

/// Traces `f` once per input signature and caches the compiled plans.
Jitted jit(ArrayFn f);

}  // namespace loom
