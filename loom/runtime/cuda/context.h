// Device bookkeeping shared by the CUDA backend: the cached device count, the
// per-thread current device, cached attributes, the current stream and kernel launch.
#pragma once
#include <cuda.h>

#include <cstdint>

namespace loom::cuda {

/// Usable GPUs, counted once; 0 when the runtime reports an error (no driver). Never throws.
int device_count();
/// Makes GPU `device` current in this thread after checking that it exists and is not
/// lost. Loom switches devices only through here (a per-thread cache skips cudaSetDevice).
void activate(int device);
/// The device activate() last made current in this thread, or -1.
int current_device();
/// major * 10 + minor, cached.
int compute_capability(int device);
int multiprocessor_count(int device);
/// Stream::current(gpu(device)).native(): the stream ops on `device` enqueue to.
void* current_stream(int device);

/// Streams that stream_destroy() has destroyed (their work had finished): readers and the
/// allocator need not wait for them. A handle reused by stream_create() is live again.
void note_stream_destroyed(void* stream);
void note_stream_created(void* stream);
bool stream_destroyed(void* stream);

/// The stream this thread is capturing into a CUDA graph (runtime/cuda/graph.cpp), or
/// nullptr. Calls that cannot be captured check it and raise GraphCaptureError instead of
/// invalidating the capture.
void* capture_stream();
void set_capture_stream(void* stream);
/// Raises GraphCaptureError "[op] <what> cannot run while a CUDA graph is being captured"
/// when this thread is capturing.
void check_not_capturing(const char* op, const char* what);

/// Blocks for a 1-d grid-stride launch over n elements.
unsigned grid_size(int device, int64_t n, unsigned block);
/// cuLaunchKernel on `stream`, remembering `name` as the device's last kernel.
void launch(int device, CUfunction fn, const char* name, unsigned grid, unsigned block,
            unsigned shared_mem, void* stream, void** args);

}  // namespace loom::cuda
