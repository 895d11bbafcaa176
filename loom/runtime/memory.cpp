#include "loom/runtime/memory.h"

#include <string>

#include "loom/core/error.h"
#include "loom/runtime/abstract_allocations.h"
#include "loom/runtime/device_runtime.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/runtime/profiler.h"

namespace loom {

Buffer::~Buffer() {
  if (release_) {
    if (profiler::active()) profiler::instant(profiler::Category::free, "free", device_, static_cast<int64_t>(nbytes_));
    release_(ctx_, *this);
  } else if (foreign_release_) {
    foreign_release_();
  }
}

namespace {
thread_local bool t_abstract = false;
thread_local memory::AbstractAllocationLog* t_log = nullptr;  // the innermost
}  // namespace

std::shared_ptr<Buffer> Buffer::abstract(size_t nbytes, Device device) {
  auto b = std::make_shared<Buffer>(nullptr, nbytes, device, nullptr, nullptr);
  b->abstract_ = true;
  if (t_log) memory::AbstractAllocationLog::note(b.get());
  return b;
}

namespace memory {

AbstractAllocationLog::AbstractAllocationLog() : outer_(t_log) { t_log = this; }
AbstractAllocationLog::~AbstractAllocationLog() { t_log = outer_; }
void AbstractAllocationLog::note(const Buffer* b) {
  for (AbstractAllocationLog* l = t_log; l; l = l->outer_) l->buffers_.insert(b);
}

}  // namespace memory

void Buffer::materialize(std::shared_ptr<Buffer> real) {
  ptr_ = real->data();
  abstract_ = false;
  trace_constant_ = true;
  backing_ = std::move(real);
}

std::shared_ptr<Buffer> allocate(size_t nbytes, const Device& device) {
  if (t_abstract) return Buffer::abstract(nbytes, device);
  return memory::allocate_concrete(nbytes, device);
}

namespace memory {

AllocationScope::AllocationScope(bool abstract) : saved_(t_abstract) { t_abstract = abstract; }
AllocationScope::~AllocationScope() { t_abstract = saved_; }
bool allocating_abstract() { return t_abstract; }

std::shared_ptr<Buffer> allocate_concrete(size_t nbytes, const Device& device) {
  auto b = device_runtime(device).allocate(device, nbytes);
  if (profiler::active()) profiler::instant(profiler::Category::alloc, "alloc", device, static_cast<int64_t>(nbytes));
  return b;
}

MemoryStats stats(const Device& device) { return device_runtime(device).memory_stats(device); }

std::optional<MemoryStats> stats_if_used(const Device& device) {
  if (device.type != DeviceType::cuda) return stats(device);  // the host arena always exists
  MemoryStats s;
  if (!gpu_runtime::memory_stats_if_used(device.index, s)) return std::nullopt;
  return s;
}

void empty_cache(std::optional<Device> device) {
  if (device) return device_runtime(*device).empty_cache(*device);
  for (const Device& d : devices()) device_runtime(d).empty_cache(d);
}

void set_limit(size_t nbytes, std::optional<Device> device) {
  const Device d = device ? *device : default_device();
  device_runtime(d).set_limit(d, nbytes);
}

}  // namespace memory

// Both backends fall back to page-aligned ordinary memory when there is no GPU.
void* pinned_alloc(size_t nbytes) { return gpu_runtime::pinned_alloc(nbytes); }
void pinned_free(void* ptr) { gpu_runtime::pinned_free(ptr); }

// Here, built with and without CUDA, so that both builds refuse the same flags.
void gpu_runtime::check_host_alloc_flags(unsigned flags) {
  if (flags & ~(kHostPortable | kHostDeviceMap | kHostWriteCombined))
    throw_value_error("pagelocked_empty", "mem_flags must combine host_alloc_flags.PORTABLE, DEVICEMAP and "
                                          "WRITECOMBINED, got " + std::to_string(flags));
}

}  // namespace loom
