// What each kind of device does for memory, synchronisation, streams and events: one table
// of functions per device kind, so that memory.cpp, stream.cpp and device.cpp say what they
// do once and never ask which kind of device they hold. The CPU's table
// (runtime/cpu/cpu_device_runtime.cpp) runs every op synchronously, so its streams and events
// are stand-ins: a stream is the default stream, an event a host time stamp. The GPU's
// (runtime/gpu_device_runtime.cpp) forwards to gpu_runtime:: (runtime/cuda/, or the
// runtime/no_cuda/ stubs that raise UnsupportedError).
#pragma once
#include <cstddef>
#include <memory>

#include "loom/runtime/device.h"
#include "loom/runtime/memory.h"

namespace loom {

/// Streams and events are opaque handles; a null stream is the device's default stream.
/// Every function gets the device it acts on (the GPU's use its index).
struct DeviceRuntime {
  // ---- memory -------------------------------------------------------------------
  /// From the device's allocator, ordered on the calling thread's current stream.
  std::shared_ptr<Buffer> (*allocate)(const Device& d, size_t nbytes);
  MemoryStats (*memory_stats)(const Device& d);
  void (*empty_cache)(const Device& d);
  void (*set_limit)(const Device& d, size_t nbytes);
  DeviceProperties (*properties)(const Device& d);
  /// Waits for all work queued on the device.
  void (*synchronize)(const Device& d);

  // ---- streams --------------------------------------------------------------------
  /// A new stream; nullptr where the device has only its default stream (the CPU).
  /// `non_blocking`: no implicit ordering with the GPU's legacy default stream.
  void* (*stream_create)(const Device& d, bool non_blocking);
  void (*stream_destroy)(const Device& d, void* stream);
  void (*stream_synchronize)(const Device& d, void* stream);
  bool (*stream_query)(const Device& d, void* stream);

  // ---- events ---------------------------------------------------------------------
  void* (*event_create)(const Device& d, bool timing);
  void (*event_destroy)(const Device& d, void* event);
  void (*event_record)(const Device& d, void* event, void* stream);
  void (*event_synchronize)(const Device& d, void* event);
  bool (*event_query)(const Device& d, void* event);
  /// Milliseconds from `start` to `end`, both recorded.
  float (*event_elapsed_ms)(const Device& d, void* start, void* end);
  /// Makes `stream` wait for recorded `event` without blocking the host.
  void (*stream_wait_event)(const Device& d, void* stream, void* event);
};

namespace device_runtime_detail {
/// One table per DeviceType, indexed by its value (device_runtime.cpp).
extern const DeviceRuntime* const kTables[];
}  // namespace device_runtime_detail

/// The table of `d`'s kind. An index, no branch: allocate() calls it for every new array.
inline const DeviceRuntime& device_runtime(const Device& d) {
  return *device_runtime_detail::kTables[static_cast<int>(d.type)];
}

/// The tables themselves (runtime/cpu/cpu_device_runtime.cpp, runtime/gpu_device_runtime.cpp).
extern const DeviceRuntime kCpuDeviceRuntime;
extern const DeviceRuntime kGpuDeviceRuntime;

}  // namespace loom
