// The sparse family's product (ops/sparse.h) in the private submodule loom._loom._sparse;
// loom.scipy.sparse's matrices call it.
#include "bindings.h"

namespace loom::py {

LOOM_BINDING_FAMILY(sparse, 12) {
  nb::module_ sp = m.def_submodule("_sparse", "Sparse products (private: loom.scipy.sparse is their public home).");
  sp.def(
      "csr_matmul",
      [](const Array& data, const Array& indices, const Array& indptr, int64_t rows, int64_t cols, const Array& x,
         bool transpose) {
        nb::gil_scoped_release release;
        return sparse::csr_matmul(data, indices, indptr, rows, cols, x, transpose);
      },
      nb::arg("data"), nb::arg("indices"), nb::arg("indptr"), nb::arg("rows"), nb::arg("cols"), nb::arg("x"),
      nb::arg("transpose") = false,
      "csr_matmul(data, indices, indptr, rows, cols, x, transpose=False)\n\nA @ x (A.T @ x with transpose) for the "
      "CSR matrix A of shape (rows, cols) (SciPy's data, indices, indptr; indices and indptr int32 or int64) and a "
      "dense 1-d or 2-d x; the result has the promoted float dtype. cuSPARSE on a GPU.");
}

}  // namespace loom::py
