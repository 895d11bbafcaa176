"""lsqr: Paige and Saunders' LSQR for least-squares problems min ||A x - b||^2 + damp^2 ||x||^2
(A of any shape), with SciPy's signature, stopping tests and 10-tuple result.

Golub-Kahan bidiagonalization on the device (one product with A and one with A^H per
iteration); the QR of the bidiagonal matrix, and the estimates of ||A||, cond(A), ||r||,
||A^H r|| and ||x|| that the stopping tests use, are recurrences on host scalars. Each
iteration reads three numbers on the host at once: the two new bidiagonal entries and the
norm of the last search direction (for the estimate of cond(A))."""
import math

import numpy as np

import loom

from .._sputils import on_device
from ._interface import operator_device
from ._isolve import as_operator

_EPS = float(np.finfo(np.float64).eps)  # SciPy's tests use double precision's eps throughout

_MESSAGES = ("The exact solution is x = 0, or x = x0 if x0 was given",
             "Ax - b is small enough, given atol, btol",
             "The least-squares solution is good enough, given atol",
             "The estimate of cond(Abar) has exceeded conlim",
             "Ax - b is small enough for this machine",
             "The least-squares solution is good enough for this machine",
             "Cond(Abar) seems to be too large for this machine",
             "The iteration limit has been reached")


def sym_ortho(a, b):
    """A stable Givens rotation (Choi, Paige and Saunders' SymOrtho): (c, s, r) with
    [c s; -s c] [a; b] = [r; 0] and r = sqrt(a^2 + b^2) up to sign."""
    if b == 0:
        return math.copysign(1.0, a) if a != 0 else 0.0, 0.0, abs(a)
    if a == 0:
        return 0.0, math.copysign(1.0, b), abs(b)
    if abs(b) > abs(a):
        tau = a / b
        s = math.copysign(1.0, b) / math.sqrt(1 + tau * tau)
        c = s * tau
        return c, s, b / s
    tau = b / a
    c = math.copysign(1.0, a) / math.sqrt(1 + tau * tau)
    s = c * tau
    return c, s, a / c


def host_reals(*values):
    """Several 0-d real device values in one transfer, as Python floats."""
    return loom.concatenate([v.astype(loom.float64).reshape(1) for v in values]).tolist()


def least_squares_system(name, A, b, x0, always_double):
    """(operator, b, x0 or None, dtype, products): SciPy's input rules for lsqr and lsmr. b of
    shape (m,) (or anything that squeezes to it); x0 of shape (n,). The working dtype holds
    A's, b's and x0's; double precision at least when always_double or no x0 is given (SciPy
    starts x as float64 zeros). The products return that dtype."""
    op = as_operator(name, A)
    m, n = op.shape
    dev = b.device if isinstance(b, loom.ndarray) else operator_device(op)
    b = on_device(b, dev)
    if b.ndim > 1:
        b = b.reshape(tuple(d for d in b.shape if d != 1))
    if b.shape != (m,):
        raise ValueError(f"{name}: shapes of A {op.shape} and b {tuple(b.shape)} are incompatible")
    parts = [op.dtype or loom.float64, b.dtype]
    if x0 is not None:
        x0 = on_device(x0, dev)
        if x0.shape not in ((n,), (n, 1)):
            raise ValueError(f"{name}: x0 has shape {tuple(x0.shape)}, expected ({n},)")
        x0 = x0.reshape(n)
        parts.append(x0.dtype)
    if always_double or x0 is None:
        parts.append(loom.float64)
    dt = loom.result_type(*parts)
    if dt.kind in "biu" or dt.itemsize < 4:
        dt = loom.float64
    if x0 is not None:
        x0 = x0.astype(dt)

    def matvec(v):
        return op.matvec(v).astype(dt, copy=False)

    def rmatvec(v):
        return op.rmatvec(v).astype(dt, copy=False)

    return op, b.astype(dt), x0, dt, matvec, rmatvec


def start_bidiagonalization(x, b, n, dt, dev, matvec, rmatvec):
    """Golub and Kahan's first step, shared by lsqr and lsmr: beta u = b - A x and
    alpha v = A^H u with unit u and v (v zero when beta or alpha is). Returns (x, u, v, ||b||,
    beta, alpha), x zeros when none was given; two host reads."""
    if x is None:
        x = loom.zeros(n, dtype=dt, device=dev)
        u = b
    else:
        u = b - matvec(x)
    normb, beta = host_reals(loom.linalg.norm(b), loom.linalg.norm(u))
    alpha = 0.0
    if beta > 0:
        u = u * (1.0 / beta)
        v = rmatvec(u)
        alpha = float(loom.linalg.norm(v))
    else:
        v = loom.zeros(n, dtype=dt, device=dev)
    if alpha > 0:
        v = v * (1.0 / alpha)
    return x, u, v, normb, beta, alpha


def stop_reason(itn, limit, test1, test2, test3, t1, rtol, atol, ctol):
    """Paige and Saunders's istop (0: go on) from the iteration's tests; later tests win, as in
    SciPy: the user's tolerances last. Shared by lsqr and lsmr."""
    istop = 0
    for hit, code in ((itn >= limit, 7), (1 + test3 <= 1, 6), (1 + test2 <= 1, 5), (1 + t1 <= 1, 4),
                      (test3 <= ctol, 3), (test2 <= atol, 2), (test1 <= rtol, 1)):
        if hit:
            istop = code
    return istop


def lsqr(A, b, damp=0.0, atol=1e-6, btol=1e-6, conlim=1e8, iter_lim=None, show=False, calc_var=False, x0=None):
    """The least-squares solution of A x = b, or of the damped problem, by LSQR
    (scipy.sparse.linalg.lsqr). A needs matvec and rmatvec; iter_lim defaults to 2 * n.
    Returns (x, istop, itn, r1norm, r2norm, anorm, acond, arnorm, xnorm, var): istop tells
    which test stopped it (1: A x - b small given atol and btol, 2: least-squares solution
    good enough given atol, 3: cond(A) over conlim, 4-6: the same at machine precision,
    7: iteration limit), r1norm = ||b - A x||, r2norm = sqrt(r1norm^2 + damp^2 ||x||^2),
    var the diagonal of (A^H A + damp^2 I)^-1 estimate when calc_var."""
    op, b, x, dt, matvec, rmatvec = least_squares_system("lsqr", A, b, x0, False)
    m, n = op.shape
    iter_lim = 2 * n if iter_lim is None else int(iter_lim)
    dev = b.device
    var = loom.zeros(n, dtype=loom.float64, device=dev)
    ctol = 1.0 / conlim if conlim > 0 else 0.0
    dampsq = damp * damp

    x, u, v, bnorm, beta, alfa = start_bidiagonalization(x, b, n, dt, dev, matvec, rmatvec)
    w = v
    rhobar, phibar = alfa, beta
    r1norm = r2norm = beta
    anorm = acond = ddnorm = res2 = xnorm = xxnorm = z = 0.0
    cs2, sn2 = -1.0, 0.0
    arnorm = alfa * beta
    itn = istop = 0
    if arnorm == 0:
        if show:
            print(f"lsqr: {_MESSAGES[0]}")
        return x, istop, itn, r1norm, r2norm, anorm, acond, arnorm, xnorm, var

    while itn < iter_lim:
        itn += 1
        # Next bidiagonalization step; when beta vanishes, u, v and alfa stay as they are.
        u_next = matvec(v) - alfa * u
        beta_d = loom.linalg.norm(u_next)
        u_unit = u_next / beta_d
        v_next = rmatvec(u_unit) - beta_d.astype(dt) * v
        alfa_d = loom.linalg.norm(v_next)
        beta, alfa_new, wnorm = host_reals(beta_d, alfa_d, loom.linalg.norm(w))
        if beta > 0:
            u = u_unit
            anorm = math.sqrt(anorm ** 2 + alfa ** 2 + beta ** 2 + dampsq)
            alfa = alfa_new
            v = v_next * (1.0 / alfa) if alfa > 0 else v_next
        else:
            u = u_next

        # Eliminate damp by a rotation (it changes the diagonal rhobar), then beta.
        if damp > 0:
            rhobar1 = math.hypot(rhobar, damp)
            cs1, sn1 = rhobar / rhobar1, damp / rhobar1
            psi = sn1 * phibar
            phibar = cs1 * phibar
        else:
            rhobar1, psi = rhobar, 0.0
        cs, sn, rho = sym_ortho(rhobar1, beta)
        theta = sn * alfa
        rhobar = -cs * alfa
        phi = cs * phibar
        phibar = sn * phibar
        tau = sn * phi

        # Update x and the search direction w; dk = w / rho feeds the estimate of cond(A).
        if calc_var:
            var = var + loom.abs(w * (1.0 / rho)) ** 2
        x = x + (phi / rho) * w
        w = v + (-theta / rho) * w
        ddnorm += (wnorm / rho) ** 2

        # A rotation on the right eliminates theta; it gives the estimate of ||x||.
        delta = sn2 * rho
        gambar = -cs2 * rho
        rhs = phi - delta * z
        zbar = rhs / gambar
        xnorm = math.sqrt(xxnorm + zbar ** 2)
        gamma = math.hypot(gambar, theta)
        cs2, sn2 = gambar / gamma, theta / gamma
        z = rhs / gamma
        xxnorm += z ** 2

        acond = anorm * math.sqrt(ddnorm)
        res2 += psi ** 2
        rnorm = math.sqrt(phibar ** 2 + res2)
        arnorm = alfa * abs(tau)
        # ||b - A x|| from rnorm^2 = r1norm^2 + damp^2 ||x||^2 (negative when cancellation won).
        if damp > 0:
            r1sq = rnorm ** 2 - dampsq * xxnorm
            r1norm = math.copysign(math.sqrt(abs(r1sq)), r1sq)
        else:
            r1norm = rnorm
        r2norm = rnorm

        test1 = rnorm / bnorm
        test2 = arnorm / (anorm * rnorm + _EPS)
        test3 = 1 / (acond + _EPS)
        t1 = test1 / (1 + anorm * xnorm / bnorm)
        rtol = btol + atol * anorm * xnorm / bnorm
        istop = stop_reason(itn, iter_lim, test1, test2, test3, t1, rtol, atol, ctol)
        if istop != 0:
            break
    if show:
        print(f"lsqr: {_MESSAGES[istop]} (istop = {istop}, itn = {itn}, r1norm = {r1norm:.3e}, "
              f"anorm = {anorm:.3e}, acond = {acond:.3e})")
    return x, istop, itn, r1norm, r2norm, anorm, acond, arnorm, xnorm, var
