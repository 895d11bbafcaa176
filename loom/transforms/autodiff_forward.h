// The forward pass of reverse-mode differentiation (transforms/autodiff.h): a traced
// graph run on real arguments, keeping what the backward pass needs, namely the value
// every record saw. A record that writes into a region an earlier record (or the caller)
// touched would destroy values a derivative rule reads later, so such a buffer is given a
// new version first (a copy, written by that record and read by later ones); each record's
// views are rebound to the versions current when it ran.
#pragma once
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "loom/transforms/graph.h"

namespace loom::autodiff {

class ForwardPass {
 public:
  /// Runs `g` on `args` (checked against its specs), which the pass keeps alive.
  ForwardPass(std::shared_ptr<const TracedGraph> g, const std::vector<Array>& args);

  const TracedGraph& graph() const { return *g_; }
  /// The function's results.
  const std::vector<Array>& results() const { return results_; }
  /// Record `k` with its inputs and outputs rebound to the values they had when it ran.
  TracedOp bound(size_t k) const;
  /// Whether record `k`'s output `i` overwrote a region that something before it touched:
  /// the cotangent of that region before record k is then zero.
  bool overwrites(size_t k, size_t i) const { return overwrites_[k][i]; }
  /// Whether cotangents flow through `b`: an input's buffer or one a record writes (not a
  /// constant the function captured).
  bool differentiable(const Buffer* b) const { return versions_.count(b) != 0; }

 private:
  struct Version {
    int64_t from;  // the record that writes it first (-1: before the first record)
    BufferBinding binding;
  };
  // The binding of `a`'s buffer seen by record k's inputs (output false) or outputs.
  Array bind(const Array& a, int64_t k, bool output) const;

  std::shared_ptr<const TracedGraph> g_;
  std::unordered_map<const Buffer*, std::vector<Version>> versions_;
  std::vector<std::vector<bool>> overwrites_;
  std::vector<Array> results_;
};

}  // namespace loom::autodiff
