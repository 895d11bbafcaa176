// loom::vmap (loom/transforms/vmap.h) for python/loom/_vmap.py, which flattens pytrees,
// broadcasts in_axes over them and places the results' batch axes.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "loom/transforms/vmap.h"

namespace loom::py {
namespace {

// A Python function of a list of arrays to a list of arrays, called with the GIL.
ArrayFn python_list_fn(nb::object fn) {
  auto held = std::make_shared<nb::object>(std::move(fn));
  return [held](const std::vector<Array>& args) {
    nb::gil_scoped_acquire gil;
    nb::list in;
    for (const Array& a : args) in.append(nb::cast(a));
    return nb::cast<std::vector<Array>>((*held)(in));
  };
}

}  // namespace

LOOM_BINDING_FAMILY(vmap, 91) {
  m.def(
      "_vmap",
      [](nb::object fn, const std::vector<std::optional<int>>& in_axes, const std::vector<int>& out_axes,
         std::optional<int64_t> axis_size, const std::vector<Array>& args) {
        const ArrayFn v = vmap(python_list_fn(std::move(fn)), in_axes, out_axes, axis_size);
        nb::gil_scoped_release release;  // the traced function takes it back
        return v(args);
      },
      nb::arg("fn"), nb::arg("in_axes"), nb::arg("out_axes"), nb::arg("axis_size").none(), nb::arg("args"),
      "loom::vmap(fn, in_axes, out_axes, axis_size)(args): fn, a function of a list of arrays, mapped over "
      "axis in_axes[i] of args[i] (None: shared); result j has its batch axis at out_axes[j] (empty: 0).");
}

}  // namespace loom::py
