// loom::lax's loops (loom/transforms/control_flow.h) for python/loom/transforms/lax.py,
// which flattens the carry's pytree and checks what the functions return.
#include <nanobind/stl/vector.h>

#include "bindings.h"

namespace loom::py {

LOOM_BINDING_FAMILY(control_flow, 91) {
  // The GIL stays held, as for jit: the traced functions take it recursively, and the loop's
  // ops run as eager ops do.
  m.def(
      "_while_loop",
      [](nb::object cond, nb::object body, const std::vector<Array>& init) {
        return lax::while_loop(python_array_fn(std::move(cond)), python_array_fn(std::move(body)), init);
      },
      nb::arg("cond"), nb::arg("body"), nb::arg("init"),
      "loom::lax::while_loop(cond, body, init): cond and body are functions of a list of arrays (the carry); "
      "cond returns [a bool scalar], body the next carry. Runs as one op (a primitive of its own under jit, "
      "vmap and grad).");
}

}  // namespace loom::py
