// loom::vmap (loom/transforms/vmap.h) for python/loom/_vmap.py, which flattens pytrees,
// broadcasts in_axes over them and places the results' batch axes.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "loom/transforms/vmap.h"

namespace loom::py {

LOOM_BINDING_FAMILY(vmap, 91) {
  m.def(
      "_vmap",
      [](nb::object fn, const std::vector<std::optional<int>>& in_axes, nb::object out_axes_of,
         std::optional<int64_t> axis_size, const std::vector<Array>& args) {
        auto held = std::make_shared<nb::object>(std::move(out_axes_of));
        OutAxesFn axes = [held](size_t n) {
          nb::gil_scoped_acquire gil;
          return nb::cast<std::vector<std::optional<int>>>((*held)(n));
        };
        const ArrayFn v = vmap_deferred_out_axes(python_array_fn(std::move(fn)), in_axes, std::move(axes), axis_size);
        nb::gil_scoped_release release;  // the traced function takes it back
        return v(args);
      },
      nb::arg("fn"), nb::arg("in_axes"), nb::arg("out_axes_of"), nb::arg("axis_size").none(), nb::arg("args"),
      "loom::vmap(fn, in_axes, out_axes_of, axis_size)(args): fn, a function of a list of arrays, mapped over "
      "axis in_axes[i] of args[i] (None: shared); result j has its batch axis at out_axes_of(n)[j], called "
      "after tracing with the number of results (None: unmapped, refused for a result that depends on the "
      "mapped axis).");
}

}  // namespace loom::py
