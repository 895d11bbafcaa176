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
  nb::object eig_result = namedtuple("EigResult", nb::make_tuple("eigenvalues", "eigenvectors"));
  nb::object svd_result = namedtuple("SVDResult", nb::make_tuple("U", "S", "Vh"));
  nb::object qr_result = namedtuple("QRResult", nb::make_tuple("Q", "R"));
  for (nb::object* t : {&slogdet_result, &eigh_result, &eig_result, &svd_result, &qr_result}) {
    t->attr("__module__") = "loom.linalg";
    la.attr(t->attr("__name__")) = *t;
  }
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
  la.def(
      "eig",
      [eig_result](nb::handle a) {
        const Array x = arg(a);
        std::pair<Array, Array> r;
        {
          nb::gil_scoped_release release;
          r = eig(x);
        }
        return eig_result(nb::cast(r.first), nb::cast(r.second));
      },
      nb::arg("a"),
      "numpy.linalg.eig: eigenvalues and unit-norm right eigenvectors (columns) of general square "
      "matrices. The results are complex for every input (NumPy returns real arrays when every "
      "eigenvalue of a real matrix is real; here the dtype never depends on the values).");
  la.def(
      "eigvals",
      [](nb::handle a) {
        const Array x = arg(a);
        nb::gil_scoped_release release;
        return eigvals(x);
      },
      nb::arg("a"), "numpy.linalg.eigvals: the eigenvalues of eig, complex for every input.");
  la.def(
      "svd",
      [svd_result](nb::handle a, bool full_matrices, bool compute_uv, bool hermitian) -> nb::object {
        const Array x = arg(a);
        if (!compute_uv) {
          Array s;
          {
            nb::gil_scoped_release release;
            s = svdvals(x);
          }
          return nb::cast(s);
        }
        SvdResult r;
        {
          nb::gil_scoped_release release;
          r = svd(x, full_matrices);
        }
        return svd_result(nb::cast(r.u), nb::cast(r.s), nb::cast(r.vh));
      },
      nb::arg("a"), nb::arg("full_matrices") = true, nb::arg("compute_uv") = true, nb::arg("hermitian") = false,
      "numpy.linalg.svd: (U, S, Vh) with a = U @ diag(S) @ Vh, S descending, batched; S alone with "
      "compute_uv=False. hermitian is accepted and ignored (the general SVD is used).");
  la.def(
      "svdvals",
      [](nb::handle a) {
        const Array x = arg(a);
        nb::gil_scoped_release release;
        return svdvals(x);
      },
      nb::arg("x"), "numpy.linalg.svdvals: the singular values, descending.");
  la.def(
      "qr",
      [qr_result](nb::handle a, const std::string& mode) -> nb::object {
        const Array x = arg(a);
        std::pair<Array, Array> r;
        {
          nb::gil_scoped_release release;
          r = qr(x, mode);
        }
        if (mode == "r") return nb::cast(r.second);
        if (mode == "raw") return nb::make_tuple(r.first, r.second);
        return qr_result(nb::cast(r.first), nb::cast(r.second));
      },
      nb::arg("a"), nb::arg("mode") = "reduced",
      "numpy.linalg.qr: mode 'reduced' (Q (m, k), R (k, n)), 'complete' (Q (m, m), R (m, n)), 'r' "
      "(R only) or 'raw' (LAPACK's h and tau), batched.");
  la.def(
      "pinv",
      [](nb::handle a, nb::handle rcond, bool hermitian, nb::handle rtol) {
        const Array x = arg(a);
        const nb::handle tol = rtol.is_none() ? rcond : rtol;
        if (nb::isinstance<Array>(tol) || nb::hasattr(tol, "__array__")) {
          // NumPy's array tolerance: one per matrix of the batch.
          const Array t = to_array(tol, x.device());
          nb::gil_scoped_release release;
          return pinv(x, t);
        }
        std::optional<double> r;
        if (!tol.is_none()) r = nb::cast<double>(nb::float_(tol));
        nb::gil_scoped_release release;
        return pinv(x, r);
      },
      nb::arg("a"), nb::arg("rcond").none() = nb::none(), nb::arg("hermitian") = false, nb::kw_only(),
      nb::arg("rtol").none() = nb::none(),
      "numpy.linalg.pinv through the SVD; singular values at or below rcond (or rtol) * max(s) are "
      "dropped (default max(m, n) * eps).");
  la.def(
      "matrix_rank",
      [](nb::handle a, nb::handle tol, bool hermitian, nb::handle rtol) {
        const Array x = arg(a);
        if (tol.is_none() && (nb::isinstance<Array>(rtol) || nb::hasattr(rtol, "__array__"))) {
          // An array rtol (the Array API's): one per matrix of the batch.
          const Array r = to_array(rtol, x.device());
          nb::gil_scoped_release release;
          return matrix_rank(x, r);
        }
        std::optional<double> t;
        if (!tol.is_none()) t = nb::cast<double>(nb::float_(tol));
        std::optional<double> rt;
        if (!rtol.is_none()) rt = nb::cast<double>(nb::float_(rtol));
        nb::gil_scoped_release release;
        return matrix_rank(x, t, rt);
      },
      nb::arg("A"), nb::arg("tol").none() = nb::none(), nb::arg("hermitian") = false, nb::kw_only(),
      nb::arg("rtol").none() = nb::none(),
      "numpy.linalg.matrix_rank: the number of singular values above tol (default max(s) * max(m, n) * eps, "
      "or rtol * max(s)).");
  la.def(
      "lstsq",
      [](nb::handle a, nb::handle b, nb::handle rcond) {
        const Array x = arg(a), y = arg(b);
        std::optional<double> r;
        if (!rcond.is_none()) r = nb::cast<double>(nb::float_(rcond));
        LstsqResult res;
        {
          nb::gil_scoped_release release;
          res = lstsq(x, y, r);
        }
        int64_t rank = 0;
        res.rank.copy_to_host(&rank);
        return nb::make_tuple(res.x, res.residuals, rank, res.s);
      },
      nb::arg("a"), nb::arg("b"), nb::arg("rcond").none() = nb::none(),
      "numpy.linalg.lstsq through the SVD: (x, residuals, rank, s).");
}

}  // namespace loom::py
