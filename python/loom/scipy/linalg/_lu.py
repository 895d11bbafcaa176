"""LU with partial pivoting: lu_factor, lu_solve, lu.

loom.linalg has no LU of its own (its solve/inv/det factor internally and keep the factors),
so lu_factor runs Doolittle elimination with partial pivoting on loom ops, one column per
step: min(M, N) steps of a few ops each, batched over leading axes. Exact to LAPACK's
getrf up to rounding (same pivots: the first largest |entry| of each column)."""
import loom

from .. import _util
from ._checks import common, matrix
from ._triangular import solve_triangular


def _getrf(a):
    """(lu, piv) of a stack (..., M, N): LAPACK getrf's result, piv 0-based."""
    m, n = a.shape[-2:]
    rows = loom.arange(m, device=a.device)
    pivots = []
    for k in range(min(m, n)):
        col = a[..., k:, k]
        size = loom.abs(col.real) + loom.abs(col.imag) if col.dtype.kind == "c" else loom.abs(col)  # izamax's measure
        p = loom.argmax(size, axis=-1) + k                      # (...,)
        pivots.append(p)
        row_k = a[..., k:k + 1, :]
        row_p = loom.take_along_axis(a, p[..., None, None] * loom.ones((1, n), dtype=p.dtype, device=a.device), axis=-2)
        is_k = (rows == k)[:, None]
        is_p = (rows[:, None] == p[..., None, None])
        a = loom.where(is_k, row_p, loom.where(is_p, row_k, a))
        if k + 1 < m:
            pivot = a[..., k:k + 1, k:k + 1]
            below = a[..., k + 1:, k:k + 1]
            # A zero pivot leaves the column as it is (getrf reports it in info).
            safe = loom.where(pivot == 0, loom.ones_like(pivot), pivot)
            l = loom.where(pivot == 0, below, below / safe)
            a = a.at[..., k + 1:, k:k + 1].set(l)
            if k + 1 < n:
                a = a.at[..., k + 1:, k + 1:].add(-l * a[..., k:k + 1, k + 1:])
    if pivots:
        piv = loom.stack(pivots, axis=-1).astype(loom.int32)
    else:
        piv = loom.zeros(a.shape[:-2] + (0,), dtype=loom.int32, device=a.device)
    return a, piv


def _perm_from_piv(piv, m):
    """The row order getrf's interchanges produce: a[perm] = L @ U."""
    perm = loom.arange(m, device=piv.device).astype(loom.int64)
    ar = perm
    piv = piv.astype(loom.int64)
    for i in range(piv.shape[-1]):
        j = piv[..., i:i + 1]
        pj = loom.take_along_axis(perm, j, axis=-1)
        pi = perm[..., i:i + 1]
        perm = loom.where(ar == i, pj, loom.where(ar == j, pi, perm))
    return perm


def lu_factor(a, overwrite_a=False, check_finite=True):
    """(lu, piv): the LU factorization of a with partial pivoting, L (unit diagonal) below
    the diagonal of lu and U on and above it; row i was interchanged with row piv[i]
    (scipy.linalg.lu_factor)."""
    a = matrix(a, check_finite=check_finite)
    return _getrf(a)


def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
    """Solve a x = b (trans=0), a^T x = b (1) or a^H x = b (2) given lu_factor's result
    (scipy.linalg.lu_solve)."""
    lu, piv = lu_and_piv
    lu, b = common(lu, b)
    if lu.ndim != 2 or lu.shape[0] != lu.shape[1] or b.ndim == 0 or b.shape[0] != lu.shape[0]:
        raise ValueError(f"Shapes of lu {tuple(lu.shape)} and b {tuple(b.shape)} are incompatible")
    _util.check_finite(b, check_finite)
    trans = {0: 0, 1: 1, 2: 2, "N": 0, "T": 1, "C": 2}.get(trans)
    if trans is None:
        raise ValueError("trans must be one of 0, 1, 2")
    n = lu.shape[0]
    if n == 0:
        return loom.zeros(b.shape, dtype=b.dtype, device=b.device)
    perm = _perm_from_piv(_util.asarray(piv), n)
    if trans == 0:
        y = solve_triangular(lu, loom.take(b, perm, axis=0), lower=True, unit_diagonal=True, check_finite=False)
        return solve_triangular(lu, y, lower=False, check_finite=False)
    y = solve_triangular(lu, b, trans=trans, lower=False, check_finite=False)
    z = solve_triangular(lu, y, trans=trans, lower=True, unit_diagonal=True, check_finite=False)
    inverse = loom.argsort(perm)
    return loom.take(z, inverse, axis=0)


def lu(a, permute_l=False, overwrite_a=False, check_finite=True, p_indices=False):
    """a = P @ L @ U (scipy.linalg.lu): P a permutation matrix (or, with p_indices, the row
    indices p with a = L[p] @ U), L unit lower trapezoidal, U upper trapezoidal. With
    permute_l, (P @ L, U)."""
    a = matrix(a, check_finite=check_finite)
    m, n = a.shape[-2:]
    k = min(m, n)
    f, piv = _getrf(a)
    eye = loom.eye(m, k, dtype=a.dtype, device=a.device)
    low = loom.tril(f[..., :, :k], -1) + eye
    up = loom.triu(f[..., :k, :])
    perm = _perm_from_piv(piv, m)                  # a[perm] = L @ U
    p = loom.argsort(perm)                         # a = L[p] @ U
    if permute_l:
        return loom.take_along_axis(low, p[..., :, None] * loom.ones((1, k), dtype=p.dtype, device=a.device), axis=-2), up
    if p_indices:
        return p, low, up
    # SciPy's P is real, but for a 1 x 1 matrix (its shortcut) it has a's dtype.
    real = a.real.dtype if a.dtype.kind == "c" and (m, n) != (1, 1) else a.dtype
    pm = (perm[..., None, :] == loom.arange(m, device=a.device)[:, None]).astype(real)
    return pm, low, up
