#include "loom/transforms/cuda_graph.h"

#include <string>
#include <thread>

#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/elementwise.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom {

// Sees the operands of every op this thread dispatches during the capture: those not
// allocated by the capture (arguments, closure constants) are kept alive by the graph,
// whose kernels read and write their memory on every replay.
class CudaGraph::KeepHook : public DispatchHook {
 public:
  explicit KeepHook(CudaGraph* g) : graph_(g), thread_(std::this_thread::get_id()) {}
  void before(const OpEvent& e) override {
    if (std::this_thread::get_id() != thread_) return;
    for (size_t i = 0; i < e.inputs.size(); ++i) graph_->keep(e.inputs[i]);
    for (size_t i = 0; i < e.outputs.size(); ++i) graph_->keep(e.outputs[i]);
  }

 private:
  CudaGraph* graph_;
  std::thread::id thread_;
};

CudaGraph::CudaGraph(const Device& device)
    : device_(device), stream_(Stream::create(device, /*non_blocking=*/true)), last_(stream_) {
  if (!device.is_gpu()) throw_value_error("cuda_graph", "a CUDA graph needs a GPU device, got " + device.str());
}

CudaGraph::~CudaGraph() {
  abort_capture();
  if (gpu_runtime::capturing()) {
    // Dropped while this thread captures another graph (a garbage collection inside the
    // captured function): waiting for its last replay or destroying its stream would break
    // that capture, so the graph and its memory stay allocated for the process's life.
    struct Leftover {
      Stream stream, last;
      std::vector<Array> inputs, outputs;
      std::vector<std::shared_ptr<Buffer>> kept;
    };
    new Leftover{stream_, last_, std::move(inputs_), std::move(outputs_), std::move(kept_)};
    return;
  }
  try {
    // Replays are chained on last_ (a replay on another stream waits for the one before),
    // so once it is idle no kernel of the graph runs.
    if (replayed_) last_.synchronize();
    gpu_runtime::graph_destroy(device_.index, exec_);
  } catch (...) {
    // a lost device: its memory goes with the context
  }
  exec_ = nullptr;
  inputs_.clear();
  outputs_.clear();
  kept_.clear();
  try {
    gpu_runtime::retire_stream(device_.index, stream_.native());
  } catch (...) {
  }
}

void CudaGraph::keep(const Array& a) {
  if (!a.valid()) return;
  const std::shared_ptr<Buffer>& b = a.buffer();
  if (!b || b->alloc_stream() == stream_.native() || b->device() != device_) return;
  if (kept_set_.insert(b.get()).second) kept_.push_back(b);
}

Array CudaGraph::add_input(const Array& example) {
  if (hook_ || exec_) throw_value_error("cuda_graph", "inputs are added before the capture");
  if (example.device() != device_)
    throw DeviceMismatchError("[cuda_graph] an argument is on " + example.device().str() + ", the graph on " +
                              device_.str());
  StreamScope on_graph_stream(stream_);  // the buffer is the graph's (allocator pool of stream_)
  Array in = Array::allocate(example.shape(), example.dtype(), device_);
  copyto(in, example);
  inputs_.push_back(in);
  return in;
}

void CudaGraph::begin_capture() {
  if (hook_ || exec_) throw_value_error("cuda_graph", "this graph was already captured");
  // Nothing earlier may still be running: wait_for_writer cannot order the capture after
  // a stream outside it (runtime/cuda/copy.cpp).
  gpu_runtime::synchronize(device_.index);
  scope_ = std::make_unique<StreamScope>(stream_);
  hook_ = std::make_unique<KeepHook>(this);
  add_dispatch_hook(hook_.get());
  try {
    gpu_runtime::graph_capture_begin(device_.index, stream_.native());
  } catch (...) {
    abort_capture();
    throw;
  }
}

void CudaGraph::end_capture(const std::vector<Array>& outputs) {
  if (!hook_) throw_value_error("cuda_graph", "no capture in progress");
  try {
    for (const Array& o : outputs) {
      if (o.device() != device_)
        throw DeviceMismatchError("[cuda_graph] an output is on " + o.device().str() + ", the graph on " +
                                  device_.str());
      keep(o);
    }
    exec_ = gpu_runtime::graph_capture_end(device_.index, stream_.native());
  } catch (...) {
    abort_capture();
    throw;
  }
  remove_dispatch_hook(hook_.get());
  hook_.reset();
  scope_.reset();
  outputs_ = outputs;
}

void CudaGraph::abort_capture() noexcept {
  if (!hook_) return;
  gpu_runtime::graph_capture_abort(device_.index, stream_.native());
  remove_dispatch_hook(hook_.get());
  hook_.reset();
  scope_.reset();
}

void CudaGraph::replay(const std::vector<Array>& args) {
  if (!exec_) throw_value_error("cuda_graph", "the graph has not been captured");
  if (gpu_runtime::capturing())
    throw GraphCaptureError("[cuda_graph] replaying a graph while another one is being captured is not supported");
  if (args.size() != inputs_.size())
    throw_value_error("cuda_graph", "expected " + std::to_string(inputs_.size()) + " array arguments, got " +
                                        std::to_string(args.size()));
  for (size_t i = 0; i < args.size(); ++i) {
    const Array& a = args[i];
    const Array& in = inputs_[i];
    if (a.shape() != in.shape() || a.dtype() != in.dtype())
      throw_value_error("cuda_graph", "array argument " + std::to_string(i) + " has shape " + shape_str(a.shape()) +
                                          " and dtype " + dtype_name(a.dtype()) + ", the graph was captured with " +
                                          shape_str(in.shape()) + " and " + dtype_name(in.dtype()));
    if (a.device() != device_)
      throw DeviceMismatchError("[cuda_graph] array argument " + std::to_string(i) + " is on " + a.device().str() +
                                ", the graph on " + device_.str());
  }
  const Stream cur = Stream::current(device_);
  for (size_t i = 0; i < args.size(); ++i) {
    const Array& a = args[i];
    const Array& in = inputs_[i];
    if (a.buffer() == in.buffer() && a.data() == in.data()) continue;
    if (!a.is_contiguous()) {
      copyto(in, a);
      continue;
    }
    // A contiguous argument is one cudaMemcpyAsync: a third of a copy kernel's launch cost,
    // which is what a replay is made of besides the graph launch.
    gpu_runtime::wait_for_writer(a);  // both now last used on cur
    gpu_runtime::wait_for_writer(in);
    gpu_runtime::memcpy_async(device_.index, in.data(), a.data(), in.nbytes(), cur.native());
  }
  if (replayed_ && !(last_ == cur)) {  // the graph's temporaries are shared by its replays
    Event done(device_, false);
    done.record(last_);
    done.wait(cur);
  }
  // Outputs and constants may have been read or written on other streams since.
  for (const Array& o : outputs_) gpu_runtime::wait_for_writer(o);
  for (const auto& b : kept_) gpu_runtime::wait_for_writer(gpu_runtime::BufferOf{b.get()});
  gpu_runtime::graph_launch(device_.index, exec_, cur.native());
  last_ = cur;
  replayed_ = true;
}

}  // namespace loom
