// The one way CUDA, driver and NVRTC calls are checked (DESIGN.md §5): a failing call
// raises loom::CudaError with the call's text, the code and its name. Sticky errors
// (illegal address, launch failure, ...) mark the device lost: from then on every call
// on that device raises the same "context lost" CudaError, naming the last kernel.
#pragma once
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <nvrtc.h>

#include <string_view>

namespace loom::cuda {

constexpr int kMaxDevices = 64;

[[noreturn]] void raise_runtime_error(cudaError_t err, const char* call);
[[noreturn]] void raise_driver_error(CUresult err, const char* call);
[[noreturn]] void raise_nvrtc_error(nvrtcResult err, const char* call);

/// True once `device` has hit a sticky error.
bool device_lost(int device);
/// Throws the device's "context lost" CudaError when it is lost.
void check_alive(int device);
/// Remembers the kernel last launched on `device` (quoted by the context-lost error).
void set_last_kernel(int device, std::string_view name);
std::string last_kernel(int device);
/// "1.50 GiB" style sizes for messages.
std::string format_bytes(size_t nbytes);

}  // namespace loom::cuda

#define LOOM_CUDA_CHECK(call)                                                  \
  do {                                                                         \
    const cudaError_t loom_err_ = (call);                                      \
    if (loom_err_ != cudaSuccess) ::loom::cuda::raise_runtime_error(loom_err_, #call); \
  } while (0)

#define LOOM_CU_CHECK(call)                                                    \
  do {                                                                         \
    const CUresult loom_err_ = (call);                                         \
    if (loom_err_ != CUDA_SUCCESS) ::loom::cuda::raise_driver_error(loom_err_, #call); \
  } while (0)

#define LOOM_NVRTC_CHECK(call)                                                 \
  do {                                                                         \
    const nvrtcResult loom_err_ = (call);                                      \
    if (loom_err_ != NVRTC_SUCCESS) ::loom::cuda::raise_nvrtc_error(loom_err_, #call); \
  } while (0)
