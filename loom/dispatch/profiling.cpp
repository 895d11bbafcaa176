// The op hook of a profiling session: one span per dispatched op, on the stream the op's
// work is queued on (the device's current stream, or a user kernel launch's own stream).
#include "loom/dispatch/profiling.h"

#include <cstring>
#include <mutex>

#include "loom/dispatch/dispatch.h"
#include "loom/runtime/stream.h"

namespace loom::profiler {
namespace {

class OpTimer : public DispatchHook {
 public:
  void before(const OpEvent& e) override {
    const OpLabel* label = OpLabel::current();
    void* stream = nullptr;
    if (e.device.is_gpu())
      stream = label && label->has_stream() ? label->stream() : Stream::current_native(e.device.index);
    // Ops that only move data ("copy_to_host", "copy") are copies in the summary.
    const Category cat = std::strncmp(e.op.name, "copy", 4) == 0 ? Category::copy : Category::kernel;
    if (label) begin_span(&e, cat, label->name(), "user", e.device, stream);
    else begin_span(&e, cat, e.op.name, e.op.family, e.device, stream);
  }
  void after(const OpEvent& e) override { end_span(&e); }
};

OpTimer g_timer;
std::mutex g_mu;  // start and stop from several threads register the hook once

}  // namespace

void start_session() {
  std::lock_guard<std::mutex> lock(g_mu);
  start();  // throws while a session is active, before the hook is added twice
  add_dispatch_hook(&g_timer);
}

std::vector<Record> stop_session() {
  std::lock_guard<std::mutex> lock(g_mu);
  if (!active()) return {};
  remove_dispatch_hook(&g_timer);
  return stop();
}

}  // namespace loom::profiler
