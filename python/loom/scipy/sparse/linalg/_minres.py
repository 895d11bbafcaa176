"""minres: Paige and Saunders' MINRES for a Hermitian (possibly indefinite) A, with SciPy's
signature, stopping tests and return value (x, info).

The Lanczos vectors, the three search directions and x live on the device; the QR
factorization of the tridiagonal matrix runs on host scalars. Each iteration reads two
things on the host: the new Lanczos coefficients (alpha, beta^2) and ||x||, which SciPy's
stopping tests use. As SciPy's, x comes back in double precision (float64 or complex128),
while the tests' eps is that of the system's own dtype."""
import math

import numpy as np

import loom

from ._bicg import real_eps, reject_integer_operator
from ._isolve import _setup


def _signed_reals(*values):
    """Real parts of several 0-d device values in one transfer, as Python floats."""
    return loom.concatenate([loom.real(v).astype(loom.float64).reshape(1) for v in values]).tolist()


def _dtype(b):
    return b.dtype if isinstance(b, loom.ndarray) else loom.dtype(np.asarray(b).dtype.name)


def _double(b):
    """b in double precision, where it is (NumPy input stays on the host: _setup moves it to
    the operator's device)."""
    dt = loom.result_type(_dtype(b), loom.float64)
    return b.astype(dt) if isinstance(b, loom.ndarray) else np.asarray(b).astype(dt.name)


def _check_symmetry(A, psolve, r1, y, eps):
    """SciPy's check=True: (A y, A y) against (y, A A y), and (y, y) against (r1, M y)."""
    w = A.matvec(y)
    s, t = _signed_reals(loom.vdot(w, w), loom.vdot(y, A.matvec(w)))
    if abs(s - t) > (s + eps) * eps ** (1.0 / 3.0):
        raise ValueError("minres: non-symmetric matrix")
    s, t = _signed_reals(loom.vdot(y, y), loom.vdot(r1, psolve(y)))
    if abs(s - t) > (s + eps) * eps ** (1.0 / 3.0):
        raise ValueError("minres: non-symmetric preconditioner")


def minres(A, b, x0=None, *, rtol=1e-5, shift=0.0, maxiter=None, M=None, callback=None, show=False,
           check=False):
    """Solve (A - shift I) x = b for a Hermitian A by MINRES (scipy.sparse.linalg.minres). M is
    a Hermitian positive definite preconditioner approximating inv(A); maxiter defaults to
    5 * n; callback(xk) after each iteration. Stops once ||r|| / (||A|| ||x||) <= rtol (a
    solution) or ||A r|| / (||A|| ||r||) <= rtol (a least-squares solution), among SciPy's
    other tests. Returns (x, info): info 0, or maxiter when the iteration limit was reached."""
    op = reject_integer_operator("minres", A)
    system_dtype = loom.result_type(op.dtype or loom.float64, _dtype(b))
    eps = real_eps(loom.float64 if system_dtype.kind in "biu" else system_dtype)
    A, b, x, psolve, given = _setup("minres", op, _double(b), x0, M)
    n = A.shape[0]
    maxiter = 5 * n if maxiter is None else int(maxiter)

    # The start's residual is that of the shifted system (SciPy's leaves the shift out).
    r1 = b - (A.matvec(x) - shift * x) if given else b
    y = psolve(r1)
    beta1_sq, bnorm = _signed_reals(loom.vdot(r1, y), loom.linalg.norm(b))
    if beta1_sq < 0:
        raise ValueError("minres: indefinite preconditioner")
    if beta1_sq == 0:
        return x, 0
    if bnorm == 0:
        return b, 0
    beta1 = math.sqrt(beta1_sq)
    if check:
        _check_symmetry(A, psolve, r1, y, eps)

    # The Lanczos recurrence's last two coefficients and the last rotation of the QR of T_k.
    oldb, beta, dbar, epsln = 0.0, beta1, 0.0, 0.0
    phibar, rhs1, rhs2, tnorm2 = beta1, beta1, 0.0, 0.0
    gmax, gmin = 0.0, float("inf")
    cs, sn = -1.0, 0.0
    w = w2 = loom.zeros(n, dtype=b.dtype, device=b.device)
    r2 = r1
    istop, itn = 0, 0
    Anorm = Acond = rnorm = ynorm = 0.0
    while itn < maxiter:
        itn += 1
        v = y * (1.0 / beta)
        y = A.matvec(v)
        if shift:
            y = y - shift * v
        if itn >= 2:
            y = y - (beta / oldb) * r1
        alfa_d = loom.real(loom.vdot(v, y))
        y = y - (alfa_d / beta) * r2
        r1, r2 = r2, y
        y = psolve(r2)
        oldb = beta
        alfa, beta_sq = _signed_reals(alfa_d, loom.vdot(r2, y))
        if beta_sq < 0:
            raise ValueError("minres: non-symmetric matrix")
        beta = math.sqrt(beta_sq)
        tnorm2 += alfa ** 2 + oldb ** 2 + beta ** 2
        if (itn == 1 and beta / beta1 <= 10 * eps) or beta == 0:
            istop = -1  # an invariant subspace: this step's x is the last one
        # Apply the previous rotation, then make the next one to annihilate beta.
        oldeps = epsln
        delta = cs * dbar + sn * alfa
        gbar = sn * dbar - cs * alfa
        epsln = sn * beta
        dbar = -cs * beta
        root = math.hypot(gbar, dbar)
        gamma = max(math.hypot(gbar, beta), eps)
        cs, sn = gbar / gamma, beta / gamma
        phi = cs * phibar
        phibar = sn * phibar
        w1, w2 = w2, w
        w = (v - oldeps * w1 - delta * w2) * (1.0 / gamma)
        x = x + phi * w
        gmax = max(gmax, gamma)
        gmin = min(gmin, gamma)
        z = rhs1 / gamma
        rhs1 = rhs2 - delta * z
        rhs2 = -epsln * z

        Anorm = math.sqrt(tnorm2)
        ynorm = float(loom.linalg.norm(x))
        epsx = Anorm * ynorm * eps
        rnorm = phibar
        test1 = math.inf if ynorm == 0 or Anorm == 0 else rnorm / (Anorm * ynorm)
        test2 = math.inf if Anorm == 0 else root / Anorm
        Acond = gmax / gmin
        if istop == 0:
            # Later tests win, as in SciPy: the user's rtol last.
            if 1 + test2 <= 1:
                istop = 2
            if 1 + test1 <= 1:
                istop = 1
            if itn >= maxiter:
                istop = 6
            if Acond >= 0.1 / eps:
                istop = 4
            if epsx >= beta1:
                istop = 3
            if test2 <= rtol:
                istop = 2
            if test1 <= rtol:
                istop = 1
        if callback is not None:
            callback(x)
        if istop != 0:
            break
    if show:
        print(f"minres: istop = {istop}, itn = {itn}, Anorm = {Anorm:.4e}, Acond = {Acond:.4e}, "
              f"rnorm = {rnorm:.4e}, ynorm = {ynorm:.4e}")
    return x, (maxiter if istop == 6 else 0)
