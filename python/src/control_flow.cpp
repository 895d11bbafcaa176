// loom::lax's loops (loom/transforms/control_flow.h) for python/loom/transforms/lax.py,
// which flattens the carry's pytree and checks what the functions return.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
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
  m.def(
      "_scan",
      [](nb::object f, const std::vector<Array>& init, const std::vector<Array>& xs, std::optional<int64_t> length,
         bool reverse) {
        lax::ScanResult r = lax::scan(python_array_fn(std::move(f)), init, xs, length, reverse);
        return std::make_pair(std::move(r.carry), std::move(r.ys));
      },
      nb::arg("f"), nb::arg("init"), nb::arg("xs"), nb::arg("length") = nb::none(), nb::arg("reverse") = false,
      "loom::lax::scan(f, init, xs, length, reverse) -> (carry, ys): f is a function of a list of arrays (the "
      "carry, then one slice of each x) returning the next carry then the ys. Runs as one op (a primitive of its "
      "own under jit, vmap and grad).");
  m.def(
      "_switch",
      [](const Array& index, const std::vector<nb::object>& branches, const std::vector<Array>& operands, bool cond) {
        std::vector<ArrayFn> fns;
        for (const nb::object& b : branches) fns.push_back(python_array_fn(b));
        if (cond && fns.size() == 2) return lax::cond(index, fns[1], fns[0], operands);
        return lax::switch_(index, fns, operands);
      },
      nb::arg("index"), nb::arg("branches"), nb::arg("operands"), nb::arg("cond") = false,
      "loom::lax::switch_(index, branches, operands): each branch is a function of a list of arrays (the "
      "operands) returning a list of arrays of the same specs in every branch. Runs as one op that runs one "
      "branch (a primitive of its own under jit, vmap and grad). cond=True: lax::cond(index, branches[1], "
      "branches[0], operands), whose errors name cond.");
  m.def(
      "_checkpoint",
      [](nb::object f, const std::vector<Array>& args) { return checkpoint(python_array_fn(std::move(f)))(args); },
      nb::arg("f"), nb::arg("args"),
      "loom::checkpoint(f)(args): f is a function of a list of arrays returning a list of arrays; it runs as one op "
      "whose derivative recomputes f's forward values instead of storing them.");
  m.def(
      "_custom_vjp_call",
      [](nb::object fwd, nb::object bwd, const std::vector<Array>& args, nb::object num_out) {
        // Asked once, right after fwd is traced, inside this call (the GIL held).
        return custom_vjp_call(python_array_fn(std::move(fwd)), python_array_fn(std::move(bwd)), args,
                               [&num_out]() { return nb::cast<size_t>(num_out()); });
      },
      nb::arg("fwd"), nb::arg("bwd"), nb::arg("args"), nb::arg("num_out"),
      "loom::custom_vjp_call(fwd, bwd, args, num_out): fwd maps the args (a list of arrays) to the outputs then the "
      "residuals; num_out() (asked once fwd is traced) counts the outputs; bwd maps residuals + output cotangents "
      "to one cotangent per arg. One op; returns the outputs then the residuals.");
  m.def(
      "_custom_jvp_call",
      [](nb::object fn, nb::object jvp, const std::vector<Array>& args) {
        return custom_jvp_call(python_array_fn(std::move(fn)), python_array_fn(std::move(jvp)), args);
      },
      nb::arg("fn"), nb::arg("jvp"), nb::arg("args"),
      "loom::custom_jvp_call(fn, jvp, args): fn maps the args (a list of arrays) to its outputs; jvp maps primals + "
      "tangents to one tangent per output, linearly in the tangents. One op whose derivative is jvp's (reverse mode "
      "transposes it).");
}

}  // namespace loom::py
