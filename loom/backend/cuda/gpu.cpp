// loom::gpu entry points for devices, memory, streams and events (backend/gpu.h).
#include <cuda_runtime_api.h>
#include <nvrtc.h>

#include <string>

#include "loom/backend/cuda/allocator.h"
#include "loom/backend/cuda/check.h"
#include "loom/backend/cuda/driver_api.h"
#include "loom/backend/cuda/runtime.h"
#include "loom/backend/gpu.h"

namespace loom::gpu_backend {
namespace {

std::string version_string(int v) {  // 13000 -> "13.0", 12080 -> "12.8"
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

cudaStream_t native(void* s) { return static_cast<cudaStream_t>(s); }
cudaEvent_t native_event(void* e) { return static_cast<cudaEvent_t>(e); }

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

void synchronize(int index) {
  cuda::activate(index);
  LOOM_CUDA_CHECK(cudaDeviceSynchronize());
}

// ---- memory ---------------------------------------------------------------------
std::shared_ptr<Buffer> allocate(int device, size_t nbytes, void* stream) {
  return cuda::allocate(device, nbytes, stream);
}
MemoryStats memory_stats(int device) { return cuda::memory_stats(device); }
void empty_cache(int device) { cuda::empty_cache(device); }
void set_limit(int device, size_t nbytes) { cuda::set_limit(device, nbytes); }
void* pinned_alloc(size_t nbytes) { return cuda::pinned_alloc(nbytes); }
void pinned_free(void* ptr) { cuda::pinned_free(ptr); }

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
void* stream_create(int device) {
  cuda::activate(device);
  cudaStream_t s = nullptr;
  LOOM_CUDA_CHECK(cudaStreamCreate(&s));
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
  cuda::activate(device);
  LOOM_CUDA_CHECK(cudaStreamSynchronize(native(stream)));
}

bool stream_query(int device, void* stream) {
  cuda::activate(device);
  const cudaError_t err = cudaStreamQuery(native(stream));
  if (err == cudaErrorNotReady) {
    cudaGetLastError();
    return false;
  }
  if (err != cudaSuccess) cuda::raise_runtime_error(err, "cudaStreamQuery(stream)");
  return true;
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
  cuda::activate(device);
  LOOM_CUDA_CHECK(cudaEventSynchronize(native_event(event)));
}

bool event_query(int device, void* event) {
  cuda::activate(device);
  const cudaError_t err = cudaEventQuery(native_event(event));
  if (err == cudaErrorNotReady) {
    cudaGetLastError();
    return false;
  }
  if (err != cudaSuccess) cuda::raise_runtime_error(err, "cudaEventQuery(event)");
  return true;
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

}  // namespace loom::gpu_backend
