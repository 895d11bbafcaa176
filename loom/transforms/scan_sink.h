// The part of a scan's step that only makes ys, moved after the loop. An RNN that records
// `sum(h)` each step runs a reduction per step beside the cell's own kernels; stacking h
// instead (the step writes it straight into its row, and the next step reads its carry
// from there: no copy) and reducing all the rows at once after the loop leaves each step
// the work the carry needs. The mirror of scan_hoist.h, and like it a rewrite of the
// traced body before the scan op is made: jit, grad and vmap see an ordinary scan followed
// by ordinary batched ops. docs/TRANSFORMS.md §7 has the rules.
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "loom/array/array.h"
#include "loom/transforms/graph.h"

namespace loom {

struct ScanProgram;

/// The ops taken out of a step, to run once over the stacked values after the loop.
struct ScanSink {
  /// Inputs: the frontier values (what the step now hands out as extra ys), then the
  /// step's xs, then its captured arrays; outputs: the ys the moved ops made.
  std::shared_ptr<TracedGraph> graph;
  std::vector<size_t> ys;     // which of the original ys each output of `graph` is
  std::vector<size_t> kept;   // which of the original ys the step still makes, in order
};

/// Rewrites program.body without the ops whose values reach no carry (and read none of the
/// step's carry arguments directly): the values those ops read from the rest of the step
/// become extra ys after the kept ones (program.num_ys changes). Returns nothing, and leaves
/// the program as it was, when no op can move or the stacked values would exceed the bound
/// (a few times xs_bytes, what the scan's xs take).
std::unique_ptr<ScanSink> sink_ys_only_ops(ScanProgram& program, size_t xs_bytes);

/// The scan's ys in their original order: the kept ones from `ys` (the loop's results,
/// kept ys first, then the stacked frontier values) and the moved ones computed by `sink`
/// over the stacked frontier values, `xs` (stacked) and `captured`.
std::vector<Array> finish_sunk_ys(const ScanSink& sink, const std::vector<Array>& ys, const std::vector<Array>& xs,
                                  const std::vector<Array>& captured);

}  // namespace loom
