// The GPU's DeviceRuntime: gpu_runtime:: (runtime/cuda/, or the runtime/no_cuda/ stubs that
// raise UnsupportedError) on the device's index. Shared by both builds.
#include "loom/runtime/device_runtime.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/runtime/stream.h"

namespace loom {
namespace {

// current_native: the thread's current stream without copying a Stream (per-op path).
std::shared_ptr<Buffer> allocate(const Device& d, size_t nbytes) {
  return gpu_runtime::allocate(d.index, nbytes, Stream::current_native(d.index));
}
MemoryStats memory_stats(const Device& d) { return gpu_runtime::memory_stats(d.index); }
void empty_cache(const Device& d) { gpu_runtime::empty_cache(d.index); }
void set_limit(const Device& d, size_t nbytes) { gpu_runtime::set_limit(d.index, nbytes); }
DeviceProperties gpu_properties(const Device& d) { return gpu_runtime::properties(d.index); }
void synchronize(const Device& d) { gpu_runtime::synchronize(d.index); }

void* stream_create(const Device& d, bool non_blocking) { return gpu_runtime::stream_create(d.index, non_blocking); }
void stream_destroy(const Device& d, void* s) { gpu_runtime::stream_destroy(d.index, s); }
void stream_synchronize(const Device& d, void* s) { gpu_runtime::stream_synchronize(d.index, s); }
bool stream_query(const Device& d, void* s) { return gpu_runtime::stream_query(d.index, s); }

void* event_create(const Device& d, bool timing) { return gpu_runtime::event_create(d.index, timing); }
void event_destroy(const Device& d, void* e) { gpu_runtime::event_destroy(d.index, e); }
void event_record(const Device& d, void* e, void* s) { gpu_runtime::event_record(d.index, e, s); }
void event_synchronize(const Device& d, void* e) { gpu_runtime::event_synchronize(d.index, e); }
bool event_query(const Device& d, void* e) { return gpu_runtime::event_query(d.index, e); }
float event_elapsed_ms(const Device& d, void* a, void* b) { return gpu_runtime::event_elapsed_ms(d.index, a, b); }
void stream_wait_event(const Device& d, void* s, void* e) { gpu_runtime::stream_wait_event(d.index, s, e); }

}  // namespace

const DeviceRuntime kGpuDeviceRuntime = {
    allocate,          memory_stats,  empty_cache,        set_limit,   gpu_properties, synchronize,
    stream_create,     stream_destroy, stream_synchronize, stream_query,
    event_create,      event_destroy, event_record,       event_synchronize, event_query, event_elapsed_ms,
    stream_wait_event,
};

}  // namespace loom
