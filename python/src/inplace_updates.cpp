// Bindings of numpy's fill_diagonal, place, put and putmask (ops/inplace_updates.h): each
// writes into the loom array it is given.
#include <nanobind/stl/string.h>

#include "bindings.h"
#include "loom/ops/inplace_updates.h"

namespace loom::py {
namespace {

// A value written into a: a Python int that does not fit a's dtype raises OverflowError,
// as NumPy 2's assignment does.
Array written(nb::handle v, const Array& a) {
  check_int_fits(v, a.dtype());
  return to_array(v, a.device());
}

}  // namespace

LOOM_BINDING_FAMILY(inplace_updates, 39) {
  m.def(
      "fill_diagonal",
      [](const Array& a, nb::handle val, bool wrap) { fill_diagonal(a, written(val, a), wrap); }, nb::arg("a"),
      nb::arg("val"), nb::arg("wrap") = false,
      "numpy.fill_diagonal: writes val (repeated cyclically) onto the main diagonal of a, in place; wrap restarts "
      "a tall matrix's diagonal after n + 1 rows.");
  m.def(
      "place",
      [](const Array& arr, nb::handle mask, nb::handle vals) {
        place(arr, to_array(mask, arr.device()), written(vals, arr));
      },
      nb::arg("arr"), nb::arg("mask"), nb::arg("vals"),
      "numpy.place: writes the first N values of vals (repeated cyclically) where mask is true, in place.");
  m.def(
      "put",
      [](const Array& a, nb::handle ind, nb::handle v, const std::string& mode) {
        put(a, to_array(ind, a.device()), written(v, a), mode);
      },
      nb::arg("a"), nb::arg("ind"), nb::arg("v"), nb::arg("mode") = "raise",
      "numpy.put: a.flat[ind] = v (v repeated cyclically), in place; mode 'raise', 'wrap' or 'clip'.");
  cls.def(
      "put",
      [](const Array& a, nb::handle indices, nb::handle values, const std::string& mode) {
        put(a, to_array(indices, a.device()), written(values, a), mode);
      },
      nb::arg("indices"), nb::arg("values"), nb::arg("mode") = "raise",
      "ndarray.put: self.flat[indices] = values (repeated cyclically), in place, as loom.put.");
  m.def(
      "putmask",
      [](const Array& a, nb::handle mask, nb::handle values) {
        putmask(a, to_array(mask, a.device()), written(values, a));
      },
      nb::arg("a"), nb::arg("mask"), nb::arg("values"),
      "numpy.putmask: a.flat[i] = values.flat[i % len(values)] where mask.flat[i], in place.");
}

}  // namespace loom::py
