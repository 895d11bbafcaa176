// The op hook of a profiling session: one span per dispatched op, on the stream the op's
// work is queued on (the device's current stream, or a user kernel launch's own stream).
#include "loom/dispatch/profiling.h"

#include <cstring>
#include <mutex>
#include <string>

#include "loom/dispatch/dispatch.h"
#include "loom/runtime/stream.h"

namespace loom::profiler {
namespace {

// The input shapes as PyTorch's record_shapes prints them: "[2, 3], [3]" ("[]" for a 0-d array).
std::string shapes_text(ArrayRefs inputs) {
  std::string s;
  for (const Array& a : inputs) {
    if (!s.empty()) s += ", ";
    s += '[';
    for (int d = 0; d < a.ndim(); ++d) s += (d ? ", " : "") + std::to_string(a.shape()[d]);
    s += ']';
  }
  return s;
}

class OpTimer : public DispatchHook {
 public:
  void before(const OpEvent& e) override {
    const OpLabel* label = OpLabel::current();
    void* stream = nullptr;
    if (e.device.is_gpu())
      stream = label && label->has_stream() ? label->stream() : Stream::current_native(e.device.index);
    // Ops that only move data ("copy", "copyto", "copy_to_host", "from_host") are copies in
    // the summary, with their size: the written array's, or the read one's for a copy to
    // memory the caller owns.
    const bool copy = std::strncmp(e.op.name, "copy", 4) == 0 || std::strcmp(e.op.name, "from_host") == 0;
    if (label) {
      const char* detail = label->detail() ? label->detail() : e.op.family;
      begin_span(&e, Category::kernel, label->name(), detail, e.device, stream, -1, shapes_text(e.inputs));
    } else if (copy) {
      const int64_t bytes = !e.outputs.empty()  ? static_cast<int64_t>(e.outputs[0].nbytes())
                            : !e.inputs.empty() ? static_cast<int64_t>(e.inputs[0].nbytes())
                                                : -1;
      begin_span(&e, Category::copy, e.op.name, e.op.family, e.device, stream, bytes, shapes_text(e.inputs));
    } else {
      begin_span(&e, Category::kernel, e.op.name, e.op.family, e.device, stream, -1, shapes_text(e.inputs));
    }
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
