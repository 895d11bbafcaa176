// loom._DispatchRecorder: records every op that passes the dispatch point (dispatch/
// dispatch.h), for the tests that prove it is the only way in and, later, for the
// profiler. Private: the public profiler API is its own issue.
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "bindings.h"
#include "loom/dispatch/dispatch.h"

namespace loom::py {
namespace {

using Record = std::tuple<std::string, std::string, std::string, bool>;  // name, family, device, traceable

class Recorder : public DispatchHook {
 public:
  ~Recorder() override { stop(); }
  void start() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (active_) return;
    add_dispatch_hook(this);
    active_ = true;
  }
  void stop() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!active_) return;
    remove_dispatch_hook(this);
    active_ = false;
  }
  void after(const OpEvent& e) override {
    std::lock_guard<std::mutex> lock(mutex_);
    events_.emplace_back(e.op.name, e.op.family, e.device.str(), e.op.traceable);
  }
  std::vector<Record> events() {
    std::lock_guard<std::mutex> lock(mutex_);
    return events_;
  }
  void clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    events_.clear();
  }

 private:
  std::mutex mutex_;
  bool active_ = false;
  std::vector<Record> events_;
};

}  // namespace

LOOM_BINDING_FAMILY(dispatch, 90) {
  nb::class_<Recorder>(m, "_DispatchRecorder",
                       "Records each op that reaches a backend through loom's dispatch point: "
                       "start(), run ops, events() -> [(name, family, device, traceable)], stop().")
      .def(nb::init<>())
      .def("start", &Recorder::start, "Registers the recorder as a dispatch hook.")
      .def("stop", &Recorder::stop, "Unregisters it; the events stay.")
      .def("events", &Recorder::events, "The ops recorded since start() or clear(), in order.")
      .def("clear", &Recorder::clear, "Forgets the recorded ops.");
}

}  // namespace loom::py
