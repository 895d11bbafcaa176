// The private half of loom.profiler (python/loom/profiler.py): start and stop the
// process-wide session, ranges. Events come back as plain tuples; Python shapes them.
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <tuple>
#include <vector>

#include "bindings.h"
#include "loom/dispatch/profiling.h"

namespace loom::py {
namespace {

// name, category, device, stream, thread, start_us, dur_us, bytes, detail, depth, shapes
using EventTuple = std::tuple<std::string, std::string, std::string, uint64_t, uint64_t, double, double, int64_t,
                              std::string, int, std::string>;

std::vector<EventTuple> stop_session() {
  std::vector<profiler::Record> records;
  {
    nb::gil_scoped_release release;  // waits for the devices
    records = profiler::stop_session();
  }
  std::vector<EventTuple> out;
  out.reserve(records.size());
  for (profiler::Record& r : records)
    out.emplace_back(std::move(r.name), profiler::category_name(r.category), r.device.str(), r.stream, r.thread,
                     r.start_us, r.dur_us, r.bytes, std::string(r.detail), r.depth, std::move(r.shapes));
  return out;
}

}  // namespace

LOOM_BINDING_FAMILY(profiler, 90) {
  m.def("_profiler_start", &profiler::start_session,
        "Starts the process-wide profiling session (RuntimeError if one is active).");
  m.def("_profiler_stop", &stop_session,
        "Ends the session and returns its events as (name, category, device, stream, thread, start_us, "
        "dur_us, bytes, detail, depth, shapes) tuples sorted by start; [] when none is active.");
  m.def("_profiler_active", &profiler::session_active, "Whether a profiling session is recording.");
  m.def("_profiler_range_push", &profiler::range_push, nb::arg("name"),
        "Opens an NVTX range and, while profiling, a range event on this thread.");
  m.def("_profiler_range_pop", &profiler::range_pop, "Closes this thread's innermost range.");
}

}  // namespace loom::py
