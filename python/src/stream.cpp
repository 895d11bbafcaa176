// Streams and events: loom.Stream (a context manager making itself current),
// loom.current_stream(), loom.Event.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bindings.h"

#include <nanobind/stl/string.h>

namespace loom::py {
namespace {

// `with stream:` scopes of this thread, innermost last.
thread_local std::vector<std::unique_ptr<StreamScope>> t_stream_scopes;

Device device_or_default(nb::handle d) {
  const Device dev = d.is_none() ? default_device() : to_device(d);
  check_device_present(dev);  // streams and events of an absent GPU: its first use
  return dev;
}

uintptr_t stream_ptr(const Stream& s) { return reinterpret_cast<uintptr_t>(s.native()); }

}  // namespace

void init_stream(nb::module_& m) {
  nb::class_<Stream>(m, "Stream",
                     "An ordered queue of work on one device. `with s:` makes it the current "
                     "stream of its device in this thread. CPU streams are synchronous stand-ins.")
      .def("__init__",
           [](Stream* self, nb::handle device, bool non_blocking) {
             new (self) Stream(Stream::create(device_or_default(device), non_blocking));
           },
           nb::arg("device") = nb::none(), nb::arg("non_blocking") = false,
           "A new stream on `device` (the default device when None). non_blocking=True: not "
           "ordered with the legacy default stream (CuPy's and CUDA's meaning), so its work "
           "overlaps kernels queued there; order it with events.")
      .def_prop_ro("device", [](const Stream& s) { return s.device(); }, "The stream's device.")
      .def_prop_ro("ptr", &stream_ptr, "The cudaStream_t as an int (0 for the default stream and on the CPU).")
      .def("synchronize", &Stream::synchronize, nb::call_guard<nb::gil_scoped_release>(),
           "Waits until all work queued on the stream is done.")
      .def("query", &Stream::query, "True when all queued work has finished.")
      .def("wait_event", [](const Stream& s, const Event& e) { e.wait(s); }, nb::arg("event"),
           "Makes later work on this stream wait for `event`, without blocking the host.")
      .def("record",
           [](const Stream& s, const Event* e) {
             Event ev = e ? *e : Event(s.device());
             ev.record(s);
             return ev;
           },
           nb::arg("event").none() = nb::none(), "Records `event` (a new one when None) on this stream and returns it.")
      .def("__enter__",
           [](nb::handle self) {
             t_stream_scopes.push_back(std::make_unique<StreamScope>(nb::cast<const Stream&>(self)));
             return nb::borrow(self);
           },
           "Makes this stream current on its device until the with-block ends.")
      .def("__exit__",
           [](const Stream&, nb::handle, nb::handle, nb::handle) {
             if (!t_stream_scopes.empty()) t_stream_scopes.pop_back();
           },
           nb::arg("exc_type").none(), nb::arg("exc_value").none(), nb::arg("traceback").none(),
           "Restores the previous current stream.")
      .def("__eq__",
           [](const Stream& a, nb::handle b) { return nb::isinstance<Stream>(b) && a == nb::cast<const Stream&>(b); },
           nb::arg("other").none(), "Same device and same native stream.")
      .def("__hash__", [](const Stream& s) { return nb::hash(nb::make_tuple(s.device().index, stream_ptr(s))); },
           "Hash of (device, ptr).")
      .def("__repr__",
           [](const Stream& s) {
             char buf[32];
             std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(stream_ptr(s)));
             return "<loom.Stream " + s.device().str() + " " + buf + ">";
           },
           "<loom.Stream gpu(0) 0x...>");

  m.def("current_stream", [](nb::handle d) { return Stream::current(device_or_default(d)); },
        nb::arg("device") = nb::none(),
        "The stream ops on `device` (the default device when None) enqueue to in this thread.");
  m.def("default_stream", [](nb::handle d) { return Stream::default_stream(device_or_default(d)); },
        nb::arg("device") = nb::none(), "The default (null) stream of `device`.");

  nb::class_<Event>(m, "Event", "A marker in a stream: wait for it, or time between two of them.")
      .def("__init__",
           [](Event* self, nb::handle device, bool timing) { new (self) Event(device_or_default(device), timing); },
           nb::arg("device") = nb::none(), nb::arg("enable_timing") = true,
           "A new event on `device` (the default device when None).")
      .def("record",
           [](Event& e, const Stream* s) { e.record(s); },
           nb::arg("stream").none() = nb::none(),
           "Records the event on `stream` (the device's current stream when None).")
      .def("synchronize", &Event::synchronize, nb::call_guard<nb::gil_scoped_release>(),
           "Waits until the work before the recorded point is done.")
      .def("query", &Event::query, "True when the work before the recorded point has finished.")
      .def("elapsed_time", &Event::elapsed_time, nb::arg("end"),
           "Milliseconds from this event to `end`; both must have been recorded with timing enabled.")
      .def("wait",
           [](const Event& e, const Stream* s) { e.wait(s ? *s : Stream::current(e.device())); },
           nb::arg("stream").none() = nb::none(),
           "Makes `stream` (the current one when None) wait for this event without blocking the host.")
      .def_prop_ro("device", [](const Event& e) { return e.device(); }, "The event's device.")
      .def("__repr__", [](const Event& e) { return "<loom.Event " + e.device().str() + ">"; }, "<loom.Event gpu(0)>");
}

}  // namespace loom::py
