#include "loom/runtime/stream.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "loom/core/error.h"
#include "loom/runtime/device_runtime.h"

namespace loom {

// Owns a created stream (never the default stream, which is a null handle); a stream made
// elsewhere, or one of CUDA's special handles, is only borrowed (owned = false).
struct StreamHandle {
  Device device;
  void* native = nullptr;
  bool owned = true;
  bool external = false;
  ~StreamHandle() {
    if (native && owned) {
      try {
        device_runtime(device).stream_destroy(device, native);
      } catch (...) {
        // Destroying a stream on a lost device cannot be reported from a destructor.
      }
    }
  }
};

struct EventHandle {
  Device device;
  void* native = nullptr;  // cudaEvent_t on a GPU, the record time on the CPU
  bool recorded = false;
  ~EventHandle() {
    if (native) {
      try {
        device_runtime(device).event_destroy(device, native);
      } catch (...) {
      }
    }
  }
};

namespace {
// Current stream per device kind and index for this thread; an empty slot means the
// default stream. (The CPU's streams are all its default stream, so its slots stay empty.)
constexpr int kDeviceTypes = 2;
thread_local std::vector<std::shared_ptr<StreamHandle>> t_current[kDeviceTypes];

std::vector<std::shared_ptr<StreamHandle>>& current_slots(const Device& d) {
  return t_current[static_cast<int>(d.type)];
}
}  // namespace

Stream::Stream() : Stream(current(default_device())) {}

Stream Stream::create(const Device& device, bool non_blocking) {
  void* native = device_runtime(device).stream_create(device, non_blocking);
  if (!native) return Stream(device, nullptr);  // a device with only its default stream
  auto h = std::make_shared<StreamHandle>();
  h->device = device;
  h->native = native;
  return Stream(device, std::move(h));
}

Stream Stream::default_stream(const Device& device) { return Stream(device, nullptr); }

namespace {
std::shared_ptr<StreamHandle> borrowed(const Device& device, void* native, bool external) {
  auto h = std::make_shared<StreamHandle>();
  h->device = device;
  h->native = native;
  h->owned = false;
  h->external = external;
  return h;
}
// cudaStreamLegacy and cudaStreamPerThread (cuda_runtime_api.h), which CPU-only builds lack.
void* const kStreamLegacy = reinterpret_cast<void*>(uintptr_t{1});
void* const kStreamPerThread = reinterpret_cast<void*>(uintptr_t{2});
}  // namespace

Stream Stream::legacy_default(const Device& device) {
  if (!device.is_gpu()) return default_stream(device);
  return Stream(device, borrowed(device, kStreamLegacy, false));
}

Stream Stream::per_thread_default(const Device& device) {
  if (!device.is_gpu()) return default_stream(device);
  return Stream(device, borrowed(device, kStreamPerThread, false));
}

Stream Stream::external(const Device& device, void* native) {
  if (!device.is_gpu()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(native)));
    throw UnsupportedError("[external_stream] " + device.str() + " has no CUDA streams: wrapping CUDA stream " + buf +
                           " needs a GPU device");
  }
  return Stream(device, borrowed(device, native, true));
}

Stream Stream::current(const Device& device) {
  const auto& slots = current_slots(device);
  if (device.index >= 0 && static_cast<size_t>(device.index) < slots.size()) {
    return Stream(device, slots[device.index]);
  }
  return Stream(device, nullptr);
}

void* Stream::current_native(int gpu_index) {
  const auto& slots = t_current[static_cast<int>(DeviceType::cuda)];
  if (gpu_index < 0 || static_cast<size_t>(gpu_index) >= slots.size()) return nullptr;
  const std::shared_ptr<StreamHandle>& h = slots[gpu_index];
  return h ? h->native : nullptr;
}

void Stream::set_current(const Stream& s) {
  auto& slots = current_slots(s.device_);
  if (!s.handle_ && static_cast<size_t>(s.device_.index) >= slots.size()) return;  // already the default
  if (slots.size() <= static_cast<size_t>(s.device_.index)) slots.resize(s.device_.index + 1);
  slots[s.device_.index] = s.handle_;
}

void* Stream::native() const { return handle_ ? handle_->native : nullptr; }

void Stream::synchronize() const { device_runtime(device_).stream_synchronize(device_, native()); }

bool Stream::query() const { return device_runtime(device_).stream_query(device_, native()); }

bool Stream::is_external() const { return handle_ && handle_->external; }

StreamScope::StreamScope(const Stream& s) : previous_(Stream::current(s.device())) {
  Stream::set_current(s);
}

StreamScope::~StreamScope() { Stream::set_current(previous_); }

Event::Event() : Event(default_device()) {}

Event::Event(const Device& device, bool enable_timing)
    : device_(device), timing_(enable_timing), handle_(std::make_shared<EventHandle>()) {
  handle_->device = device;
  handle_->native = device_runtime(device).event_create(device, enable_timing);
}

void Event::record(const Stream* s) {
  const Stream stream = s ? *s : Stream::current(device_);
  check_same_device("Event.record", device_, stream.device());
  device_runtime(device_).event_record(device_, handle_->native, stream.native());
  handle_->recorded = true;
}

void Event::synchronize() const { device_runtime(device_).event_synchronize(device_, handle_->native); }

bool Event::query() const { return device_runtime(device_).event_query(device_, handle_->native); }

float Event::elapsed_time(const Event& end) const {
  check_same_device("Event.elapsed_time", device_, end.device_);
  if (!timing_ || !end.timing_) {
    throw_value_error("Event.elapsed_time", "both events need enable_timing=True");
  }
  if (!handle_->recorded || !end.handle_->recorded) {
    throw_value_error("Event.elapsed_time", "both events must be recorded first");
  }
  return device_runtime(device_).event_elapsed_ms(device_, handle_->native, end.handle_->native);
}

void Event::wait(const Stream& s) const {
  check_same_device("Event.wait", device_, s.device());
  if (handle_->recorded) device_runtime(device_).stream_wait_event(device_, s.native(), handle_->native);
}

}  // namespace loom
