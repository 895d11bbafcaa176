// The CPU's DeviceRuntime. Every CPU op runs synchronously on the calling thread (with the
// thread pool), so there is nothing to wait for: the CPU has only its default stream
// (a null handle), queries say "done", waits return at once, and an event is the host
// time of its record().
#include <chrono>

#include "loom/runtime/cpu/host_allocator.h"
#include "loom/runtime/device_runtime.h"

namespace loom {
namespace {

using Clock = std::chrono::steady_clock;

std::shared_ptr<Buffer> allocate(const Device&, size_t nbytes) { return cpu_runtime::allocate(nbytes); }
MemoryStats memory_stats(const Device&) { return cpu_runtime::memory_stats(); }
void empty_cache(const Device&) { cpu_runtime::empty_cache(); }
void set_limit(const Device&, size_t nbytes) { cpu_runtime::set_limit(nbytes); }

DeviceProperties host_properties(const Device&) {
  DeviceProperties p;
  p.name = "cpu";
  const MemoryStats stats = cpu_runtime::memory_stats();
  p.total_memory = stats.total;
  p.free_memory = stats.total > stats.in_use ? stats.total - stats.in_use : 0;
  return p;
}

void nothing(const Device&) {}
void* no_stream(const Device&, bool) { return nullptr; }
void stream_nothing(const Device&, void*) {}
bool done(const Device&, void*) { return true; }

// An event is the time point of its last record(); made at Event creation, not per op.
void* event_create(const Device&, bool) { return new Clock::time_point(); }
void event_destroy(const Device&, void* e) { delete static_cast<Clock::time_point*>(e); }
void event_record(const Device&, void* e, void*) { *static_cast<Clock::time_point*>(e) = Clock::now(); }
float event_elapsed_ms(const Device&, void* start, void* end) {
  return std::chrono::duration<float, std::milli>(*static_cast<Clock::time_point*>(end) -
                                                  *static_cast<Clock::time_point*>(start))
      .count();
}
void no_wait(const Device&, void*, void*) {}

}  // namespace

const DeviceRuntime kCpuDeviceRuntime = {
    allocate,       memory_stats, empty_cache,    set_limit,        host_properties, nothing,
    no_stream,      stream_nothing, stream_nothing, done,
    event_create,   event_destroy, event_record,  stream_nothing,   done,         event_elapsed_ms,
    no_wait,
};

}  // namespace loom
