// Bindings of NumPy's memory-layout queries and conversions (ops/memory_layout.h).
#include "bindings.h"
#include "loom/ops/memory_layout.h"

namespace loom::py {

LOOM_BINDING_FAMILY(memory_layout, 37) {
  const nb::handle none = nb::none();
  m.def("may_share_memory",
        [](const Array& a, const Array& b, nb::handle) { return may_share_memory(a, b); },
        nb::arg("a"), nb::arg("b"), nb::arg("max_work").none() = none,
        "numpy.may_share_memory: whether the byte ranges of a and b overlap.");
  m.def("shares_memory",
        [](const Array& a, const Array& b, nb::handle) { return shares_memory(a, b); },
        nb::arg("a"), nb::arg("b"), nb::arg("max_work").none() = none,
        "numpy.shares_memory: whether some element of a overlaps some element of b (exact).");
  m.def("isfortran", [](const Array& a) { return isfortran(a); }, nb::arg("a"),
        "numpy.isfortran: Fortran-contiguous and not C-contiguous.");
  for (const bool fortran : {false, true}) {
    m.def(fortran ? "asfortranarray" : "ascontiguousarray",
          [fortran](nb::handle a, nb::handle dtype, nb::handle like) {
            if (!like.is_none() && !nb::isinstance<Array>(like))
              throw nb::type_error(fortran ? "[asfortranarray] like= must be a loom array"
                                           : "[ascontiguousarray] like= must be a loom array");
            std::optional<Device> device;  // like=: the new array goes to like's device
            if (!like.is_none()) device = nb::cast<const Array&>(like).device();
            nb::object arr = convert_to_array(a, to_optional_dtype(dtype), device, std::nullopt);
            const Array x = nb::cast<Array>(arr);
            const Array r = fortran ? asfortranarray(x) : ascontiguousarray(x);
            // Nothing to change: the array itself, as NumPy returns it (the same object).
            const bool same = r.data() == x.data() && r.dtype() == x.dtype() && r.shape() == x.shape() &&
                              r.strides() == x.strides();
            return same ? arr : nb::cast(r);
          },
          nb::arg("a"), nb::arg("dtype").none() = none, nb::kw_only(), nb::arg("like").none() = none,
          fortran ? "numpy.asfortranarray: a Fortran-ordered array (a itself when it is one)."
                  : "numpy.ascontiguousarray: a C-contiguous array of at least one dimension (a itself when it is one).");
  }
}

}  // namespace loom::py
