// Page-locked host memory with PyCUDA's flags, and mapped (zero-copy) host memory that
// kernels read and write over PCIe/NVLink (loom.empty_mapped, loom.driver.pagelocked_empty).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdlib>

#include "loom/core/error.h"
#include "loom/runtime/cuda/check.h"
#include "loom/runtime/cuda/context.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom::gpu_runtime {

void* host_alloc(size_t nbytes, unsigned flags) {
  check_host_alloc_flags(flags);
  if (cuda::device_count() == 0) return pinned_alloc(nbytes);  // ordinary memory stands in
  void* p = nullptr;
  const cudaError_t err = cudaHostAlloc(&p, std::max<size_t>(nbytes, 1), flags);
  if (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    throw OutOfMemoryError("[pagelocked_empty] could not allocate " + cuda::format_bytes(nbytes) +
                           " of page-locked host memory");
  }
  if (err != cudaSuccess) cuda::raise_runtime_error(err, "cudaHostAlloc(&p, nbytes, flags)");
  return p;
}

MappedHost mapped_alloc(int device, size_t nbytes) {
  cuda::activate(device);
  int can_map = 0;
  LOOM_CUDA_CHECK(cudaDeviceGetAttribute(&can_map, cudaDevAttrCanMapHostMemory, device));
  if (!can_map)
    throw UnsupportedError("[empty_mapped] gpu(" + std::to_string(device) + ") cannot map host memory");
  MappedHost m;
  m.host = host_alloc(nbytes, kHostPortable | kHostDeviceMap);
  try {
    m.device = mapped_device_pointer(m.host);
  } catch (...) {
    cudaFreeHost(m.host);
    throw;
  }
  return m;
}

void* mapped_device_pointer(void* host) {
  if (cuda::device_count() == 0)
    throw UnsupportedError("[get_device_pointer] no GPU: page-locked memory is ordinary host memory here, "
                           "which no kernel can reach");
  void* d = nullptr;
  const cudaError_t err = cudaHostGetDevicePointer(&d, host, 0);
  if (err != cudaSuccess) cuda::raise_runtime_error(err, "cudaHostGetDevicePointer(&device_ptr, host_ptr, 0)");
  return d;
}

void memcpy_async(int device, void* dst, const void* src, size_t nbytes, void* stream) {
  if (nbytes == 0) return;
  cuda::activate(device);
  // cudaMemcpyDefault: unified addressing tells host from device memory, as PyCUDA's
  // memcpy_htod_async / memcpy_dtoh_async need no kind either.
  LOOM_CUDA_CHECK(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDefault, static_cast<cudaStream_t>(stream)));
}

}  // namespace loom::gpu_runtime
