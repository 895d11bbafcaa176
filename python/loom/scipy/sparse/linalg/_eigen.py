"""eigsh: a few eigenpairs of a Hermitian operator by the thick-restarted Lanczos method
with full reorthogonalization, all on the device (ARPACK's role in SciPy).

Each cycle extends an orthonormal basis V to ncv vectors (each new A v orthogonalized
against all of V twice, as matrix products), takes the Ritz pairs of V^H (A V) with
loom.linalg.eigh, and keeps the wanted ones plus a few more with the next basis vector as
the start of the next cycle (a Krylov-Schur restart: A keeps mapping the kept Ritz vectors
into their span plus that vector). A Ritz pair has converged when its residual, which is
its coupling to the next basis vector, is at most tol * max(|theta|, eps**(2/3)) (ARPACK's
test) or ncv * eps * max|theta| (the floor that rounding leaves here).
Host reads: the norm of each new vector (one float per Lanczos step: a zero norm means an
invariant subspace, which needs a fresh direction), and per cycle the ncv Ritz values (to
pick the wanted ones) with the last row of their vectors (for the residuals)."""
import warnings

import numpy as np

import loom

from .._sputils import on_device
from ._interface import aslinearoperator, operator_device
from ._krylov import orthogonalize

_WHICH = ("LM", "SM", "LA", "SA", "BE")


class ArpackNoConvergence(RuntimeError):
    """eigsh did not converge within maxiter cycles; .eigenvalues and .eigenvectors hold the
    pairs that did (SciPy's exception of the same name)."""

    def __init__(self, msg, eigenvalues, eigenvectors):
        super().__init__(msg)
        self.eigenvalues, self.eigenvectors = eigenvalues, eigenvectors


def _order(theta, which, count):
    """Indices of the `count` wanted Ritz values, most wanted first (host side: theta is small)."""
    keys = {"LM": -np.abs(theta), "SM": np.abs(theta), "LA": -theta, "SA": theta}
    if which != "BE":
        return list(np.argsort(keys[which], kind="stable")[:count])
    asc = list(np.argsort(theta, kind="stable"))
    out = []
    while asc and len(out) < count:  # alternately from the top and the bottom of the spectrum
        out.append(asc.pop())
        if asc and len(out) < count:
            out.append(asc.pop(0))
    return out


def _random_unit(n, dtype, device, g, B):
    v = g.standard_normal(n, device=device).astype(dtype)
    if B is not None:
        v = orthogonalize(B, v)[0]
    return v / loom.linalg.norm(v)


def eigsh(A, k=6, M=None, sigma=None, which="LM", v0=None, ncv=None, maxiter=None, tol=0,
          return_eigenvectors=True, Minv=None, OPinv=None, mode="normal", rng=None):
    """k eigenvalues (and eigenvectors) of a Hermitian A: the largest in magnitude ('LM'),
    smallest in magnitude ('SM'), largest or smallest algebraic ('LA', 'SA') or from both
    ends ('BE'), in ascending order as SciPy returns them. The generalized problem (M) and
    shift-invert (sigma) are not supported yet. ncv defaults to min(n, max(2k + 1, 20)),
    maxiter (restart cycles) to 10 * n, tol=0 to machine precision."""
    for name, val in (("M", M), ("sigma", sigma), ("Minv", Minv), ("OPinv", OPinv)):
        if val is not None:
            raise NotImplementedError(f"eigsh: {name}= (generalized or shift-invert mode) is not supported yet")
    if mode != "normal":
        raise NotImplementedError(f"eigsh: mode={mode!r} is not supported yet (only 'normal')")
    if which not in _WHICH:
        raise ValueError(f"which must be one of {' '.join(_WHICH)}")
    op = aslinearoperator(A)
    n = op.shape[0]
    if op.shape != (n, n):
        raise ValueError(f"expected square matrix (shape={op.shape})")
    if k <= 0:
        raise ValueError(f"k={k} must be greater than 0.")
    # An operator that does not say where it lives (a LinearOperator of functions) works
    # where its starting vector is.
    dev = operator_device(op, v0.device if isinstance(v0, loom.ndarray) else None)
    dt = loom.float64 if op.dtype is None or op.dtype.kind in "biu" else op.dtype
    if k >= n:
        if getattr(op, "A", None) is None:
            raise TypeError("k >= N for a LinearOperator: use k < N")
        warnings.warn("k >= N for N * N square matrix. Attempting to use loom.linalg.eigh instead.",
                      RuntimeWarning, stacklevel=2)
        dense = op.A.toarray() if hasattr(op.A, "toarray") else op.A
        w, v = loom.linalg.eigh(dense.astype(dt))
        return (w, v) if return_eigenvectors else w
    ncv = min(n, max(2 * k + 1, 20)) if ncv is None else int(ncv)
    if not k < ncv <= n:
        raise ValueError(f"ncv must be k<ncv<=n, ncv={ncv}")
    maxiter = 10 * n if maxiter is None else int(maxiter)
    real = np.dtype({"complex64": "float32", "complex128": "float64"}.get(dt.name, dt.name))
    eps = float(np.finfo(real).eps)
    tol = eps if tol == 0 else float(tol)
    g = rng if isinstance(rng, loom.random.Generator) else loom.random.default_rng(rng)
    v = _random_unit(n, dt, dev, g, None) if v0 is None else on_device(v0, dev).astype(dt)
    v = v / loom.linalg.norm(v)
    # The basis as rows, written in place: V[:nv] (one row ahead of W), W[:nw] = A times them.
    V = loom.zeros((ncv + 1, n), dtype=dt, device=dev)
    W = loom.zeros((ncv, n), dtype=dt, device=dev)
    V[0] = v
    nv, nw = 1, 0
    keep = min(k + (ncv - k) // 2, ncv - 1)  # Ritz vectors carried over a restart
    for cycle in range(maxiter):
        full = False
        while nw < ncv:
            w = op.matvec(V[nw]).astype(dt)
            W[nw] = w
            nw += 1
            if nw == n:
                full = True  # the basis spans everything: the Ritz pairs are exact
                break
            f = orthogonalize(V[:nv], w)[0]
            fn, wn = (float(x) for x in loom.stack([loom.linalg.norm(f), loom.linalg.norm(w)]).tolist())
            last_fn = fn  # the coupling of the last row to the next one
            if fn <= n * eps * max(wn, 1e-300):
                f = _random_unit(n, dt, dev, g, V[:nv])  # an invariant subspace: go on elsewhere
            else:
                f = f / fn
            V[nv] = f
            nv += 1
        m = nw
        Vm, Wm = V[:m], W[:m]
        T = (loom.conj(Vm) if dt.kind == "c" else Vm) @ Wm.T  # V^H A V
        T = (T + loom.conj(T.T)) / 2
        theta, S = loom.linalg.eigh(T)
        # One read: the Ritz values and the last components of their vectors. A V = V T + f e_m^H
        # (f the next vector times last_fn), so pair i's residual is last_fn * |S[m-1, i]|: the
        # estimate ARPACK tests, which falls below the rounding of an explicit residual.
        host = loom.concatenate([theta.astype(real), loom.abs(S[m - 1, :]).astype(real)]).numpy()
        host_theta, last_row = host[:m].astype(np.float64), host[m:].astype(np.float64)
        wanted = _order(host_theta, which, k)
        res = 0.0 if full else last_fn * last_row[wanted]
        # Rounding in V^H (A V) keeps the estimates near eps * ||A|| (ARPACK's implicit QR goes
        # lower), so they may also pass below ncv * eps * max|theta|: a backward error of a few
        # ulps of ||A||, machine precision for tol=0.
        floor = ncv * eps * np.max(np.abs(host_theta))
        done = bool(np.all(res <= np.maximum(tol * np.maximum(np.abs(host_theta[wanted]), eps ** (2 / 3)), floor)))
        if done or cycle == maxiter - 1:
            break
        # Restart with the `keep` most wanted Ritz vectors and the next basis vector (rows: S^T V).
        Sp = S[:, loom.asarray(np.array(_order(host_theta, which, keep)), device=dev)]
        nxt = V[m]
        V[:keep] = Sp.T @ Vm
        W[:keep] = Sp.T @ Wm
        V[keep] = nxt
        nv, nw = keep + 1, keep
    order = np.argsort(host_theta[wanted], kind="stable")
    idx = loom.asarray(np.array(wanted)[order], device=dev)
    w = loom.take(theta, idx)
    vecs = (loom.take(S, idx, axis=1).T @ Vm).T
    if not done:
        raise ArpackNoConvergence(f"ARPACK error -1: No convergence ({maxiter} iterations, "
                                  f"{k} eigenvalues wanted)", w, vecs)
    return (w, vecs) if return_eigenvectors else w
