"""Structured matrices: block_diag, toeplitz, circulant, hankel, companion. The index tables
come from the shapes (NumPy on the host); the values are gathered on the arrays' device."""
import numpy as np

import loom

from .. import _util


def _gather(vals, index):
    """vals[..., index] for an index table (NumPy) of any shape."""
    flat = loom.asarray(index.reshape(-1), device=vals.device)
    return loom.take(vals, flat, axis=-1).reshape(vals.shape[:-1] + index.shape)


def toeplitz(c, r=None):
    """The Toeplitz matrix with first column c and first row r (r defaults to conj(c));
    r[0] is ignored. Leading axes of c and r are batch axes (scipy.linalg.toeplitz)."""
    c = _util.asarray(c)
    r = c.conj() if r is None else _util.asarray(r)
    if c.ndim == 0:
        c = c.reshape(1)
    if r.ndim == 0:
        r = r.reshape(1)
    m, n = c.shape[-1], r.shape[-1]
    batch = np.broadcast_shapes(c.shape[:-1], r.shape[:-1])
    dt = loom.result_type(c.dtype, r.dtype)
    vals = loom.concatenate([loom.broadcast_to(loom.flip(c, axis=-1), batch + (m,)).astype(dt),
                             loom.broadcast_to(r[..., 1:], batch + (n - 1,)).astype(dt)], axis=-1)
    index = (m - 1) - np.arange(m)[:, None] + np.arange(n)[None, :]
    return _gather(vals, index)


def circulant(c):
    """The circulant matrix with first column c; leading axes are batch axes (scipy.linalg.circulant)."""
    c = _util.asarray(c)
    if c.ndim == 0:
        c = c.reshape(1)
    n = c.shape[-1]
    index = (np.arange(n)[:, None] - np.arange(n)[None, :]) % max(n, 1)
    return _gather(c, index)


def hankel(c, r=None):
    """The Hankel matrix with first column c and last row r (zeros by default); r[0] is
    ignored (scipy.linalg.hankel)."""
    c = _util.asarray(c).reshape(-1)
    r = loom.zeros_like(c) if r is None else _util.asarray(r).reshape(-1)
    m, n = c.shape[0], r.shape[0]
    dt = loom.result_type(c.dtype, r.dtype)
    vals = loom.concatenate([c.astype(dt), r[1:].astype(dt)])
    index = np.arange(m)[:, None] + np.arange(n)[None, :]
    return _gather(vals, index)


def companion(a):
    """The companion matrix of the polynomial with coefficients a (scipy.linalg.companion)."""
    a = _util.asarray(a)
    if a.ndim != 1:
        raise ValueError("Incorrect shape for `a`.  `a` must be one-dimensional.")
    if a.shape[0] < 2:
        raise ValueError("The length of `a` must be at least 2.")
    n = a.shape[0] - 1
    first = -a[1:] / a[0]
    dt = first.dtype
    below = loom.eye(n - 1, n, dtype=dt, device=a.device)
    return loom.concatenate([first[None, :], below], axis=0)


def block_diag(*arrs):
    """The block-diagonal matrix of the given arrays; 0-d and 1-d inputs count as (1, 1) and
    (1, n) blocks (scipy.linalg.block_diag)."""
    if not arrs:
        arrs = ([],)
    arrs = [_util.asarray(a) for a in arrs]
    bad = [k for k, a in enumerate(arrs) if a.ndim > 2]
    if bad:
        raise ValueError(f"arguments in the following positions have dimension greater than 2: {bad}")
    arrs = [a.reshape(1, -1) if a.ndim < 2 else a for a in arrs]
    dt = loom.result_type(*[a.dtype for a in arrs])
    rows = sum(a.shape[0] for a in arrs)
    cols = sum(a.shape[1] for a in arrs)
    out = loom.zeros((rows, cols), dtype=dt, device=_util.device_of(*arrs))
    r = c = 0
    for a in arrs:
        out = out.at[r:r + a.shape[0], c:c + a.shape[1]].set(a.astype(dt))
        r, c = r + a.shape[0], c + a.shape[1]
    return out
