// Bindings of numpy.linalg's decompositions (ops/linalg_decomp.cpp) into loom.linalg, with
// NumPy 2's result tuples (SlogdetResult, EighResult).
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>

#include "bindings.h"

namespace loom::py {
namespace {

Array arg(nb::handle h) { return to_array(h, std::nullopt); }

char uplo_arg(const std::string& s, const char* op) {
  if (s != "L" && s != "U") throw std::invalid_argument(std::string("[") + op + "] UPLO argument must be 'L' or 'U'");
  return s[0];
}

}  // namespace

LOOM_BINDING_FAMILY(linalg_decomp, 51) {
  nb::module_ la = nb::borrow<nb::module_>(m.attr("linalg"));
  nb::object namedtuple = nb::module_::import_("collections").attr("namedtuple");
  nb::object slogdet_result = namedtuple("SlogdetResult", nb::make_tuple("sign", "logabsdet"));
  nb::object eigh_result = namedtuple("EighResult", nb::make_tuple("eigenvalues", "eigenvectors"));
  slogdet_result.attr("__module__") = "loom.linalg";
  eigh_result.attr("__module__") = "loom.linalg";
  la.attr("SlogdetResult") = slogdet_result;
  la.attr("EighResult") = eigh_result;
  la.def(
      "solve",
      [](nb::handle a, nb::handle b) {
        const Array x = arg(a), y = arg(b);
        nb::gil_scoped_release release;
        return solve(x, y);
      },
      nb::arg("a"), nb::arg("b"),
      "numpy.linalg.solve: x with a @ x == b, batched over leading axes (b of shape (n,) is one "
      "vector). LinAlgError for a singular matrix, naming its batch index.");
  la.def(
      "inv",
      [](nb::handle a) {
        const Array x = arg(a);
        nb::gil_scoped_release release;
        return inv(x);
      },
      nb::arg("a"), "numpy.linalg.inv, batched; LinAlgError for a singular matrix.");
  la.def(
      "det",
      [](nb::handle a) {
        const Array x = arg(a);
        nb::gil_scoped_release release;
        return det(x);
      },
      nb::arg("a"), "numpy.linalg.det, batched (sign * exp(log|det|) of one LU factorisation).");
  la.def(
      "slogdet",
      [slogdet_result](nb::handle a) {
        const Array x = arg(a);
        std::pair<Array, Array> r;
        {
          nb::gil_scoped_release release;
          r = slogdet(x);
        }
        return slogdet_result(nb::cast(r.first), nb::cast(r.second));
      },
      nb::arg("a"), "numpy.linalg.slogdet: (sign, logabsdet); a singular matrix gives (0, -inf).");
  la.def(
      "cholesky",
      [](nb::handle a, bool upper) {
        const Array x = arg(a);
        nb::gil_scoped_release release;
        return cholesky(x, upper);
      },
      nb::arg("a"), nb::kw_only(), nb::arg("upper") = false,
      "numpy.linalg.cholesky: L with a = L @ L.T (upper=True: U = L.T); LinAlgError for a matrix "
      "that is not positive definite, naming its batch index.");
  la.def(
      "eigh",
      [eigh_result](nb::handle a, const std::string& uplo) {
        const Array x = arg(a);
        const char u = uplo_arg(uplo, "eigh");
        std::pair<Array, Array> r;
        {
          nb::gil_scoped_release release;
          r = eigh(x, u);
        }
        return eigh_result(nb::cast(r.first), nb::cast(r.second));
      },
      nb::arg("a"), nb::arg("UPLO") = "L",
      "numpy.linalg.eigh: ascending eigenvalues and eigenvectors (columns) of symmetric matrices, "
      "reading the lower ('L') or upper ('U') triangle.");
  la.def(
      "eigvalsh",
      [](nb::handle a, const std::string& uplo) {
        const Array x = arg(a);
        const char u = uplo_arg(uplo, "eigvalsh");
        nb::gil_scoped_release release;
        return eigvalsh(x, u);
      },
      nb::arg("a"), nb::arg("UPLO") = "L", "numpy.linalg.eigvalsh: the eigenvalues of eigh, ascending.");
}

}  // namespace loom::py
