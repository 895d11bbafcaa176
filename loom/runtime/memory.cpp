#include "loom/runtime/memory.h"

#include "loom/runtime/cpu/host_allocator.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/runtime/stream.h"

namespace loom {

Buffer::~Buffer() {
  if (release_) {
    release_(ctx_, *this);
  } else if (foreign_release_) {
    foreign_release_();
  }
}

std::shared_ptr<Buffer> allocate(size_t nbytes, const Device& device) {
  if (device.is_cpu()) return cpu_runtime::allocate(nbytes);
  return gpu_runtime::allocate(device.index, nbytes, Stream::current(device).native());
}

namespace memory {

MemoryStats stats(const Device& device) {
  return device.is_cpu() ? cpu_runtime::memory_stats() : gpu_runtime::memory_stats(device.index);
}

void empty_cache(std::optional<Device> device) {
  if (device) {
    if (device->is_gpu()) gpu_runtime::empty_cache(device->index);
    else cpu_runtime::empty_cache();
    return;
  }
  cpu_runtime::empty_cache();
  for (int i = 0; i < num_gpus(); ++i) gpu_runtime::empty_cache(i);
}

void set_limit(size_t nbytes, std::optional<Device> device) {
  const Device d = device ? *device : default_device();
  if (d.is_cpu()) {
    cpu_runtime::set_limit(nbytes);
  } else {
    gpu_runtime::set_limit(d.index, nbytes);
  }
}

}  // namespace memory

// Both backends fall back to page-aligned ordinary memory when there is no GPU.
void* pinned_alloc(size_t nbytes) { return gpu_runtime::pinned_alloc(nbytes); }
void pinned_free(void* ptr) { gpu_runtime::pinned_free(ptr); }

}  // namespace loom
