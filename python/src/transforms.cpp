// The transforms' C++ objects (loom/transforms/). python/loom/transforms.py is the API
// users call: it flattens pytrees, sorts out static arguments and calls these.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"

namespace loom::py {

ArrayFn python_array_fn(nb::object fn) {
  // Copies of the function travel with traced programs (a loop's body, a custom_vjp's bwd),
  // into code that runs without the GIL (vmap releases it): the object is shared, and its
  // last owner takes the GIL to drop it.
  auto held = std::shared_ptr<nb::object>(new nb::object(std::move(fn)), [](nb::object* o) {
    nb::gil_scoped_acquire gil;
    delete o;
  });
  return [held](const std::vector<Array>& args) {
    nb::gil_scoped_acquire gil;
    nb::list in;
    for (const Array& a : args) in.append(nb::cast(a));
    nb::object out = (*held)(in);
    return nb::cast<std::vector<Array>>(out);
  };
}

LOOM_BINDING_FAMILY(transforms, 90) {
  (void)cls;
  nb::class_<Jitted>(m, "_Jit",
                     "loom::Jitted: a function of a list of arrays traced once per signature "
                     "(loom.jit is the Python API).")
      .def("__init__",
           [](Jitted* self, nb::object fn) { new (self) Jitted(python_array_fn(std::move(fn))); },
           nb::arg("fn"))
      .def(
          "__call__",
          [](const Jitted& j, const std::vector<Array>& args, uint64_t static_key) {
            // The GIL stays held, as for eager ops: releasing and taking it back costs more
            // than a small plan's run, and the trace callback takes it recursively.
            size_t plan = 0;
            std::vector<Array> out = j(args, static_key, &plan);
            return std::make_pair(std::move(out), plan);
          },
          nb::arg("args"), nb::arg("static_key") = 0,
          "Runs the plan of these arguments' signature: (outputs, plan index).")
      .def_prop_ro("num_traces", &Jitted::num_traces, "How many signatures have been traced.")
      .def(
          "ops", [](const Jitted& j, size_t plan) {
            std::vector<std::string> names;
            for (const TracedOp& op : j.graph(plan).ops) names.emplace_back(op.op->name);
            return names;
          },
          nb::arg("plan"), "The names of the ops plan `plan` recorded, in order.");
  m.def("_is_tracing", &is_tracing, "Whether this thread is tracing a function (inside jit, vmap or grad).");
}

}  // namespace loom::py
