#include "loom/transforms/scan_graph.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>

#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/elementwise.h"
#include "loom/runtime/background_compile.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/runtime/stream.h"
#include "loom/transforms/control_flow_primitives.h"
#include "loom/transforms/cuda_graph.h"

namespace loom {

struct ScanGraphCache {
  std::mutex mutex;  // one thread captures or replays at a time (the outputs are shared)
  int runs = 0;      // eligible runs before the capture
  bool unusable = false;
  std::unique_ptr<CudaGraph> graph;
};

std::shared_ptr<ScanGraphCache> new_scan_graph_cache() { return std::make_shared<ScanGraphCache>(); }

namespace {

// Below this many steps the per-step host cost is small next to a replay's copies.
constexpr int64_t kMinSteps = 8;
// Each run copies its arguments into the graph's inputs and the graph keeps those copies
// for its life: above this the copy and the memory cost more than the launches saved.
constexpr size_t kMaxArgumentBytes = size_t{256} << 20;

bool disabled_by_environment() {
  static const bool off = [] {
    const char* v = std::getenv("LOOM_SCAN_GRAPH");
    return v != nullptr && std::strcmp(v, "0") == 0;
  }();
  return off;
}

// Every compile in the call that needs it while the scan is warmed up and captured: a
// fused kernel still compiling on the worker would leave the graph its unfused kernels
// for good (as loom.cuda_graph's warm-up, ARCHITECTURE.md §12).
struct ForegroundCompiles {
  bool was = background_compile::set_enabled(false);
  ForegroundCompiles() { background_compile::wait_idle(); }
  ~ForegroundCompiles() { background_compile::set_enabled(was); }
  ForegroundCompiles(const ForegroundCompiles&) = delete;
  ForegroundCompiles& operator=(const ForegroundCompiles&) = delete;
};

std::vector<Array> fresh_like(const std::vector<Array>& as) {
  std::vector<Array> out;
  out.reserve(as.size());
  for (const Array& a : as) out.push_back(Array::allocate(a.shape(), a.dtype(), a.device()));
  return out;
}

std::vector<Array> slice(const std::vector<Array>& v, size_t from, size_t n) {
  return std::vector<Array>(v.begin() + static_cast<std::ptrdiff_t>(from),
                            v.begin() + static_cast<std::ptrdiff_t>(from + n));
}

// The graph of one whole run of the scan: inputs (init, xs, captured) are the graph's
// copies of this run's arguments, outputs (carry, ys) arrays of its own. A first run of
// the steps on those, on the graph's stream, loads every kernel, sets up the libraries'
// per-stream state and leaves the temporaries in the graph stream's pool; a second run is
// captured.
std::unique_ptr<CudaGraph> capture(const Device& device, const std::vector<Array>& init, const std::vector<Array>& xs,
                                   const std::vector<Array>& captured, const std::vector<Array>& carry_out,
                                   const std::vector<Array>& ys, const std::shared_ptr<const ScanProgram>& program,
                                   ScanStepsFn* steps) {
  const ForegroundCompiles foreground;
  auto graph = std::make_unique<CudaGraph>(device);
  std::vector<Array> in;
  for (const auto* list : {&init, &xs, &captured})
    for (const Array& a : *list) in.push_back(graph->add_input(a));
  const std::vector<Array> in_init = slice(in, 0, init.size()), in_xs = slice(in, init.size(), xs.size()),
                           in_captured = slice(in, init.size() + xs.size(), captured.size());
  std::vector<Array> out_carry, out_ys;
  {
    const StreamScope on_graph_stream(graph->stream());
    out_carry = fresh_like(carry_out);
    out_ys = fresh_like(ys);
    steps(in_init, in_xs, in_captured, out_carry, out_ys, program);
  }
  graph->begin_capture();
  try {
    steps(in_init, in_xs, in_captured, out_carry, out_ys, program);
  } catch (...) {
    graph->abort_capture();
    throw;
  }
  std::vector<Array> outs = out_carry;
  outs.insert(outs.end(), out_ys.begin(), out_ys.end());
  graph->end_capture(outs);
  return graph;
}

}  // namespace

bool run_scan_as_graph(const std::vector<Array>& init, const std::vector<Array>& xs, const std::vector<Array>& captured,
                       const std::vector<Array>& carry_out, const std::vector<Array>& ys,
                       const std::shared_ptr<const ScanProgram>& program, ScanStepsFn* steps) {
  const ScanProgram& p = *program;
  if (p.length < kMinSteps || disabled_by_environment() || gpu_runtime::capturing() || dispatch_detail::hooks_active())
    return false;
  const Array* first = !init.empty() ? &init[0] : !xs.empty() ? &xs[0] : !captured.empty() ? &captured[0] : nullptr;
  if (first == nullptr || !first->device().is_gpu()) return false;
  const Device device = first->device();
  size_t bytes = 0;
  for (const auto* list : {&init, &xs, &captured})
    for (const Array& a : *list) {
      if (a.device() != device) return false;  // the steps' own dispatch reports the mix
      bytes += a.nbytes();
    }
  for (const auto* list : {&carry_out, &ys})
    for (const Array& a : *list)
      if (a.device() != device) return false;
  if (bytes > kMaxArgumentBytes) return false;

  ScanGraphCache& cache = *p.graph_cache;
  std::unique_lock<std::mutex> lock(cache.mutex, std::try_to_lock);
  if (!lock.owns_lock() || cache.unusable) return false;
  if (!cache.graph) {
    // The first run goes step by step: a scan run once (an eager lax.scan traces a new
    // program each call) never pays for a capture.
    if (++cache.runs < 2) return false;
    try {
      cache.graph = capture(device, init, xs, captured, carry_out, ys, program, steps);
    } catch (const Interrupted&) {
      throw;  // Ctrl-C: not a reason to run the steps again
    } catch (const std::exception&) {
      // A body that cannot be captured (a host read of GPU data: a while_loop or switch
      // inside it) or memory the capture could not get: the steps run one by one, as
      // before, and report any error that is the body's own.
      cache.unusable = true;
      return false;
    }
  }
  if (cache.graph->device() != device) return false;
  std::vector<Array> args = init;
  args.insert(args.end(), xs.begin(), xs.end());
  args.insert(args.end(), captured.begin(), captured.end());
  cache.graph->replay(args);
  // Copied out under the lock: the next replay overwrites the graph's outputs.
  const std::vector<Array>& outs = cache.graph->outputs();
  for (size_t i = 0; i < carry_out.size(); ++i) copyto(carry_out[i], outs[i]);
  for (size_t j = 0; j < ys.size(); ++j) copyto(ys[j], outs[carry_out.size() + j]);
  return true;
}

}  // namespace loom
