// gpu_runtime:: entry points for devices, memory, streams and events (runtime/gpu_runtime.h).
#include <cuda_runtime_api.h>
#include <nvrtc.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "loom/runtime/cuda/check.h"
#include "loom/runtime/cuda/driver_api.h"
#include "loom/runtime/cuda/context.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/core/interrupt.h"

namespace loom::gpu_runtime {
namespace {

std::string version_string(int v) {  // 13000 -> "13.0", 12080 -> "12.8"
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

cudaStream_t native(void* s) { return static_cast<cudaStream_t>(s); }
cudaEvent_t native_event(void* e) { return static_cast<cudaEvent_t>(e); }

// cudaStreamQuery / cudaEventQuery: done, not yet (cudaErrorNotReady), or a failure.
bool finished(cudaError_t err, const char* call) {
  if (err == cudaErrorNotReady) {
    cudaGetLastError();
    return false;
  }
  if (err != cudaSuccess) cuda::raise_runtime_error(err, call);
  return true;
}

// Waits until `done()`, as cudaStreamSynchronize would, but polling so that Ctrl-C
// (interrupt.h) ends the wait with Interrupted. Like CUDA's default schedule on a host with
// more cores than GPUs, it spins (yielding) for the first 10 ms, so a wait's latency stays
// that of cudaStreamSynchronize; longer waits poll every 50 us, where the overshoot is under
// 1%. The GPU goes on running the work already queued: a running kernel cannot be stopped,
// only the process ended.
template <class Done>
void wait_interruptibly(const char* op, Done done) {
  if (done()) return;  // no handler switch for a wait that is already over
  InterruptScope interrupts;
  const auto spin_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(10);
  while (!done()) {
    throw_if_wait_failed();
    if (interrupts.interrupted())
      throw_interrupted(op, "; the GPU goes on running the kernels already queued (a running kernel cannot be "
                            "stopped; ending the process ends it)");
    if (std::chrono::steady_clock::now() < spin_until) std::this_thread::yield();
    else std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

}  // namespace

// ---- build and devices ----------------------------------------------------------
bool compiled() { return true; }

int device_count() { return cuda::device_count(); }

DeviceProperties properties(int index) {
  cuda::activate(index);
  cudaDeviceProp prop{};
  LOOM_CUDA_CHECK(cudaGetDeviceProperties(&prop, index));
  size_t free_bytes = 0, total = 0;
  LOOM_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  DeviceProperties p;
  p.name = prop.name;
  p.total_memory = prop.totalGlobalMem;
  p.free_memory = free_bytes;
  p.compute_capability_major = prop.major;
  p.compute_capability_minor = prop.minor;
  p.multiprocessor_count = prop.multiProcessorCount;
  return p;
}

std::string driver_version() {
  const cuda::DriverApi* api = cuda::driver_api();
  int v = 0;
  if (!api || api->cuDriverGetVersion(&v) != CUDA_SUCCESS || v == 0) return "";
  return version_string(v);
}

std::string runtime_version() {
  int v = 0;
  if (cudaRuntimeGetVersion(&v) != cudaSuccess) {
    cudaGetLastError();
    return "";
  }
  return version_string(v);
}

std::string nvrtc_version() {
  int major = 0, minor = 0;
  if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return "";
  return std::to_string(major) + "." + std::to_string(minor);
}

int device_attribute(int index, int attribute) {
  cuda::activate(index);
  int v = 0;
  const cudaError_t e = cudaDeviceGetAttribute(&v, static_cast<cudaDeviceAttr>(attribute), index);
  if (e == cudaErrorInvalidValue) {
    cudaGetLastError();
    throw std::invalid_argument("[device_attribute] CUDA has no device attribute numbered " + std::to_string(attribute));
  }
  LOOM_CUDA_CHECK(e);
  return v;
}

void synchronize(int index) {
  cuda::check_not_capturing("synchronize", "waiting for the GPU");
  cuda::activate(index);
  // An event on the legacy default stream completes after the earlier work of every
  // blocking stream (loom's, but for non_blocking ones): wait for it interruptibly; what is
  // left (non-blocking streams, loom's copy streams or other libraries') is then waited for
  // as before.
  cudaEvent_t ev = nullptr;
  LOOM_CUDA_CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
  struct Destroy {
    cudaEvent_t e;
    ~Destroy() { cudaEventDestroy(e); }
  } destroy{ev};
  LOOM_CUDA_CHECK(cudaEventRecord(ev, cudaStreamLegacy));
  wait_interruptibly("synchronize", [&] { return finished(cudaEventQuery(ev), "cudaEventQuery(event)"); });
  LOOM_CUDA_CHECK(cudaDeviceSynchronize());
}

// ---- memory (the caching allocator is allocator.cpp) -----------------------------
int pointer_device(const void* ptr) {
  if (!ptr || cuda::device_count() == 0) return -1;
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, ptr) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  if (attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged) return attr.device;
  return -1;
}

// ---- streams and events ---------------------------------------------------------
void* stream_create(int device, bool non_blocking) {
  cuda::activate(device);
  cudaStream_t s = nullptr;
  LOOM_CUDA_CHECK(cudaStreamCreateWithFlags(&s, non_blocking ? cudaStreamNonBlocking : cudaStreamDefault));
  cuda::note_stream_created(s);
  return s;
}

void stream_destroy(int device, void* stream) {
  if (!stream || cuda::device_lost(device)) return;  // called from destructors
  cuda::activate(device);
  // Finish its work first: buffers last written there may then be reused at once.
  LOOM_CUDA_CHECK(cudaStreamSynchronize(native(stream)));
  cuda::note_stream_destroyed(stream);
  LOOM_CUDA_CHECK(cudaStreamDestroy(native(stream)));
}

void stream_synchronize(int device, void* stream) {
  if (cuda::stream_destroyed(stream)) return;  // its work finished when it was destroyed
  cuda::check_not_capturing("Stream.synchronize", "waiting for a stream");
  cuda::activate(device);
  wait_interruptibly("Stream.synchronize",
                     [&] { return finished(cudaStreamQuery(native(stream)), "cudaStreamQuery(stream)"); });
}

bool stream_query(int device, void* stream) {
  cuda::check_not_capturing("Stream.query", "querying a stream");
  cuda::activate(device);
  return finished(cudaStreamQuery(native(stream)), "cudaStreamQuery(stream)");
}

void* event_create(int device, bool timing) {
  cuda::activate(device);
  cudaEvent_t e = nullptr;
  LOOM_CUDA_CHECK(cudaEventCreateWithFlags(&e, timing ? cudaEventDefault : cudaEventDisableTiming));
  return e;
}

void event_destroy(int device, void* event) {
  if (!event || cuda::device_lost(device)) return;
  cuda::activate(device);
  LOOM_CUDA_CHECK(cudaEventDestroy(native_event(event)));
}

void event_record(int device, void* event, void* stream) {
  cuda::activate(device);
  LOOM_CUDA_CHECK(cudaEventRecord(native_event(event), native(stream)));
}

void event_synchronize(int device, void* event) {
  cuda::check_not_capturing("Event.synchronize", "waiting for an event");
  cuda::activate(device);
  wait_interruptibly("Event.synchronize",
                     [&] { return finished(cudaEventQuery(native_event(event)), "cudaEventQuery(event)"); });
}

bool event_query(int device, void* event) {
  cuda::check_not_capturing("Event.query", "querying an event");
  cuda::activate(device);
  return finished(cudaEventQuery(native_event(event)), "cudaEventQuery(event)");
}

float event_elapsed_ms(int device, void* start, void* end) {
  cuda::activate(device);
  float ms = 0;
  LOOM_CUDA_CHECK(cudaEventElapsedTime(&ms, native_event(start), native_event(end)));
  return ms;
}

void stream_wait_event(int device, void* stream, void* event) {
  cuda::activate(device);
  LOOM_CUDA_CHECK(cudaStreamWaitEvent(native(stream), native_event(event), 0));
}

}  // namespace loom::gpu_runtime
