"""spsolve, for now by a dense factorization: A.toarray() and loom.linalg.solve on the
device (LAPACK on cpu(), cuSOLVER on a GPU). That costs O(n^2) memory and O(n^3) work, so it
is limited to MAX_ROWS rows until loom has a sparse direct solver (cuSOLVER's sparse QR or
cuDSS on a GPU); larger systems should use cg or gmres."""
import warnings

import numpy as np

import loom

from .._base import _spbase
from .._compressed import csr_matrix
from .._sputils import on_device

MAX_ROWS = 4096


class MatrixRankWarning(UserWarning):
    """The matrix is singular: spsolve returns NaN, as SciPy's does."""


def spsolve(A, b, permc_spec=None, use_umfpack=True):
    """Solve A x = b for a square sparse A (scipy.sparse.linalg.spsolve). b may be dense (1-d,
    or 2-d; an (n, 1) b gives a 1-d x, as in SciPy) or sparse (then x is sparse CSR). A
    singular A warns MatrixRankWarning and gives NaN. Dense inside: see the module's note."""
    if not isinstance(A, _spbase):
        A = csr_matrix(A)
    m, n = A.shape
    if m != n:
        raise ValueError(f"matrix must be square (has shape {A.shape})")
    if m > MAX_ROWS:
        raise NotImplementedError(f"spsolve: loom solves densely for now (A.toarray() and loom.linalg.solve), "
                                  f"up to {MAX_ROWS} rows; this matrix has {m}. Use cg or gmres for larger "
                                  f"systems.")
    sparse_b = isinstance(b, _spbase)
    rhs = b.toarray() if sparse_b else on_device(b, A.device)
    if rhs.ndim not in (1, 2) or rhs.shape[0] != m:
        raise ValueError(f"matrix - rhs dimension mismatch ({A.shape} - {rhs.shape[0] if rhs.ndim else 1})")
    vector = rhs.ndim == 1 or rhs.shape[1] == 1
    dt = loom.result_type(A.dtype, rhs.dtype)
    if dt.kind in "biu":
        dt = loom.float64
    a = A.toarray().astype(dt)
    rhs2 = rhs.reshape(m, -1).astype(dt)
    if m == 0:
        x = rhs2
    else:
        try:
            x = loom.linalg.solve(a, rhs2)
        except np.linalg.LinAlgError:
            warnings.warn("Matrix is exactly singular", MatrixRankWarning, stacklevel=2)
            x = loom.full(rhs2.shape, np.nan, dtype=dt, device=A.device)
    if vector:
        return x.reshape(m)
    if sparse_b:
        return A._container("csr")(x)
    return x
