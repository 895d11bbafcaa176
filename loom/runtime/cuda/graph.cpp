// CUDA graphs for loom.cuda_graph (transforms/cuda_graph.h): stream capture in thread-local
// mode, instantiation, launch. While this thread captures, context.h's capture_stream()
// names the stream, and the calls that would invalidate the capture (host reads, waits,
// module loads) raise GraphCaptureError first (check_not_capturing).
#include <cuda_runtime_api.h>

#include "loom/core/error.h"
#include "loom/runtime/cuda/check.h"
#include "loom/runtime/cuda/context.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom::gpu_runtime {

void graph_capture_begin(int device, void* stream) {
  if (cuda::capture_stream())
    throw GraphCaptureError("[cuda_graph] this thread is already capturing a CUDA graph; graphs do not nest");
  if (!stream) throw_value_error("cuda_graph", "cannot capture on the default stream");
  cuda::activate(device);
  unretire_stream(device, stream);
  // Thread-local mode: calls of other threads (their own streams) do not break the capture.
  LOOM_CUDA_CHECK(cudaStreamBeginCapture(static_cast<cudaStream_t>(stream), cudaStreamCaptureModeThreadLocal));
  cuda::set_capture_stream(stream);
}

namespace {

// Ends the capture of `stream`, returning the graph (null when CUDA invalidated it).
cudaGraph_t end_capture(void* stream, cudaError_t* err) {
  cuda::set_capture_stream(nullptr);
  cudaGraph_t graph = nullptr;
  *err = cudaStreamEndCapture(static_cast<cudaStream_t>(stream), &graph);
  return graph;
}

}  // namespace

void* graph_capture_end(int device, void* stream) {
  cuda::activate(device);
  cudaError_t err = cudaSuccess;
  cudaGraph_t graph = end_capture(stream, &err);
  if (err == cudaErrorStreamCaptureInvalidated || err == cudaErrorStreamCaptureUnsupported) {
    cudaGetLastError();
    if (graph) cudaGraphDestroy(graph);
    throw GraphCaptureError(std::string("[cuda_graph] CUDA refused the capture (") + cudaGetErrorName(err) +
                            "): a library call inside the function did something a graph cannot record "
                            "(an allocation or a wait outside loom's allocator)");
  }
  if (err != cudaSuccess) cuda::raise_runtime_error(err, "cudaStreamEndCapture(stream, &graph)");
  cudaGraphExec_t exec = nullptr;
  const cudaError_t inst = cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphDestroy(graph);  // the executable graph is independent of it
  if (inst != cudaSuccess) cuda::raise_runtime_error(inst, "cudaGraphInstantiate(&exec, graph, 0)");
  return exec;
}

void graph_capture_abort(int device, void* stream) noexcept {
  if (cuda::capture_stream() != stream) return;
  cudaError_t err = cudaSuccess;
  try {
    cuda::activate(device);
  } catch (...) {
  }
  cudaGraph_t graph = end_capture(stream, &err);
  if (graph) cudaGraphDestroy(graph);
  cudaGetLastError();  // an invalidated capture's error is not sticky
}

void graph_launch(int device, void* exec, void* stream) {
  cuda::check_not_capturing("cuda_graph", "replaying a CUDA graph");
  cuda::activate(device);
  LOOM_CUDA_CHECK(cudaGraphLaunch(static_cast<cudaGraphExec_t>(exec), static_cast<cudaStream_t>(stream)));
}

void graph_destroy(int device, void* exec) {
  if (!exec || cuda::device_lost(device)) return;
  cuda::activate(device);
  LOOM_CUDA_CHECK(cudaGraphExecDestroy(static_cast<cudaGraphExec_t>(exec)));
}

bool capturing() { return cuda::capture_stream() != nullptr; }

}  // namespace loom::gpu_runtime
