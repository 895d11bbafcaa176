#include "loom/runtime/cuda/context.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <stdexcept>
#include <unordered_set>

#include "loom/core/error.h"
#include "loom/runtime/cuda/check.h"
#include "loom/runtime/cuda/driver_api.h"
#include "loom/runtime/device.h"
#include "loom/runtime/stream.h"

namespace loom::cuda {
namespace {

thread_local int t_device = -1;
thread_local void* t_capture_stream = nullptr;

struct Attributes {
  std::once_flag once;
  int cc = 0;
  int sms = 0;
};

Attributes& attributes(int device) {
  static Attributes* attrs = new Attributes[kMaxDevices];
  activate(device);
  Attributes& a = attrs[device];
  std::call_once(a.once, [&] {
    int major = 0, minor = 0, sms = 0;
    LOOM_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    LOOM_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    LOOM_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    a.cc = major * 10 + minor;
    a.sms = sms;
  });
  return a;
}

std::mutex g_streams_mu;
std::unordered_set<void*>& destroyed_streams() {
  static auto* s = new std::unordered_set<void*>();
  return *s;
}
std::atomic<bool> g_any_destroyed{false};

}  // namespace

int device_count() {
  static const int count = [] {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
      cudaGetLastError();
      n = 0;
    }
    return std::min(n, kMaxDevices);
  }();
  return count;
}

void activate(int device) {
  if (device == t_device) {
    check_alive(device);
    return;
  }
  // The same ValueError as every other use of an absent GPU (gpu(i) itself never throws).
  check_device_present(Device{DeviceType::cuda, device});
  check_alive(device);
  LOOM_CUDA_CHECK(cudaSetDevice(device));
  t_device = device;
}

int current_device() { return t_device; }

int compute_capability(int device) { return attributes(device).cc; }
int multiprocessor_count(int device) { return attributes(device).sms; }

void* current_stream(int device) {
  return Stream::current_native(device);
}

void note_stream_destroyed(void* stream) {
  std::lock_guard<std::mutex> lock(g_streams_mu);
  destroyed_streams().insert(stream);
  g_any_destroyed.store(true);
}

void note_stream_created(void* stream) {
  if (!g_any_destroyed.load()) return;
  std::lock_guard<std::mutex> lock(g_streams_mu);
  destroyed_streams().erase(stream);
}

bool stream_destroyed(void* stream) {
  if (!stream || !g_any_destroyed.load(std::memory_order_relaxed)) return false;
  std::lock_guard<std::mutex> lock(g_streams_mu);
  return destroyed_streams().count(stream) != 0;
}

void* capture_stream() { return t_capture_stream; }
void set_capture_stream(void* stream) { t_capture_stream = stream; }

void check_not_capturing(const char* op, const char* what) {
  if (!t_capture_stream) return;
  throw GraphCaptureError(std::string("[") + op + "] " + what +
                          " cannot run while loom.cuda_graph is capturing: a CUDA graph records GPU work "
                          "only (nothing runs during the capture, so there is no value to read or wait "
                          "for). Move host reads, synchronizes and first-time kernel compiles out of the "
                          "captured function");
}

unsigned grid_size(int device, int64_t n, unsigned block) {
  const int64_t needed = (n + block - 1) / block;
  const int64_t cap = static_cast<int64_t>(multiprocessor_count(device)) * 32;
  return static_cast<unsigned>(std::max<int64_t>(1, std::min(needed, cap)));
}

void launch(int device, CUfunction fn, const char* name, unsigned grid, unsigned block,
            unsigned shared_mem, void* stream, void** args) {
  set_last_kernel(device, name);
  LOOM_CU_CHECK(driver().cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, shared_mem,
                                        static_cast<CUstream>(stream), args, nullptr));
}

}  // namespace loom::cuda
