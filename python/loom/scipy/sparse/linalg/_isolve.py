"""Krylov solvers (scipy.sparse.linalg.cg and gmres) over loom operators: every vector
operation runs on the device. Each convergence test reads one residual norm on the host
(one float per iteration, plus one for ||b|| at the start), since the loop's length
depends on it. Return (x, info) as SciPy: info 0 when converged, else the iteration count."""
import numpy as np

import loom

from .._sputils import on_device
from ._interface import aslinearoperator, operator_device
from ._krylov import orthogonalize


def _norm(x):
    return loom.linalg.norm(x)


def as_operator(name, A):
    """aslinearoperator(A), its errors naming the function that was called."""
    try:
        return aslinearoperator(A)
    except (TypeError, ValueError) as e:
        raise type(e)(f"{name}: {e}") from None


def _setup(name, A, b, x0, M):
    A = as_operator(name, A)
    m, n = A.shape
    if m != n:
        raise ValueError(f"{name}: expected square matrix, but got shape={A.shape}")
    dev = b.device if isinstance(b, loom.ndarray) else operator_device(A)
    b = on_device(b, dev)
    if b.shape not in ((n,), (n, 1)):
        raise ValueError(f"{name}: shapes of A {A.shape} and b {tuple(b.shape)} are incompatible")
    b = b.reshape(n)
    dt = loom.result_type(A.dtype or b.dtype, b.dtype)
    if dt.kind in "biu" or dt == loom.float16 or dt == loom.bfloat16:
        dt = loom.float64
    b = b.astype(dt)
    if x0 is None:
        x = loom.zeros(n, dtype=dt, device=dev)
    else:
        x = on_device(x0, dev)
        if x.shape not in ((n,), (n, 1)):
            raise ValueError(f"{name}: x0 has shape {tuple(x.shape)}, expected ({n},)")
        x = x.reshape(n).astype(dt)
    if M is None:
        precond = _identity
    else:
        M = as_operator(name, M)
        if M.shape != A.shape:
            raise ValueError(f"{name}: matrix {A.shape} and preconditioner {M.shape} have different shapes")
        # The iterates keep the system's dtype (a float64 M must not promote a float32 solve).
        precond = lambda v: M.matvec(v).astype(dt, copy=False)  # noqa: E731
    return A, b, x, precond, x0 is not None


def _identity(v):
    return v


def _tolerance(name, bnorm, atol, rtol):
    if atol is None or isinstance(atol, str) or rtol is None:
        raise ValueError(f"{name}: atol and rtol must be numbers, got atol={atol!r}, rtol={rtol!r}")
    if atol < 0 or rtol < 0:
        raise ValueError(f"{name}: atol and rtol must be non-negative, got atol={atol!r}, rtol={rtol!r}")
    return max(float(atol), float(rtol) * bnorm)


def cg(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, callback=None):
    """Conjugate gradients for a Hermitian positive definite A (scipy.sparse.linalg.cg):
    stops when ||b - A x|| <= max(atol, rtol * ||b||); M approximates inv(A); maxiter
    defaults to 10 * n; callback(xk) after each iteration."""
    A, b, x, psolve, given = _setup("cg", A, b, x0, M)
    bnorm = float(_norm(b))
    tol = _tolerance("cg", bnorm, atol, rtol)
    if bnorm == 0.0:
        return b.copy(), 0
    if maxiter is None:
        maxiter = 10 * A.shape[0]
    r = b - A.matvec(x) if given else b.copy()
    p = rho_prev = None
    for it in range(maxiter):
        if float(_norm(r)) < tol:  # the iteration's one host read
            return x, 0
        z = psolve(r)
        rho = loom.vdot(r, z)
        p = z if it == 0 else z + (rho / rho_prev) * p
        q = A.matvec(p)
        alpha = rho / loom.vdot(p, q)
        x = x + alpha * p
        r = r - alpha * q
        rho_prev = rho
        if callback is not None:
            callback(x)
    return x, maxiter


def _hessenberg_lsq(H, beta, j):
    """min ||beta e1 - H[:j+2, :j+1] y|| by a complete QR of the small Hessenberg matrix on
    the device: y, and the residual norm beta * |Q[0, j+1]| (exact, no cancellation)."""
    Hj = H[:j + 2, :j + 1]
    Q, R = loom.linalg.qr(Hj, mode="complete")
    g = beta * loom.conj(Q[0, :])  # Q^H (beta e1)
    y = loom.linalg.solve(R[:j + 1, :], g[:j + 1])
    return y, loom.abs(g[j + 1])


def gmres(A, b, x0=None, *, rtol=1e-5, atol=0.0, restart=None, maxiter=None, M=None, callback=None,
          callback_type=None):
    """Restarted GMRES (scipy.sparse.linalg.gmres), preconditioned on the left by M as
    SciPy's is: each cycle builds up to `restart` (default 20) orthonormal Krylov vectors
    (Gram-Schmidt twice, as matrix products), solves the small least-squares problem by QR on
    the device and stops the cycle once the preconditioned residual estimate meets the
    inner tolerance; a cycle ends with the true residual, tested against
    max(atol, rtol * ||b||). maxiter (default 10 * n) counts cycles. callback_type 'x' calls
    callback(xk) per cycle; 'pr_norm' (and None, 'legacy') callback(residual estimate /
    ||b||) per inner step. One host read per inner step (the estimate and the new vector's
    norm together) and one per cycle."""
    if callback_type not in (None, "x", "pr_norm", "legacy"):
        raise ValueError(f"Unknown callback_type: {callback_type!r}")
    A, b, x, psolve, given = _setup("gmres", A, b, x0, M)
    n = A.shape[0]
    bnorm = float(_norm(b))
    tol = _tolerance("gmres", bnorm, atol, rtol)
    if bnorm == 0.0:
        return b.copy(), 0
    restart = min(20 if restart is None else int(restart), n)
    maxiter = 10 * n if maxiter is None else int(maxiter)
    eps = float(np.finfo(np.dtype(b.real.dtype.name)).eps)
    mb = float(_norm(psolve(b))) if M is not None else bnorm
    ptol = mb * min(1.0, tol / bnorm)
    r = b - A.matvec(x) if given else b.copy()
    if float(_norm(r)) < tol:
        return x, 0
    for _ in range(maxiter):
        z = psolve(r)
        beta = _norm(z)
        V = loom.zeros((restart + 1, n), dtype=b.dtype, device=b.device)  # the Krylov basis as rows
        V[0] = z / beta
        H = loom.zeros((restart + 1, restart), dtype=b.dtype, device=b.device)
        breakdown = False
        for j in range(restart):
            w = psolve(A.matvec(V[j]))
            w, h = orthogonalize(V[:j + 1], w)
            hn = _norm(w)
            H = H.at[:j + 1, j].set(h).at[j + 1, j].set(hn.astype(b.dtype))
            y, presid = _hessenberg_lsq(H, beta, j)
            presid_f, hn_f = (float(v) for v in loom.stack([presid, hn.astype(presid.dtype)]).tolist())
            if callback is not None and callback_type != "x":
                callback(presid_f / bnorm)
            breakdown = hn_f <= eps * max(float(beta), 1e-300)
            if presid_f <= ptol or breakdown:
                break
            V[j + 1] = w / hn
        x = x + y @ V[:j + 1]
        r = b - A.matvec(x)
        rnorm = float(_norm(r))
        if callback is not None and callback_type == "x":
            callback(x)
        if rnorm <= tol:
            return x, 0
        # The true residual missed: tighten the inner target by how far it was off (SciPy's rule).
        ptol = presid_f * min(1.0, tol / rnorm)
    return x, maxiter
