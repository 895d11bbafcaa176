// loom._CudaGraph: the C++ half of loom.cuda_graph (python/loom/cuda_graph.py holds the
// Python half: argument structure, the warm-up call, the cpu() path).
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "loom/transforms/cuda_graph.h"

namespace loom::py {

LOOM_BINDING_FAMILY(cuda_graph, 92) {
  nb::class_<CudaGraph>(m, "_CudaGraph",
                        "A CUDA graph being captured or replayed; use loom.cuda_graph, which drives it.")
      .def(nb::init<const Device&>(), nb::arg("device"))
      .def_prop_ro("device", &CudaGraph::device)
      .def_prop_ro("stream", [](const CudaGraph& g) { return g.stream(); },
                   "The graph's capture stream (the warm-up call runs on it).")
      .def("add_input", &CudaGraph::add_input, nb::arg("example"),
           "A new buffer of the graph holding a copy of `example`.")
      .def("begin_capture", &CudaGraph::begin_capture, nb::call_guard<nb::gil_scoped_release>())
      .def("end_capture", &CudaGraph::end_capture, nb::arg("outputs"))
      .def("abort_capture", &CudaGraph::abort_capture)
      .def_prop_ro("captured", &CudaGraph::captured)
      .def("replay", &CudaGraph::replay, nb::arg("args"),
           "Copies `args` into the graph's inputs and launches it on the current stream.")
      .def_prop_ro("inputs", [](const CudaGraph& g) { return g.inputs(); })
      .def_prop_ro("outputs", [](const CudaGraph& g) { return g.outputs(); });
}

}  // namespace loom::py
