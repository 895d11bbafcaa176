// Bindings of numpy's lexsort, partition, argpartition and interp (ops/ordering.h).
#include "bindings.h"
#include "loom/ops/ordering.h"

namespace loom::py {
namespace {

std::vector<int64_t> kth_arg(nb::handle kth, const char* op) {
  std::vector<int64_t> k;
  if (PyLong_Check(kth.ptr()) || PyIndex_Check(kth.ptr())) return {to_int_arg(kth, op, "kth")};
  for (nb::handle h : kth) k.push_back(to_int_arg(h, op, "kth"));
  return k;
}

}  // namespace

LOOM_BINDING_FAMILY(ordering, 38) {
  const nb::handle none = nb::none();
  m.def("lexsort", [](nb::handle keys, int64_t axis) { return lexsort(to_arrays(keys), axis); }, nb::arg("keys"),
        nb::arg("axis") = -1, "numpy.lexsort: indices sorting by the last key, then the ones before it.");
  m.def(
      "partition", [](nb::handle a, nb::handle kth, int64_t axis) { return partition(to_array(a), kth_arg(kth, "partition"), axis); },
      nb::arg("a"), nb::arg("kth"), nb::arg("axis") = -1,
      "numpy.partition: the kth elements in sorted position, smaller before and larger after (here: sorted).");
  m.def(
      "argpartition",
      [](nb::handle a, nb::handle kth, int64_t axis) { return argpartition(to_array(a), kth_arg(kth, "argpartition"), axis); },
      nb::arg("a"), nb::arg("kth"), nb::arg("axis") = -1, "numpy.argpartition: the indices of partition.");
  m.def(
      "interp",
      [](nb::handle x, nb::handle xp, nb::handle fp, nb::handle left, nb::handle right, nb::handle period) {
        const Array a = to_array(x);
        return interp(a, to_array(xp, a.device()), to_array(fp, a.device()), to_optional_float_arg(left, "interp", "left"),
                      to_optional_float_arg(right, "interp", "right"), to_optional_float_arg(period, "interp", "period"));
      },
      nb::arg("x"), nb::arg("xp"), nb::arg("fp"), nb::arg("left").none() = none, nb::arg("right").none() = none,
      nb::arg("period").none() = none, "numpy.interp: piecewise-linear interpolation (xp increasing; with period=, angles of that period).");
}

}  // namespace loom::py
