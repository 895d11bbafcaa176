// The GPU runtime of a build without CUDA: zero GPUs, and every operation raises
// UnsupportedError naming itself (never a link error or a silent fallback).
#include <cstdlib>

#include "loom/runtime/gpu_runtime.h"
#include "loom/core/error.h"

namespace loom::gpu_runtime {
namespace {

[[noreturn]] void no_cuda(const char* fn) {
  throw UnsupportedError(std::string("[") + fn + "] loom was built without CUDA");
}

}  // namespace

bool compiled() { return false; }
int device_count() { return 0; }
DeviceProperties properties(int) { no_cuda("properties"); }
std::string driver_version() { return ""; }
std::string runtime_version() { return ""; }
std::string nvrtc_version() { return ""; }
int device_attribute(int, int) { no_cuda("device_attribute"); }
void synchronize(int) { no_cuda("synchronize"); }

std::shared_ptr<Buffer> allocate(int, size_t, void*) { no_cuda("allocate"); }
MemoryStats memory_stats(int) { no_cuda("memory_stats"); }
bool memory_stats_if_used(int, MemoryStats&) { return false; }
void empty_cache(int) { no_cuda("empty_cache"); }
void set_limit(int, size_t) { no_cuda("set_limit"); }

// Page-locked memory needs CUDA; plain page-aligned memory stands in for it.
void* pinned_alloc(size_t nbytes) {
  const size_t n = (nbytes + 4095) / 4096 * 4096;
  void* p = std::aligned_alloc(4096, n ? n : 4096);
  if (!p) throw std::bad_alloc();
  return p;
}
void pinned_free(void* ptr) { std::free(ptr); }
// Without CUDA every pointer is host memory.
void* host_alloc(size_t nbytes, unsigned flags) {
  check_host_alloc_flags(flags);
  return pinned_alloc(nbytes);
}
void* mapped_device_pointer(void*) {
  throw UnsupportedError("[get_device_pointer] loom was built without CUDA: page-locked memory is ordinary host "
                         "memory here, which no kernel can reach");
}
MappedHost mapped_alloc(int, size_t) { no_cuda("empty_mapped"); }
void memcpy_async(int, void*, const void*, size_t, void*) { no_cuda("memcpy_async"); }
void retire_stream(int, void*) {}
void unretire_stream(int, void*) {}

void graph_capture_begin(int, void*) { no_cuda("cuda_graph"); }
void* graph_capture_end(int, void*) { no_cuda("cuda_graph"); }
void graph_capture_abort(int, void*) noexcept {}
void graph_launch(int, void*, void*) { no_cuda("cuda_graph"); }
void graph_destroy(int, void*) {}
bool capturing() { return false; }

int pointer_device(const void*) { return -1; }

void* stream_create(int, bool) { no_cuda("stream_create"); }
void stream_destroy(int, void*) { no_cuda("stream_destroy"); }
void stream_synchronize(int, void*) { no_cuda("stream_synchronize"); }
bool stream_query(int, void*) { no_cuda("stream_query"); }
void* event_create(int, bool) { no_cuda("event_create"); }
void event_destroy(int, void*) { no_cuda("event_destroy"); }
void event_record(int, void*, void*) { no_cuda("event_record"); }
void event_synchronize(int, void*) { no_cuda("event_synchronize"); }
bool event_query(int, void*) { no_cuda("event_query"); }
float event_elapsed_ms(int, void*, void*) { no_cuda("event_elapsed_ms"); }
void stream_wait_event(int, void*, void*) { no_cuda("stream_wait_event"); }

void upload(const HostView&, const GpuSpan&) { no_cuda("upload"); }
void upload_async(const void*, const GpuSpan&) { no_cuda("upload_async"); }
void download(const GpuSpan&, void*) { no_cuda("download"); }
void copy_peer(const GpuSpan&, const GpuSpan&) { no_cuda("copy_peer"); }
void wait_for_writer(BufferOf) { no_cuda("wait_for_writer"); }

}  // namespace loom::gpu_runtime
