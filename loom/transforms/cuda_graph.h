// loom.cuda_graph: one call of a function captured as a CUDA graph and replayed. The
// graph owns a capture stream, the input buffers its kernels read (replay copies new
// arguments into them), the outputs they write (overwritten by each replay, as PyTorch's
// static outputs), and every other buffer the captured ops touched (closure constants),
// so none of that memory is freed or handed to other work while the graph lives. Blocks
// allocated during the capture are keyed by the capture stream in the caching allocator,
// so they stay the graph's too (runtime/cuda/allocator.cpp). See ARCHITECTURE.md §12.
#pragma once
#include <memory>
#include <unordered_set>
#include <vector>

#include "loom/array/array.h"
#include "loom/runtime/stream.h"

namespace loom {

class CudaGraph {
 public:
  /// A graph of GPU `device`, with a non-blocking capture stream of its own.
  explicit CudaGraph(const Device& device);
  ~CudaGraph();
  CudaGraph(const CudaGraph&) = delete;
  CudaGraph& operator=(const CudaGraph&) = delete;

  const Device& device() const { return device_; }
  /// The capture stream: the warm-up call runs on it, so its temporaries are the pool the
  /// capture then reuses.
  const Stream& stream() const { return stream_; }
  /// A new buffer of the graph holding a copy of `example` (same shape and dtype); the
  /// captured function reads it. Before begin_capture.
  Array add_input(const Array& example);
  /// Waits for the device, then captures this thread's ops on device() until end_capture.
  void begin_capture();
  /// Instantiates the capture; `outputs` are the arrays each replay writes.
  void end_capture(const std::vector<Array>& outputs);
  /// Drops a capture that failed; nothing when none is in progress. Never throws.
  void abort_capture() noexcept;
  bool captured() const { return exec_ != nullptr; }
  /// Copies `args` (same shapes, dtypes and device as the inputs) into the inputs and
  /// launches the graph on the current stream of device().
  void replay(const std::vector<Array>& args);
  const std::vector<Array>& inputs() const { return inputs_; }
  const std::vector<Array>& outputs() const { return outputs_; }

 private:
  class KeepHook;
  void keep(const Array& a);

  Device device_;
  Stream stream_;
  void* exec_ = nullptr;
  std::vector<Array> inputs_, outputs_;
  std::vector<std::shared_ptr<Buffer>> kept_;  // buffers the capture used but did not allocate
  std::unordered_set<const Buffer*> kept_set_;
  std::unique_ptr<KeepHook> hook_;
  std::unique_ptr<StreamScope> scope_;
  Stream last_;  // the stream of the last replay: a replay elsewhere waits for it
  bool replayed_ = false;
};

}  // namespace loom
