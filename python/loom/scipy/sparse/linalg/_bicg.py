"""Krylov solvers for general square systems built on the bi-orthogonal Lanczos process:
bicgstab (van der Vorst's BiCGSTAB) and cgs (Sonneveld's conjugate gradients squared), with
SciPy's signatures, stopping rules and return values (x, info): info 0 when
||b - A x|| < max(atol, rtol * ||b||), > 0 the iteration count when maxiter ran out, < 0 a
breakdown (-10: rho = (r~, r) vanished, -11: omega or (r~, A p) vanished).

Every vector operation runs on the device. The tests the loop needs (residual norms and the
breakdown scalars) are read on the host together, at most two reads per iteration."""
import numpy as np

import loom

from ._isolve import _setup, _tolerance, as_operator


def reject_integer_operator(name, A):
    """CuPy's rule for its square-system solvers: an integer or bool operator is a TypeError
    (SciPy would upcast it; loom would compute its products in integers)."""
    op = as_operator(name, A)
    if op.dtype is not None and op.dtype.kind in "biu":
        raise TypeError(f"{name}: unsupported dtype {op.dtype.name} (A must be float or complex)")
    return op


def host_scalars(*values):
    """The magnitudes of several 0-d device values in one transfer, as Python floats."""
    parts = [loom.abs(v).astype(loom.float64).reshape(1) for v in values]
    return loom.concatenate(parts).tolist()


def real_eps(dtype):
    return float(np.finfo(np.dtype({"complex64": "float32", "complex128": "float64"}.get(dtype.name,
                                                                                         dtype.name))).eps)


def _start(name, A, b, x0, M, rtol, atol, maxiter):
    op = reject_integer_operator(name, A)
    A, b, x, psolve, given = _setup(name, op, b, x0, M)
    bnorm = float(loom.linalg.norm(b))
    tol = _tolerance(name, bnorm, atol, rtol)
    maxiter = 10 * A.shape[0] if maxiter is None else int(maxiter)
    r = b - A.matvec(x) if given else b.copy()
    # SciPy's breakdown threshold for rho and omega (eps**2, inherited from the Fortran code).
    return A, b, x, psolve, bnorm, tol, maxiter, r, real_eps(b.dtype) ** 2


def bicgstab(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, callback=None):
    """Solve A x = b by BiCGSTAB (scipy.sparse.linalg.bicgstab). M approximates inv(A) and is
    applied on the right; maxiter defaults to 10 * n; callback(xk) after each iteration.
    Returns (x, info)."""
    A, b, x, psolve, bnorm, tol, maxiter, r, breakdown = _start("bicgstab", A, b, x0, M, rtol, atol, maxiter)
    if bnorm == 0.0:
        return b.copy(), 0
    r_shadow = r
    rho = loom.vdot(r_shadow, r)
    rnorm, rho_abs = host_scalars(loom.linalg.norm(r), rho)
    omega_abs = None
    for it in range(maxiter):
        if rnorm < tol:
            return x, 0
        if rho_abs < breakdown:
            return x, -10
        if it == 0:
            p = r
        else:
            if omega_abs < breakdown:
                return x, -11
            beta = (rho / rho_prev) * (alpha / omega)
            p = r + beta * (p - omega * v)
        p_hat = psolve(p)
        v = A.matvec(p_hat)
        rv = loom.vdot(r_shadow, v)
        alpha = rho / rv
        s = r - alpha * v
        rv_abs, snorm = host_scalars(rv, loom.linalg.norm(s))
        if rv_abs == 0.0:
            return x, -11
        if snorm < tol:  # the half step already converged
            return x + alpha * p_hat, 0
        s_hat = psolve(s)
        t = A.matvec(s_hat)
        omega = loom.vdot(t, s) / loom.vdot(t, t)
        x = x + alpha * p_hat + omega * s_hat
        r = s - omega * t
        rho_prev = rho
        if callback is not None:
            callback(x)
        # The next iteration's tests, read at once: its residual, its rho and this omega.
        rho = loom.vdot(r_shadow, r)
        rnorm, rho_abs, omega_abs = host_scalars(loom.linalg.norm(r), rho, omega)
    return x, maxiter


def cgs(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, callback=None):
    """Solve A x = b by conjugate gradients squared (scipy.sparse.linalg.cgs). M approximates
    inv(A); maxiter defaults to 10 * n; callback(xk) after each iteration. As SciPy's, each
    iteration recomputes the true residual b - A x (one more product, no drift). Returns
    (x, info)."""
    A, b, x, psolve, bnorm, tol, maxiter, r, breakdown = _start("cgs", A, b, x0, M, rtol, atol, maxiter)
    if bnorm == 0.0:
        return b.copy(), 0
    r_shadow = r
    rho = loom.vdot(r_shadow, r)
    rnorm, rho_abs = host_scalars(loom.linalg.norm(r), rho)
    for it in range(maxiter):
        if rnorm < tol:
            return x, 0
        if rho_abs < breakdown:
            return x, -10
        if it == 0:
            u = p = r
        else:
            beta = rho / rho_prev
            u = r + beta * q
            p = u + beta * (q + beta * p)
        p_hat = psolve(p)
        v_hat = A.matvec(p_hat)
        rv = loom.vdot(r_shadow, v_hat)
        alpha = rho / rv
        q = u - alpha * v_hat
        x_next = x + alpha * psolve(u + q)
        r = b - A.matvec(x_next)
        rho_prev = rho
        rho = loom.vdot(r_shadow, r)
        # (r~, A p) and the next iteration's tests in one read; a zero (r~, A p) keeps x.
        rv_abs, rnorm, rho_abs = host_scalars(rv, loom.linalg.norm(r), rho)
        if rv_abs == 0.0:
            return x, -11
        x = x_next
        if callback is not None:
            callback(x)
    return x, maxiter
