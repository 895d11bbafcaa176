// A scan on a GPU replayed as one CUDA graph. Run step by step, each of a scan's steps costs
// the host a plan run and a launch per kernel (tens of microseconds), several times what
// the small kernels of an RNN cell take on the GPU. So the second time a scan program runs
// on a GPU it is captured once, all its steps (transforms/cuda_graph.h), and from then on
// each run copies its arguments into the graph's inputs, launches the graph and copies the
// results out: the host's cost no longer grows with the step count. JAX's scan is one XLA
// while loop for the same reason. docs/TRANSFORMS.md §7 has the conditions and the costs.
#pragma once
#include <memory>
#include <vector>

#include "loom/array/array.h"

namespace loom {

struct ScanProgram;

/// What a scan program keeps of its graph: made with the program, empty until captured.
struct ScanGraphCache;
std::shared_ptr<ScanGraphCache> new_scan_graph_cache();

/// The steps run one by one (the scan's ordinary eval), into carry_out and ys.
using ScanStepsFn = void(const std::vector<Array>& init, const std::vector<Array>& xs,
                         const std::vector<Array>& captured, const std::vector<Array>& carry_out,
                         const std::vector<Array>& ys, const std::shared_ptr<const ScanProgram>& program);

/// Runs the scan through its program's CUDA graph, capturing it (with `steps`) at the
/// program's second run on a GPU; returns false without doing anything when the caller
/// should run the steps itself: on cpu(), for a short scan, for large arguments (each run
/// copies them), while a profiler or other dispatch hook watches the ops, inside another
/// capture, while another thread replays the same graph, with $LOOM_SCAN_GRAPH=0, or
/// after a capture failed (a body that reads GPU data on the host cannot be captured).
bool run_scan_as_graph(const std::vector<Array>& init, const std::vector<Array>& xs, const std::vector<Array>& captured,
                       const std::vector<Array>& carry_out, const std::vector<Array>& ys,
                       const std::shared_ptr<const ScanProgram>& program, ScanStepsFn* steps);

}  // namespace loom
