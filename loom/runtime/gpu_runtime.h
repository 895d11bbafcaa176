// The GPU runtime: devices, memory, streams, events and copies. Implemented in
// runtime/cuda/ in CUDA builds and by stubs in runtime/no_cuda/ that report zero GPUs and
// throw UnsupportedError for work. Stream and event handles are opaque (cudaStream_t /
// cudaEvent_t); a null stream is the device's default stream.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "loom/runtime/device.h"
#include "loom/runtime/host_view.h"
#include "loom/runtime/memory.h"

namespace loom::gpu_runtime {

// ---- build and devices ----------------------------------------------------------
/// True when loom was built with the CUDA backend.
bool compiled();
/// Usable GPUs; 0 without a driver or a GPU. Never throws.
int device_count();
DeviceProperties properties(int index);
/// "13.0" style versions; "" when unknown (no driver).
std::string driver_version();
std::string runtime_version();
std::string nvrtc_version();
/// CUDA's device attribute `attribute` (a CUdevice_attribute / cudaDeviceAttr number) of GPU
/// `index`: PyCUDA's Device.get_attribute. ValueError for a number the driver does not know.
int device_attribute(int index, int attribute);
/// Waits for all work on GPU `index`.
void synchronize(int index);

// ---- memory ---------------------------------------------------------------------
/// From the device's caching allocator, ordered on `stream`.
std::shared_ptr<Buffer> allocate(int device, size_t nbytes, void* stream);
MemoryStats memory_stats(int device);
/// memory_stats() when this process has allocated on `device` (its allocator exists); false
/// otherwise, without creating the allocator or a CUDA context (monitors call it each second).
bool memory_stats_if_used(int device, MemoryStats& out);
void empty_cache(int device);
void set_limit(int device, size_t nbytes);
void* pinned_alloc(size_t nbytes);
void pinned_free(void* ptr);
/// cudaHostAlloc with PyCUDA's host_alloc_flags (kHostPortable, kHostDeviceMap,
/// kHostWriteCombined: CUDA's cudaHostAlloc* values); free with pinned_free. Without a GPU,
/// page-aligned ordinary memory stands in (as pinned_alloc).
/// Both builds check the flags first, so a wrong value raises with and without CUDA alike.
constexpr unsigned kHostPortable = 1, kHostDeviceMap = 2, kHostWriteCombined = 4;
void* host_alloc(size_t nbytes, unsigned flags);
/// ValueError naming pagelocked_empty unless `flags` combines the three above.
void check_host_alloc_flags(unsigned flags);
/// Mapped (zero-copy) host memory: page-locked, mapped into every GPU's address space.
/// `host` is the CPU's address, `device` the one kernels on GPU `device` use.
struct MappedHost {
  void* host = nullptr;
  void* device = nullptr;
};
MappedHost mapped_alloc(int device, size_t nbytes);
/// The address kernels use for `host`, memory from host_alloc with kHostDeviceMap
/// (cudaHostGetDevicePointer). UnsupportedError without a GPU, where host_alloc's memory is
/// ordinary memory that no kernel can reach.
void* mapped_device_pointer(void* host);
/// cudaMemcpyAsync(kind = default) on `stream` of GPU `device`, not waited for; the caller
/// orders it (wait_for_writer) and keeps both sides alive until it is done.
void memcpy_async(int device, void* dst, const void* src, size_t nbytes, void* stream);
/// The blocks a CUDA graph captured on `stream` go back to the allocator's shared pool
/// (the graph is gone and the device idle); unretire when a new capture reuses the handle.
void retire_stream(int device, void* stream);
void unretire_stream(int device, void* stream);
/// The GPU a device pointer belongs to, or -1 for host memory (used for
/// __cuda_array_interface__ and DLPack imports).
int pointer_device(const void* ptr);

// ---- streams and events ---------------------------------------------------------
/// non_blocking: the stream neither waits for nor holds up work on the legacy default
/// stream (cudaStreamNonBlocking), so its copies overlap kernels queued there.
void* stream_create(int device, bool non_blocking = false);
void stream_destroy(int device, void* stream);
void stream_synchronize(int device, void* stream);
bool stream_query(int device, void* stream);
void* event_create(int device, bool timing);
void event_destroy(int device, void* event);
void event_record(int device, void* event, void* stream);
void event_synchronize(int device, void* event);
bool event_query(int device, void* event);
float event_elapsed_ms(int device, void* start, void* end);
void stream_wait_event(int device, void* stream, void* event);

// ---- CUDA graphs (runtime/cuda/graph.cpp) ---------------------------------------
/// Starts capturing `stream` (a non-blocking stream of `device`, not the default one) in
/// this thread. Until the capture ends, host reads, waits and module loads in this thread
/// raise GraphCaptureError rather than invalidate it; the caching allocator keeps the
/// blocks allocated on `stream` for the graph.
void graph_capture_begin(int device, void* stream);
/// Ends the capture and instantiates it: the executable graph (cudaGraphExec_t).
void* graph_capture_end(int device, void* stream);
/// Ends a capture that failed and drops it; nothing when this thread is not capturing
/// `stream`. Never throws.
void graph_capture_abort(int device, void* stream) noexcept;
void graph_launch(int device, void* exec, void* stream);
void graph_destroy(int device, void* exec);
/// True while this thread captures a graph.
bool capturing();

// ---- copies: enqueue on the current stream of the array's device -----------------
/// What a copy needs of an array: its buffer (for the stream ordering of Buffer::
/// last_stream), the address of element 0, its size, its GPU and whether it is
/// C-contiguous. The runtime sits below Array (DESIGN.md §1), so it takes this instead;
/// it converts implicitly from an Array (anything with Array's accessors), so callers
/// pass their arrays as they are.
struct GpuSpan {
  Buffer* buffer = nullptr;  // null: an empty (default-constructed) array
  void* data = nullptr;
  size_t nbytes = 0;
  size_t itemsize = 1;
  int device = -1;  // -1: not on a GPU
  bool contiguous = true;

  GpuSpan() = default;
  template <class ArrayLike, class = decltype(std::declval<const ArrayLike&>().buffer()->last_stream())>
  GpuSpan(const ArrayLike& a) {  // NOLINT: implicit by design
    if (!a.valid()) return;
    buffer = a.buffer().get();
    if (!buffer->device().is_gpu()) return;
    device = buffer->device().index;
    data = a.data();
    nbytes = a.nbytes();
    itemsize = a.itemsize();
    contiguous = a.is_contiguous();
  }
};

/// Host memory of any layout -> contiguous `dst` (same dtype and shape), through
/// pinned staging buffers (direct DMA when the host memory is already pinned).
void upload(const HostView& src, const GpuSpan& dst);
/// Page-locked host memory (pinned_alloc) -> contiguous `dst`, `dst.nbytes` bytes, enqueued
/// on the current stream of dst's device and not waited for (upload() waits, so that its
/// caller may reuse the host memory at once). The caller keeps `src` alive and unchanged
/// until an event recorded on that stream after this call has completed. Pageable memory
/// raises: a DMA from it would not be asynchronous.
void upload_async(const void* src, const GpuSpan& dst);
/// GPU `src` (contiguous) -> host memory; returns when the data is there.
void download(const GpuSpan& src, void* dst);
/// Contiguous `src` on one GPU -> contiguous `dst` on another (peer access when possible).
void copy_peer(const GpuSpan& src, const GpuSpan& dst);
/// The buffer of an array, all that wait_for_writer needs (it runs for every operand of
/// every GPU op, so nothing else is computed). Converts implicitly from an Array.
struct BufferOf {
  Buffer* buffer = nullptr;  // null: an empty array
  explicit BufferOf(Buffer* b) : buffer(b) {}
  template <class ArrayLike, class = decltype(std::declval<const ArrayLike&>().buffer()->last_stream())>
  BufferOf(const ArrayLike& a) : buffer(a.buffer().get()) {}  // NOLINT: implicit by design
};
/// Makes the current stream of `a`'s device wait for the stream that last used `a`, which
/// then becomes that last user (see Buffer::last_stream). Nothing for a non-GPU array.
void wait_for_writer(BufferOf a);

}  // namespace loom::gpu_runtime
