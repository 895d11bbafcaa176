// Reverse- and forward-mode differentiation (loom/transforms/autodiff.h). python/loom/_grad.py
// is the API users call: it flattens pytrees, picks argnums and has_aux, and calls these on
// lists of arrays.
#include <nanobind/stl/function.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "loom/ops/stop_gradient.h"
#include "loom/transforms/autodiff.h"

namespace loom::py {
namespace {

// A Python function of a list of arrays to a list of arrays, called with the GIL.
ArrayFn array_fn(nb::object fn) {
  auto held = std::shared_ptr<nb::object>(new nb::object(std::move(fn)), [](nb::object* p) {
    nb::gil_scoped_acquire gil;
    delete p;
  });
  return [held](const std::vector<Array>& args) {
    nb::gil_scoped_acquire gil;
    nb::list in;
    for (const Array& a : args) in.append(nb::cast(a));
    return nb::cast<std::vector<Array>>((*held)(in));
  };
}

// None stands for a zero cotangent or tangent.
std::vector<Array> arrays(const std::vector<std::optional<Array>>& v) {
  std::vector<Array> out;
  out.reserve(v.size());
  for (const auto& a : v) out.push_back(a ? *a : Array());
  return out;
}

// The pullback of one vjp call, callable from Python any number of times.
struct Pullback {
  HookedPullback fn;
};

}  // namespace

LOOM_BINDING_FAMILY(autodiff, 91) {
  nb::class_<Pullback>(m, "_Pullback", "The cotangent map of one loom::vjp call (loom.vjp is the Python API).")
      .def("__call__", [](const Pullback& p, const std::vector<std::optional<Array>>& cts, nb::object ready) {
        const std::vector<Array> in = arrays(cts);
        GradReadyHook hook;
        if (!ready.is_none()) {
          hook = [&ready](size_t i, const Array& ct) {
            nb::gil_scoped_acquire gil;
            ready(i, ct);
          };
        }
        nb::gil_scoped_release release;  // the traced function is not called again, but rules may be
        return p.fn(in, hook);
      }, nb::arg("cotangents"), nb::arg("ready") = nb::none(),
           "Cotangents of the outputs (None: zero) -> cotangents of the arguments. ready(i, ct), if given, "
           "is called with argument i's cotangent as soon as the backward pass has finished it.");
  m.def("_vjp", [](nb::object fn, const std::vector<Array>& primals) {
    ArrayFn f = array_fn(std::move(fn));
    std::pair<std::vector<Array>, HookedPullback> r;
    {
      nb::gil_scoped_release release;  // the trace callback takes it back
      r = vjp_with_hook(f, primals);
    }
    return std::make_pair(std::move(r.first), Pullback{std::move(r.second)});
  }, nb::arg("fn"), nb::arg("primals"), "loom::vjp on a function of a list of arrays: (outputs, pullback).");
  m.def("_jvp", [](nb::object fn, const std::vector<Array>& primals, const std::vector<std::optional<Array>>& tangents) {
    ArrayFn f = array_fn(std::move(fn));
    const std::vector<Array> t = arrays(tangents);
    nb::gil_scoped_release release;
    return jvp(f, primals, t);
  }, nb::arg("fn"), nb::arg("primals"), nb::arg("tangents"),
        "loom::jvp on a function of a list of arrays: (outputs, output tangents).");
  m.def("_stop_gradient", [](const Array& x) { return stop_gradient(x); }, nb::arg("x"),
        "x, as a constant to grad: no derivative flows through it.");
}

}  // namespace loom::py
