// Bindings of numpy's packbits and unpackbits (ops/bit_packing.h).
#include <nanobind/stl/string.h>

#include "bindings.h"
#include "loom/ops/bit_packing.h"

namespace loom::py {

LOOM_BINDING_FAMILY(bit_packing, 39) {
  const nb::handle none = nb::none();
  m.def(
      "packbits",
      [](nb::handle a, nb::handle axis, const std::string& bitorder) {
        return packbits(to_array(a), to_optional_int_arg(axis, "packbits", "axis"), bitorder);
      },
      nb::arg("a"), nb::arg("axis").none() = none, nb::arg("bitorder") = "big",
      "numpy.packbits: truth values packed eight to a uint8 along axis (the flattened a when None).");
  m.def(
      "unpackbits",
      [](nb::handle a, nb::handle axis, nb::handle count, const std::string& bitorder) {
        return unpackbits(to_array(a), to_optional_int_arg(axis, "unpackbits", "axis"),
                          to_optional_int_arg(count, "unpackbits", "count"), bitorder);
      },
      nb::arg("a"), nb::arg("axis").none() = none, nb::arg("count").none() = none, nb::arg("bitorder") = "big",
      "numpy.unpackbits: the bits of a uint8 array along axis (the flattened a when None); count keeps that "
      "many (negative: drops that many from the end).");
}

}  // namespace loom::py
