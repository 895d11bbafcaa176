#include "loom/memory.h"

#include "loom/backend/cpu/cpu_ops.h"
#include "loom/backend/gpu.h"
#include "loom/stream.h"

namespace loom {

Buffer::~Buffer() {
  if (release_) {
    release_(ctx_, *this);
  } else if (foreign_release_) {
    foreign_release_();
  }
}

std::shared_ptr<Buffer> allocate(size_t nbytes, const Device& device) {
  if (device.is_cpu()) return cpu_backend::allocate(nbytes);
  return gpu_backend::allocate(device.index, nbytes, Stream::current(device).native());
}

namespace memory {

MemoryStats stats(const Device& device) {
  return device.is_cpu() ? cpu_backend::memory_stats() : gpu_backend::memory_stats(device.index);
}

void empty_cache(std::optional<Device> device) {
  if (device) {
    if (device->is_gpu()) gpu_backend::empty_cache(device->index);
    else cpu_backend::empty_cache();
    return;
  }
  cpu_backend::empty_cache();
  for (int i = 0; i < num_gpus(); ++i) gpu_backend::empty_cache(i);
}

void set_limit(size_t nbytes, std::optional<Device> device) {
  const Device d = device ? *device : default_device();
  if (d.is_cpu()) {
    cpu_backend::set_limit(nbytes);
  } else {
    gpu_backend::set_limit(d.index, nbytes);
  }
}

}  // namespace memory

// Both backends fall back to page-aligned ordinary memory when there is no GPU.
void* pinned_alloc(size_t nbytes) { return gpu_backend::pinned_alloc(nbytes); }
void pinned_free(void* ptr) { gpu_backend::pinned_free(ptr); }

}  // namespace loom
