"""Distributions whose samples are vectors (the last axis): Dirichlet, multinomial,
multivariate normal and multivariate hypergeometric. `batch` is the shape of the samples
(size), each a vector of k values; a stream must be active (_stream.py)."""
import math
import warnings

import numpy as np

from .. import _loom
from . import _continuous as cont
from . import _discrete as disc
from . import _math as m


def dirichlet(batch, alpha, cdt, dev):
    """Normalised gammas, formed from their logarithms (softmax) so that tiny alphas, whose
    gammas underflow to 0, still give a distribution on the simplex."""
    shape = tuple(batch) + tuple(alpha.shape)
    n = math.prod(shape)
    lg = cont.log_standard_gamma(n, m.flat(alpha, shape), cdt, dev).reshape(shape)
    if n == 0:
        return lg
    e = _loom.exp(lg - _loom.max(lg, axis=-1, keepdims=True))
    return e / _loom.sum(e, axis=-1, keepdims=True)


def multinomial(batch, count, pvals, dev):
    """Counts by conditional binomials: category j gets Binomial(left, p_j / (p_j + ...
    + p_k)) of the trials the earlier ones left. pvals: host floats (one vector) or a loom
    array (..., k) broadcast against batch; count: a float or an array of batch's shape."""
    n = math.prod(batch)
    k = len(pvals) if isinstance(pvals, list) else pvals.shape[-1]
    left = m.flat(count, batch) if m.is_array(count) else _loom.full((n,), count, dtype=disc.F64, device=dev)
    rest = 1.0
    cols = []
    for j in range(k - 1):
        pj = pvals[j] if isinstance(pvals, list) else m.flat(pvals[..., j], batch)
        share = m.where(rest > 0, pj / m.where(rest > 0, rest, 1.0), 0.0)
        share = m.minimum(m.maximum(share, 0.0), 1.0)
        x = disc.binomial(n, left, share, dev)
        cols.append(x)
        left = left - x
        rest = rest - pj
    cols.append(left)
    return _loom.stack(cols, axis=-1).reshape(tuple(batch) + (k,))


def multivariate_normal(fn, batch, mean, cov, method, check_valid, tol, cdt, dev):
    """mean + z A^T with A A^T = cov, A from an SVD (NumPy's default), an eigendecomposition
    or a Cholesky factor; the PSD check costs one host sync."""
    k = mean.shape[0]
    psd = True
    if method == "cholesky":
        a = _loom.linalg.cholesky(cov)
    elif method == "eigh":
        s, u = _loom.linalg.eigh(cov)
        if check_valid != "ignore":
            psd = not bool(_loom.any(s < -tol))
        a = u * _loom.sqrt(_loom.abs(s))
    else:
        u, s, vh = _loom.linalg.svd(cov)
        if check_valid != "ignore":
            psd = bool(_loom.all(_loom.abs((vh.T * s) @ vh - cov) <= tol + tol * _loom.abs(cov)))
        a = (_loom.sqrt(s)[:, None] * vh).T
    if not psd:
        if check_valid == "raise":
            raise ValueError(f"[{fn}] covariance is not symmetric positive-semidefinite.")
        warnings.warn("covariance is not symmetric positive-semidefinite.", RuntimeWarning, stacklevel=4)
    n = math.prod(batch)
    z = m.normal(n * k, cdt, dev).reshape((n, k))
    return (mean + z @ a.T).reshape(tuple(batch) + (k,))


def multivariate_hypergeometric(batch, colors, nsample, dev):
    """Counts of each color among nsample drawn without replacement, color by color: color j
    is hypergeometric among the items the earlier colors left (NumPy's 'marginals'
    method; its 'count' method gives the same distribution)."""
    n = math.prod(batch)
    left = m.flat(nsample, batch) if m.is_array(nsample) else _loom.full((n,), nsample, dtype=disc.F64, device=dev)
    total = float(np.sum(colors))
    cols = []
    for c in colors[:-1]:
        total -= c
        x = disc.hypergeometric(n, float(c), total, left, dev)
        cols.append(x)
        left = left - x
    cols.append(left)
    return _loom.stack(cols, axis=-1).reshape(tuple(batch) + (len(colors),))
