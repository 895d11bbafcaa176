"""Triangular solves and Cholesky: solve_triangular, cholesky, cho_factor, cho_solve.

loom.linalg has no triangular solve (trsm), so solve_triangular masks the triangle SciPy
reads and solves it with loom.linalg.solve (an LU): correct, but about twice the work of trsm."""
import numpy as np

import loom

from .. import _util
from ._checks import common, conj_t, square


def _triangle(a, lower, unit_diagonal=False):
    t = loom.tril(a) if lower else loom.triu(a)
    if unit_diagonal:
        n = a.shape[-1]
        eye = loom.eye(n, dtype=loom.bool_, device=a.device)
        t = loom.where(eye, loom.ones((), dtype=a.dtype, device=a.device), t)
    return t


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False,
                     check_finite=True):
    """Solve a x = b for x, assuming a is a triangular matrix (scipy.linalg.solve_triangular)."""
    a, b = common(a, b)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("expected square matrix")
    # SciPy's batches: a (..., n, n); b (n,) a vector for every matrix, else (..., n, k)
    # matrices, the batch axes broadcast
    if b.ndim == 0 or a.shape[-1] != b.shape[0 if b.ndim == 1 else -2]:
        raise ValueError(f"shapes of a {tuple(a.shape[-2:])} and b {tuple(b.shape)} are incompatible")
    _util.check_finite(a, check_finite)
    _util.check_finite(b, check_finite)
    trans = {0: 0, 1: 1, 2: 2, "N": 0, "T": 1, "C": 2}.get(trans)
    if trans is None:
        raise ValueError("trans must be one of 0, 1, 2, 'N', 'T' or 'C'")
    if a.shape[-1] == 0:
        shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + tuple(b.shape[-2:]) if b.ndim > 1 else \
            tuple(a.shape[:-2]) + tuple(b.shape)
        return loom.zeros(shape, dtype=b.dtype, device=b.device)
    t = _triangle(a, lower, unit_diagonal)
    if trans == 1:
        t = t.swapaxes(-1, -2)
    elif trans == 2:
        t = conj_t(t)
    try:
        return loom.linalg.solve(t, b)
    except np.linalg.LinAlgError:
        k = int(loom.argmin(loom.all(loom.diagonal(t, axis1=-2, axis2=-1).reshape((-1, t.shape[-1])) != 0, axis=0)))
        raise np.linalg.LinAlgError(f"singular matrix: resolution failed at diagonal {k}") from None


def cholesky(a, lower=False, overwrite_a=False, check_finite=True):
    """The Cholesky factor of a Hermitian positive-definite matrix: upper (a = U^H U) unless
    lower (a = L L^H) (scipy.linalg.cholesky)."""
    a = square(a, check_finite=check_finite)
    if a.shape[-1] == 0:
        return a.copy()
    # loom.linalg.cholesky reads the lower triangle; SciPy reads the one it returns.
    if not lower:
        a = conj_t(loom.triu(a))
    try:
        low = loom.linalg.cholesky(a)
    except np.linalg.LinAlgError as e:
        raise np.linalg.LinAlgError(f"the array is not positive definite ({e})") from None
    return low if lower else conj_t(low)


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True):
    """(c, lower): the Cholesky factor in c's `lower` (or upper) triangle; the other triangle
    keeps a's entries, as LAPACK's potrf leaves them (scipy.linalg.cho_factor)."""
    a = square(a, check_finite=check_finite)
    f = cholesky(a, lower=lower, check_finite=False)
    rest = loom.triu(a, 1) if lower else loom.tril(a, -1)
    return f + rest, lower


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True):
    """Solve a x = b given cho_factor's (c, lower) (scipy.linalg.cho_solve)."""
    c, lower = c_and_lower
    c, b = common(c, b)
    if c.ndim != 2 or c.shape[0] != c.shape[1]:
        raise ValueError("The factored matrix c is not square.")
    if b.ndim == 0 or c.shape[1] != b.shape[0]:
        raise ValueError(f"incompatible dimensions ({tuple(c.shape)} and {tuple(b.shape)})")
    _util.check_finite(c, check_finite)
    _util.check_finite(b, check_finite)
    if c.shape[0] == 0:
        return loom.zeros(b.shape, dtype=b.dtype, device=b.device)
    f = _triangle(c, lower)
    if lower:
        y = loom.linalg.solve(f, b)
        return loom.linalg.solve(conj_t(f), y)
    y = loom.linalg.solve(conj_t(f), b)
    return loom.linalg.solve(f, y)
