"""Eigen, singular value and QR decompositions over loom.linalg (scipy.linalg.eigh, svd, qr)."""
import loom

from .. import _util
from ._basic import _from_triangle
from ._checks import conj_t, matrix
from ._triangular import cholesky, solve_triangular


def _check_square(a, name):
    a = _util.inexact(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f'expected square "{name}" matrix')
    return a


def eigh(a, b=None, *, lower=True, eigvals_only=False, overwrite_a=False, overwrite_b=False,
         type=1, check_finite=True, subset_by_index=None, subset_by_value=None, driver=None):
    """Eigenvalues (ascending) and eigenvectors of a Hermitian matrix, or of the generalized
    problem a v = w b v with b Hermitian positive definite (scipy.linalg.eigh; type 1 only).
    Only the `lower` (or upper) triangle of a and b is read."""
    a = _check_square(a, "a")
    _util.check_finite(a, check_finite)
    if type != 1:
        raise NotImplementedError("loom.scipy.linalg.eigh: only type=1 is implemented")
    if subset_by_index is not None and subset_by_value is not None:
        raise ValueError("Either index or value subset can be requested.")
    if a.shape[-1] == 0:
        w = loom.zeros(a.shape[:-1], dtype=a.real.dtype, device=a.device)
        return w if eigvals_only else (w, a.copy())
    uplo = "L" if lower else "U"
    if b is None:
        w, v = loom.linalg.eigh(a, UPLO=uplo)
    else:
        b = _check_square(b, "b")
        _util.check_finite(b, check_finite)
        if b.shape != a.shape:
            raise ValueError(f"wrong b dimensions {tuple(b.shape)}, should be {tuple(a.shape)}")
        dt = loom.result_type(a.dtype, b.dtype)
        a, b = a.astype(dt), b.astype(dt)
        a = _from_triangle(a, lower, True)
        low = cholesky(_from_triangle(b, lower, True), lower=True, check_finite=False)
        # C = L^-1 A L^-H; its eigenvectors y give v = L^-H y (v^H b v = I).
        c = solve_triangular(low, conj_t(solve_triangular(low, a, lower=True, check_finite=False)),
                             lower=True, check_finite=False)
        w, y = loom.linalg.eigh(c)
        v = solve_triangular(low, y, trans=2, lower=True, check_finite=False)
    if subset_by_index is not None:
        lo, hi = (int(i) for i in subset_by_index)
        n = a.shape[-1]
        if not 0 <= lo <= hi < n:
            raise ValueError(f"Requested eigenvalue indices are not valid. Valid range is [0, {n - 1}] "
                             f"and start <= end, but start={lo}, end={hi} is given")
        w, v = w[..., lo:hi + 1], v[..., lo:hi + 1]
    elif subset_by_value is not None:
        lo, hi = (float(x) for x in subset_by_value)
        if a.ndim != 2:
            raise NotImplementedError("subset_by_value needs a single matrix")
        keep = (w > lo) & (w <= hi)
        idx = loom.nonzero(keep)[0]
        w, v = loom.take(w, idx), loom.take(v, idx, axis=-1)
    return w if eigvals_only else (w, v)


def eigvalsh(a, b=None, *, lower=True, overwrite_a=False, overwrite_b=False, type=1,
             check_finite=True, subset_by_index=None, subset_by_value=None, driver=None):
    """The eigenvalues of eigh (scipy.linalg.eigvalsh)."""
    return eigh(a, b, lower=lower, eigvals_only=True, type=type, check_finite=check_finite,
                subset_by_index=subset_by_index, subset_by_value=subset_by_value)


def svd(a, full_matrices=True, compute_uv=True, overwrite_a=False, check_finite=True,
        lapack_driver="gesdd"):
    """(U, s, Vh) with a = U @ diag(s) @ Vh, or s alone (scipy.linalg.svd)."""
    a = matrix(a, check_finite)
    if lapack_driver not in ("gesdd", "gesvd"):
        raise ValueError(f'lapack_driver must be "gesdd" or "gesvd", not "{lapack_driver}"')
    if not compute_uv:
        return loom.linalg.svdvals(a)
    u, s, vh = loom.linalg.svd(a, full_matrices=full_matrices)
    return u, s, vh


def svdvals(a, overwrite_a=False, check_finite=True):
    """The singular values, descending (scipy.linalg.svdvals)."""
    return loom.linalg.svdvals(matrix(a, check_finite))


def qr(a, overwrite_a=False, lwork=None, mode="full", pivoting=False, check_finite=True):
    """QR decomposition (scipy.linalg.qr): mode 'full' gives Q (M, M) and R (M, N),
    'economic' Q (M, K) and R (K, N), 'r' the tuple (R,). Column pivoting and mode 'raw'
    are not implemented (loom.linalg has no geqp3)."""
    if mode not in ("full", "r", "economic", "raw"):
        raise ValueError("Mode argument should be one of ['full', 'r', 'economic', 'raw']")
    a = matrix(a, check_finite)
    if pivoting or mode == "raw":
        raise NotImplementedError("loom.scipy.linalg.qr: pivoting=True and mode='raw' are not implemented")
    if mode == "r":
        return (loom.linalg.qr(a, mode="complete")[1],)
    q, r = loom.linalg.qr(a, mode="complete" if mode == "full" else "reduced")
    return q, r
