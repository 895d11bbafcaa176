"""solve, inv, det, norm, lstsq, pinv over loom.linalg, with SciPy's arguments and checks."""
import numpy as np

import loom

from .. import _util
from ._checks import common, conj_t, square
from ._triangular import solve_triangular

_ASSUME = {None, "gen", "general", "sym", "symmetric", "her", "hermitian", "pos", "positive definite",
           "diagonal", "tridiagonal", "banded", "upper triangular", "lower triangular"}


def _from_triangle(a, lower, hermitian):
    """The symmetric (Hermitian) matrix that a's `lower` (or upper) triangle stands for."""
    t = loom.tril(a, -1) if lower else loom.triu(a, 1)
    other = conj_t(t) if hermitian else t.swapaxes(-1, -2)
    d = loom.diagonal(a, axis1=-2, axis2=-1)
    if hermitian and d.dtype.kind == "c":
        d = d.real.astype(a.dtype)
    n = a.shape[-1]
    return t + other + loom.eye(n, dtype=a.dtype, device=a.device) * d[..., None, :]


def solve(a, b, lower=False, overwrite_a=False, overwrite_b=False, check_finite=True,
          assume_a=None, transposed=False):
    """Solve a x = b (scipy.linalg.solve). assume_a='sym'/'her'/'pos' reads only the lower
    (lower=True) or upper triangle of a, as SciPy does; 'upper/lower triangular' and
    'diagonal' use that structure; the rest factor a general matrix."""
    if assume_a not in _ASSUME:
        raise ValueError(f"{assume_a!r} is not a recognized matrix structure")
    a, b = common(a, b)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"Expected square matrix, got a1.shape={tuple(a.shape)}")
    vector = b.ndim == 1
    bb = b[:, None] if vector else b
    if bb.ndim < 1 or bb.shape[-2] != a.shape[-1]:
        raise ValueError(f"incompatible shapes: a1.shape={tuple(a.shape)} and b1.shape={tuple(bb.shape)}")
    _util.check_finite(a, check_finite)
    _util.check_finite(b, check_finite)
    if transposed:
        a = a.swapaxes(-1, -2)
    if a.shape[-1] == 0:
        return loom.zeros(b.shape, dtype=b.dtype, device=b.device)
    if assume_a in ("sym", "symmetric", "her", "hermitian", "pos", "positive definite"):
        a = _from_triangle(a, lower, assume_a not in ("sym", "symmetric"))
    elif assume_a == "diagonal":
        x = bb / loom.diagonal(a, axis1=-2, axis2=-1)[..., :, None]
        return x[..., 0] if vector else x
    elif assume_a in ("upper triangular", "lower triangular") and a.ndim == 2:
        return solve_triangular(a, b, lower=assume_a.startswith("lower"), check_finite=False)
    try:
        x = loom.linalg.solve(a, bb)
    except np.linalg.LinAlgError:
        raise np.linalg.LinAlgError("Matrix is singular.") from None
    return x[..., 0] if vector else x


def inv(a, overwrite_a=False, check_finite=True):
    """The inverse of a square matrix (scipy.linalg.inv)."""
    a = square(a, "a1", check_finite)
    try:
        return loom.linalg.inv(a)
    except np.linalg.LinAlgError:
        raise np.linalg.LinAlgError("singular matrix") from None


def det(a, overwrite_a=False, check_finite=True):
    """The determinant of a square matrix (scipy.linalg.det)."""
    a = _util.inexact(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"Last 2 dimensions of the array must be square but received shape {tuple(a.shape)}.")
    _util.check_finite(a, check_finite)
    if a.shape[-1] == 0:
        return loom.ones(a.shape[:-2], dtype=a.dtype, device=a.device)
    return loom.linalg.det(a)


def norm(a, ord=None, axis=None, keepdims=False, check_finite=True):
    """Matrix or vector norm (scipy.linalg.norm: numpy.linalg.norm's arguments)."""
    a = _util.inexact(a)
    _util.check_finite(a, check_finite)
    return loom.linalg.norm(a, ord=ord, axis=axis, keepdims=keepdims)


def lstsq(a, b, cond=None, overwrite_a=False, overwrite_b=False, check_finite=True, lapack_driver=None):
    """(x, residues, rank, s): the least-squares solution of a x = b (scipy.linalg.lstsq)."""
    a, b = common(a, b)
    if a.ndim != 2:
        raise ValueError("Input array a should be 2D")
    if b.ndim == 0 or b.shape[0] != a.shape[0]:
        raise ValueError("Shape mismatch: a and b should have the same number of rows "
                         f"({a.shape[0]} != {b.shape[0] if b.ndim else 1}).")
    _util.check_finite(a, check_finite)
    _util.check_finite(b, check_finite)
    x, res, rank, s = loom.linalg.lstsq(a, b, rcond=cond)
    return x, res, rank, s


def pinv(a, *, atol=None, rtol=None, return_rank=False, check_finite=True):
    """The Moore-Penrose pseudo-inverse (scipy.linalg.pinv): singular values at most
    max(atol, rtol * s_max) count as zero; rtol defaults to max(M, N) * eps."""
    a = _util.inexact(a)
    _util.check_finite(a, check_finite)
    u, s, vh = loom.linalg.svd(a, full_matrices=False)
    atol = 0.0 if atol is None else atol
    if rtol is None:
        rtol = max(a.shape[-2:]) * float(loom.finfo(s.dtype).eps)
    smax = loom.max(s, axis=-1, keepdims=True) if s.shape[-1] else s
    cut = loom.maximum(atol, rtol * smax)
    keep = s > cut
    sinv = loom.where(keep, 1 / loom.where(keep, s, loom.ones_like(s)), loom.zeros_like(s))
    out = conj_t(vh) @ (sinv[..., :, None] * conj_t(u))
    return (out, loom.sum(keep, axis=-1)) if return_rank else out
