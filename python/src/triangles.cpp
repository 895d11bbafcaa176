// Bindings of numpy's tri, tril, triu, diag and diagflat (ops/triangles.h).
#include "bindings.h"
#include "loom/ops/triangles.h"

namespace loom::py {

LOOM_BINDING_FAMILY(triangles, 31) {
  m.def(
      "tri",
      [](nb::handle n_h, nb::handle m_h, nb::handle k_h, nb::handle dtype, nb::handle device) {
        const int64_t n = to_int_arg(n_h, "tri", "N"), k = to_int_arg(k_h, "tri", "k");
        return tri(n, to_optional_int_arg(m_h, "tri", "M"), k, dtype.is_none() ? float64 : to_dtype(dtype),
                   to_optional_device(device));
      },
      nb::arg("N"), nb::arg("M").none() = nb::none(), nb::arg("k") = 0, nb::arg("dtype").none() = nb::none(),
      nb::kw_only(), nb::arg("device").none() = nb::none(),
      "numpy.tri: an N x M array with ones at and below diagonal k (float64 when dtype is None).");
  m.def(
      "tril", [](nb::handle a, int64_t k) { return tril(to_array(a, std::nullopt), k); }, nb::arg("m"),
      nb::arg("k") = 0, "numpy.tril: a copy with the elements above diagonal k of the last two axes zeroed.");
  m.def(
      "triu", [](nb::handle a, int64_t k) { return triu(to_array(a, std::nullopt), k); }, nb::arg("m"),
      nb::arg("k") = 0, "numpy.triu: a copy with the elements below diagonal k of the last two axes zeroed.");
  m.def(
      "diag", [](nb::handle v, int64_t k) { return diag(to_array(v, std::nullopt), k); }, nb::arg("v"),
      nb::arg("k") = 0,
      "numpy.diag: the square matrix with 1-d v on diagonal k, or diagonal k of a 2-d v (a view).");
  m.def(
      "diagflat", [](nb::handle v, int64_t k) { return diagflat(to_array(v, std::nullopt), k); }, nb::arg("v"),
      nb::arg("k") = 0, "numpy.diagflat: the square matrix with the flattened v on diagonal k.");
}

}  // namespace loom::py
