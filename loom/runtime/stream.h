// Streams and events. On a GPU they wrap cudaStream_t / cudaEvent_t; on the CPU,
// where every op runs synchronously, they are stand-ins with the same interface.
#pragma once
#include <memory>

#include "loom/runtime/device.h"

namespace loom {

struct StreamHandle;
struct EventHandle;

/// An ordered queue of work on one device.
class Stream {
 public:
  /// The current stream of the default device.
  Stream();
  /// A new stream on `device` (CPU: a synchronous stand-in). A `non_blocking` GPU stream
  /// is not ordered with the legacy default stream (cudaStreamNonBlocking): loom orders its
  /// own streams by events, and such a stream's copies overlap kernels queued there.
  static Stream create(const Device& device, bool non_blocking = false);
  /// The default stream of `device`.
  static Stream default_stream(const Device& device);
  /// CUDA's legacy default stream (cudaStreamLegacy, handle 1) and the calling thread's
  /// per-thread default stream (cudaStreamPerThread, handle 2) of `device`; on the CPU, where
  /// every stream is the synchronous default one, its default stream.
  static Stream legacy_default(const Device& device);
  static Stream per_thread_default(const Device& device);
  /// A stream made by other code (a cudaStream_t of `device`), used and never destroyed here.
  /// The CPU has no CUDA streams: UnsupportedError there.
  static Stream external(const Device& device, void* native);
  /// The stream ops on `device` enqueue to in this thread.
  static Stream current(const Device& device);
  static void set_current(const Stream& s);
  /// current(gpu(index)).native() without making a Stream (no shared_ptr copy): the
  /// per-op path of every GPU kernel launch.
  static void* current_native(int gpu_index);

  const Device& device() const { return device_; }
  /// cudaStream_t (nullptr is the default stream); always nullptr on the CPU.
  void* native() const;
  void synchronize() const;
  /// True when all queued work has finished.
  bool query() const;
  /// Made by external(): loom does not own it.
  bool is_external() const;
  bool operator==(const Stream& o) const { return device_ == o.device_ && native() == o.native(); }

 private:
  Stream(Device d, std::shared_ptr<StreamHandle> h) : device_(d), handle_(std::move(h)) {}
  Device device_;
  std::shared_ptr<StreamHandle> handle_;  // null: the default stream
};

/// Makes `s` the current stream of its device in this thread while alive (`with s:`).
class StreamScope {
 public:
  explicit StreamScope(const Stream& s);
  ~StreamScope();
  StreamScope(const StreamScope&) = delete;
  StreamScope& operator=(const StreamScope&) = delete;

 private:
  Stream previous_;
};

/// A marker in a stream: wait for it, or time between two of them.
class Event {
 public:
  explicit Event(const Device& device, bool enable_timing = true);
  Event();  // on the default device
  /// Records on `s` (the current stream of the event's device when omitted).
  void record(const Stream* s = nullptr);
  void record(const Stream& s) { record(&s); }
  void synchronize() const;
  bool query() const;
  /// Milliseconds from this event to `end`; both must have been recorded.
  float elapsed_time(const Event& end) const;
  /// Makes `s` wait for this event without blocking the host.
  void wait(const Stream& s) const;
  const Device& device() const { return device_; }

 private:
  Device device_;
  bool timing_;
  std::shared_ptr<EventHandle> handle_;
};

}  // namespace loom
