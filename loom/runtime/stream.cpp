#include "loom/runtime/stream.h"

#include <chrono>
#include <vector>

#include "loom/runtime/gpu_runtime.h"
#include "loom/core/error.h"

namespace loom {

// Owns a created cudaStream_t (never the default stream, which is a null handle).
struct StreamHandle {
  Device device;
  void* native = nullptr;
  ~StreamHandle() {
    if (native) {
      try {
        gpu_runtime::stream_destroy(device.index, native);
      } catch (...) {
        // Destroying a stream on a lost device cannot be reported from a destructor.
      }
    }
  }
};

struct EventHandle {
  Device device;
  void* native = nullptr;  // cudaEvent_t on a GPU
  bool recorded = false;
  std::chrono::steady_clock::time_point host_time;  // CPU stand-in
  ~EventHandle() {
    if (native) {
      try {
        gpu_runtime::event_destroy(device.index, native);
      } catch (...) {
      }
    }
  }
};

namespace {
// Current stream per GPU for this thread; an empty slot means the default stream.
thread_local std::vector<std::shared_ptr<StreamHandle>> t_current;
}  // namespace

Stream::Stream() : Stream(current(default_device())) {}

Stream Stream::create(const Device& device) {
  if (device.is_cpu()) return Stream(device, nullptr);
  auto h = std::make_shared<StreamHandle>();
  h->device = device;
  h->native = gpu_runtime::stream_create(device.index);
  return Stream(device, std::move(h));
}

Stream Stream::default_stream(const Device& device) { return Stream(device, nullptr); }

Stream Stream::current(const Device& device) {
  if (device.is_gpu() && static_cast<size_t>(device.index) < t_current.size()) {
    return Stream(device, t_current[device.index]);
  }
  return Stream(device, nullptr);
}

void* Stream::current_native(int gpu_index) {
  if (gpu_index < 0 || static_cast<size_t>(gpu_index) >= t_current.size()) return nullptr;
  const std::shared_ptr<StreamHandle>& h = t_current[gpu_index];
  return h ? h->native : nullptr;
}

void Stream::set_current(const Stream& s) {
  if (s.device_.is_cpu()) return;
  if (t_current.size() <= static_cast<size_t>(s.device_.index)) t_current.resize(s.device_.index + 1);
  t_current[s.device_.index] = s.handle_;
}

void* Stream::native() const { return handle_ ? handle_->native : nullptr; }

void Stream::synchronize() const {
  if (device_.is_gpu()) gpu_runtime::stream_synchronize(device_.index, native());
}

bool Stream::query() const {
  return device_.is_cpu() ? true : gpu_runtime::stream_query(device_.index, native());
}

StreamScope::StreamScope(const Stream& s) : previous_(Stream::current(s.device())) {
  Stream::set_current(s);
}

StreamScope::~StreamScope() { Stream::set_current(previous_); }

Event::Event() : Event(default_device()) {}

Event::Event(const Device& device, bool enable_timing)
    : device_(device), timing_(enable_timing), handle_(std::make_shared<EventHandle>()) {
  handle_->device = device;
  if (device.is_gpu()) handle_->native = gpu_runtime::event_create(device.index, enable_timing);
}

void Event::record(const Stream* s) {
  const Stream stream = s ? *s : Stream::current(device_);
  check_same_device("Event.record", device_, stream.device());
  if (device_.is_gpu()) {
    gpu_runtime::event_record(device_.index, handle_->native, stream.native());
  } else {
    handle_->host_time = std::chrono::steady_clock::now();
  }
  handle_->recorded = true;
}

void Event::synchronize() const {
  if (device_.is_gpu()) gpu_runtime::event_synchronize(device_.index, handle_->native);
}

bool Event::query() const {
  return device_.is_cpu() ? true : gpu_runtime::event_query(device_.index, handle_->native);
}

float Event::elapsed_time(const Event& end) const {
  check_same_device("Event.elapsed_time", device_, end.device_);
  if (!timing_ || !end.timing_) {
    throw_value_error("Event.elapsed_time", "both events need enable_timing=True");
  }
  if (!handle_->recorded || !end.handle_->recorded) {
    throw_value_error("Event.elapsed_time", "both events must be recorded first");
  }
  if (device_.is_gpu()) return gpu_runtime::event_elapsed_ms(device_.index, handle_->native, end.handle_->native);
  return std::chrono::duration<float, std::milli>(end.handle_->host_time - handle_->host_time).count();
}

void Event::wait(const Stream& s) const {
  check_same_device("Event.wait", device_, s.device());
  if (device_.is_gpu() && handle_->recorded) gpu_runtime::stream_wait_event(device_.index, s.native(), handle_->native);
}

}  // namespace loom
