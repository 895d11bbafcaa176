// The GPU backend's entry points. Implemented in backend/cuda/ in CUDA builds and by
// stubs in backend/no_cuda/ that report zero GPUs and throw UnsupportedError for work.
// Ops in loom/ops own every rule (shapes, dtypes, devices) and call these for compute.
// Stream and event handles are opaque (cudaStream_t / cudaEvent_t); a null stream is
// the device's default stream. Every function that enqueues work uses the current
// stream of the array's device (Stream::current) unless it takes a stream.
#pragma once
#include <memory>
#include <string>

#include "loom/array.h"
#include "loom/device.h"
#include "loom/memory.h"
#include "loom/scalar.h"

namespace loom::gpu_backend {  // NOTE: not loom::gpu, which is the function gpu(i)

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
/// Waits for all work on GPU `index`.
void synchronize(int index);

// ---- memory ---------------------------------------------------------------------
/// From the device's caching allocator, ordered on `stream`.
std::shared_ptr<Buffer> allocate(int device, size_t nbytes, void* stream);
MemoryStats memory_stats(int device);
void empty_cache(int device);
void set_limit(int device, size_t nbytes);
void* pinned_alloc(size_t nbytes);
void pinned_free(void* ptr);
/// The GPU a device pointer belongs to, or -1 for host memory (used for
/// __cuda_array_interface__ and DLPack imports).
int pointer_device(const void* ptr);

// ---- streams and events ---------------------------------------------------------
void* stream_create(int device);
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

// ---- compute: all enqueue on the current stream of `out`'s device ----------------
/// Sets every element of contiguous `out` to `value` (NumPy cast rules).
void fill(const Array& out, const Scalar& value);
/// Contiguous 1-d `out`: out[0] = first, out[1] = second, out[i] = first + i * (second - first)
/// computed in out's dtype (float16/bfloat16 in float), as NumPy's arange fill.
void arange(const Array& out, const Scalar& first, const Scalar& second);
/// Contiguous 1-d `out`: start + i * step in float64, the last one `stop` when `endpoint`,
/// then cast (integer dtypes: floor first), as NumPy's linspace.
void linspace(const Array& out, double start, double step, double stop, bool endpoint);
/// Contiguous 2-d `out`: ones on diagonal k, zeros elsewhere.
void eye(const Array& out, int64_t k);
/// dst (contiguous, same shape, same GPU) = src (any layout) cast to dst's dtype.
void convert(const Array& src, const Array& dst);
/// Host memory of any layout -> contiguous `dst` (same dtype and shape), through
/// pinned staging buffers (direct DMA when the host memory is already pinned).
void upload(const HostView& src, const Array& dst);
/// GPU `src` (any layout) -> contiguous host memory; returns when the data is there.
void download(const Array& src, void* dst);
/// Contiguous `src` on one GPU -> contiguous `dst` on another (peer access when possible).
void copy_peer(const Array& src, const Array& dst);
/// Makes the current stream of `a`'s device wait for the stream that last used `a`, which
/// then becomes that last user (see Buffer::last_stream).
void wait_for_writer(const Array& a);

}  // namespace loom::gpu_backend
