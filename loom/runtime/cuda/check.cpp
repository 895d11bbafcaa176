#include "loom/runtime/cuda/check.h"

#include <atomic>
#include <cstdio>
#include <mutex>
#include <string>

#include "loom/runtime/cuda/driver_api.h"
#include "loom/runtime/cuda/context.h"
#include "loom/core/error.h"

namespace loom::cuda {
namespace {

struct DeviceState {
  std::atomic<bool> lost{false};
  std::mutex mu;
  std::string lost_message;
  int lost_code = 0;
  std::string last_kernel;
};

DeviceState& state(int device) {
  static DeviceState* states = new DeviceState[kMaxDevices];  // never destroyed: used at exit
  return states[device >= 0 && device < kMaxDevices ? device : 0];
}

// Errors after which the context cannot be used again (runtime and driver share the codes).
bool is_sticky(int code) {
  switch (code) {
    case 214:  // ECC uncorrectable
    case 700:  // illegal address
    case 702:  // launch timeout
    case 709:  // context is destroyed
    case 710:  // device-side assert
    case 714:  // hardware stack error
    case 715:  // illegal instruction
    case 716:  // misaligned address
    case 717:  // invalid address space
    case 718:  // invalid pc
    case 719:  // launch failure
    case 721:  // tensor memory leak
    case 911:  // external device
      return true;
    default:
      return false;
  }
}

std::string gpu_name(int device) { return "gpu(" + std::to_string(device) + ")"; }

// The device a failing call ran on: loom's cached current device, else the runtime's.
int failing_device() {
  int d = current_device();
  if (d < 0 && cudaGetDevice(&d) != cudaSuccess) d = 0;
  return d;
}

[[noreturn]] void raise(int code, const char* name, const char* what, const char* call) {
  std::string msg = std::string("[cuda] ") + call + " failed: " + name + " (" +
                    std::to_string(code) + "): " + what;
  if (code == 2) {  // cudaErrorMemoryAllocation / CUDA_ERROR_OUT_OF_MEMORY
    cudaGetLastError();
    throw OutOfMemoryError(msg + ". Process the data in batches or free arrays you no longer need.");
  }
  if (!is_sticky(code)) {
    cudaGetLastError();  // leave no stale error for the next call
    throw CudaError(msg, code);
  }
  const int device = failing_device();
  DeviceState& s = state(device);
  {
    std::lock_guard<std::mutex> lock(s.mu);
    if (!s.lost.load()) {
      const std::string kernel = s.last_kernel.empty() ? "none" : "'" + s.last_kernel + "'";
      s.lost_message = "[cuda] the CUDA context of " + gpu_name(device) +
                       " is lost (device context lost) after " + msg +
                       ". The last kernel launched on " + gpu_name(device) + " was " + kernel +
                       ". Every later call on " + gpu_name(device) +
                       " raises this error; restart the process to use this GPU again.";
      s.lost_code = code;
      s.lost.store(true);
    }
  }
  check_alive(device);
  throw CudaError(msg, code, true);  // not reached
}

}  // namespace

void raise_runtime_error(cudaError_t err, const char* call) {
  const char* name = cudaGetErrorName(err);
  const char* what = cudaGetErrorString(err);
  raise(static_cast<int>(err), name ? name : "cudaError", what ? what : "", call);
}

void raise_driver_error(CUresult err, const char* call) {
  const char* name = nullptr;
  const char* what = nullptr;
  if (const DriverApi* api = driver_api()) {
    api->cuGetErrorName(err, &name);
    api->cuGetErrorString(err, &what);
  }
  raise(static_cast<int>(err), name ? name : "CUresult", what ? what : "", call);
}

void raise_nvrtc_error(nvrtcResult err, const char* call) {
  throw CudaError(std::string("[nvrtc] ") + call + " failed: " + nvrtcGetErrorString(err) + " (" +
                      std::to_string(static_cast<int>(err)) + ")",
                  static_cast<int>(err));
}

bool device_lost(int device) { return state(device).lost.load(std::memory_order_relaxed); }

void check_alive(int device) {
  DeviceState& s = state(device);
  if (!s.lost.load(std::memory_order_relaxed)) return;
  std::lock_guard<std::mutex> lock(s.mu);
  throw CudaError(s.lost_message, s.lost_code, true);
}

void set_last_kernel(int device, std::string_view name) {
  DeviceState& s = state(device);
  std::lock_guard<std::mutex> lock(s.mu);
  s.last_kernel.assign(name.data(), name.size());
}

std::string last_kernel(int device) {
  DeviceState& s = state(device);
  std::lock_guard<std::mutex> lock(s.mu);
  return s.last_kernel;
}

std::string format_bytes(size_t n) {
  char buf[64];
  const double d = static_cast<double>(n);
  if (n < 1024) std::snprintf(buf, sizeof buf, "%zu B", n);
  else if (n < (size_t{1} << 20)) std::snprintf(buf, sizeof buf, "%.2f KiB", d / 1024.0);
  else if (n < (size_t{1} << 30)) std::snprintf(buf, sizeof buf, "%.2f MiB", d / 1048576.0);
  else std::snprintf(buf, sizeof buf, "%.2f GiB", d / 1073741824.0);
  return buf;
}

}  // namespace loom::cuda
