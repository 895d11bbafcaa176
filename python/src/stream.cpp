// Streams and events: loom.Stream (a context manager making itself current),
// loom.current_stream(), loom.Event; Numba's stream names (loom.cuda) on top of them.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bindings.h"

#include <nanobind/stl/string.h>

namespace loom::py {
namespace {

// `with stream:` scopes of this thread, innermost last: the stream current before each. Kept
// as plain Streams, not StreamScopes: a thread that ends inside a scope (a use() without its
// with-block) drops them without restoring, because restoring would write the current-stream
// slots of runtime/stream.cpp, thread_locals that may be destroyed before these (a crash
// seen on the GPU).
thread_local std::vector<Stream> t_previous_streams;

Device device_or_default(nb::handle d) {
  const Device dev = d.is_none() ? default_device() : to_device(d);
  check_device_present(dev);  // streams and events of an absent GPU: its first use
  return dev;
}

uintptr_t stream_ptr(const Stream& s) { return reinterpret_cast<uintptr_t>(s.native()); }

// What Stream.auto_synchronize() returns (Numba's context manager): `with` gives the stream
// and synchronizes it when the block ends without an exception.
struct AutoSynchronize {
  nb::object stream;
};

// "<loom.Stream gpu(0) 0x1 (legacy default stream)>": CUDA's special handles and borrowed
// streams say so (the CPU's streams are all its default stream, 0x0).
std::string stream_repr(const Stream& s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(stream_ptr(s)));
  std::string r = "<loom.Stream " + s.device().str() + " " + buf;
  if (s.device().is_gpu() && stream_ptr(s) == 1) {
    r += " (legacy default stream)";
  } else if (s.device().is_gpu() && stream_ptr(s) == 2) {
    r += " (per-thread default stream)";
  } else if (s.is_external()) {
    r += " (external)";
  }
  return r + ">";
}

}  // namespace

void init_stream(nb::module_& m) {
  nb::class_<AutoSynchronize>(m, "_StreamAutoSynchronize",
                              "What Stream.auto_synchronize() returns: `with` gives the stream and "
                              "synchronizes it at the end of the block.")
      .def("__enter__", [](const AutoSynchronize& a) { return a.stream; }, "The stream.")
      .def("__exit__",
           [](const AutoSynchronize& a, nb::handle exc_type, nb::handle, nb::handle) {
             if (exc_type.is_none()) {  // as Numba's: an exception leaves without waiting
               const Stream& s = nb::cast<const Stream&>(a.stream);
               nb::gil_scoped_release release;
               s.synchronize();
             }
             return false;
           },
           nb::arg("exc_type").none(), nb::arg("exc_value").none(), nb::arg("traceback").none(),
           "Synchronizes the stream unless the block raised; never swallows the exception.");

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
      .def_prop_ro("handle", &stream_ptr, "Numba's name for ptr: the cudaStream_t as an int.")
      .def_prop_ro("external", &Stream::is_external,
                   "True for a stream made by other code (external_stream()), which loom never destroys.")
      .def("__int__", &stream_ptr, "ptr (Numba's int(stream)).")
      .def("auto_synchronize",
           [](nb::handle self) { return AutoSynchronize{nb::borrow(self)}; },
           "Numba's `with s.auto_synchronize():` gives the stream and synchronizes it when the block "
           "ends (not when it raises); the stream is not made current.")
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
             const Stream& s = nb::cast<const Stream&>(self);
             t_previous_streams.push_back(Stream::current(s.device()));
             Stream::set_current(s);
             return nb::borrow(self);
           },
           "Makes this stream current on its device until the with-block ends.")
      .def("__exit__",
           [](const Stream&, nb::handle, nb::handle, nb::handle) {
             if (t_previous_streams.empty()) return;
             Stream::set_current(t_previous_streams.back());
             t_previous_streams.pop_back();
           },
           nb::arg("exc_type").none(), nb::arg("exc_value").none(), nb::arg("traceback").none(),
           "Restores the previous current stream.")
      .def("__eq__",
           [](const Stream& a, nb::handle b) { return nb::isinstance<Stream>(b) && a == nb::cast<const Stream&>(b); },
           nb::arg("other").none(), "Same device and same native stream.")
      .def("__hash__", [](const Stream& s) { return nb::hash(nb::make_tuple(s.device().index, stream_ptr(s))); },
           "Hash of (device, ptr).")
      .def("__repr__", &stream_repr, "<loom.Stream gpu(0) 0x...>");

  m.def("current_stream", [](nb::handle d) { return Stream::current(device_or_default(d)); },
        nb::arg("device") = nb::none(),
        "The stream ops on `device` (the default device when None) enqueue to in this thread.");
  m.def("default_stream", [](nb::handle d) { return Stream::default_stream(device_or_default(d)); },
        nb::arg("device") = nb::none(), "The default (null) stream of `device`.");
  m.def("legacy_default_stream", [](nb::handle d) { return Stream::legacy_default(device_or_default(d)); },
        nb::arg("device") = nb::none(),
        "CUDA's legacy default stream (handle 1, cudaStreamLegacy) of `device` (the default device when "
        "None); on the CPU its default stream.");
  m.def("per_thread_default_stream", [](nb::handle d) { return Stream::per_thread_default(device_or_default(d)); },
        nb::arg("device") = nb::none(),
        "The calling thread's per-thread default stream (handle 2, cudaStreamPerThread) of `device` (the "
        "default device when None); on the CPU its default stream.");
  m.def("external_stream",
        [](nb::handle ptr, nb::handle d) {
          const int64_t p = to_int_arg(ptr, "external_stream", "ptr");
          if (p < 0) throw_value_error("external_stream", "ptr must be a cudaStream_t (an int >= 0), not " + std::to_string(p));
          return Stream::external(device_or_default(d), reinterpret_cast<void*>(static_cast<uintptr_t>(p)));
        },
        nb::arg("ptr").none(), nb::arg("device") = nb::none(),
        "A loom.Stream over a CUDA stream made by other code (`ptr`: its cudaStream_t as an int) on GPU "
        "`device` (the default device when None); loom never destroys it, so its owner must keep it alive "
        "while loom uses it. The CPU has no CUDA streams: NotImplementedError there.");

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
