// Binding of numpy.gradient (ops/gradient.h).
#include "bindings.h"
#include "loom/ops/gradient.h"

namespace loom::py {

LOOM_BINDING_FAMILY(gradient, 37) {
  const nb::handle none = nb::none();
  m.def(
      "gradient",
      [](nb::handle f, nb::args varargs, nb::handle axis, int edge_order) -> nb::object {
        const Array a = to_array(f);
        std::vector<GradientSpacing> spacing;
        for (nb::handle v : varargs) {
          GradientSpacing s;
          if (PyFloat_Check(v.ptr()) || PyLong_Check(v.ptr()) || (nb::isinstance<Array>(v) && nb::cast<const Array&>(v).ndim() == 0) ||
              (!nb::isinstance<Array>(v) && nb::len(nb::borrow(numpy_module()).attr("shape")(v)) == 0))
            s.h = nb::cast<double>(nb::float_(v));
          else
            s.x = to_array(v, a.device());
          spacing.push_back(s);
        }
        std::vector<Array> g = gradient(a, spacing, to_axes(axis, "gradient"), edge_order);
        if (g.size() == 1) return nb::cast(g[0]);
        nb::list out;
        for (Array& x : g) out.append(nb::cast(std::move(x)));
        return nb::tuple(out);
      },
      nb::arg("f"), nb::arg("varargs"), nb::kw_only(), nb::arg("axis").none() = none, nb::arg("edge_order") = 1,
      "numpy.gradient: central differences inside and one-sided ones at the edges, per axis (a tuple for several).");
}

}  // namespace loom::py
