"""lobpcg: Knyazev's locally optimal block preconditioned conjugate gradient method for a few
extreme eigenpairs of A x = lambda B x (A, B Hermitian, B positive definite), with SciPy's
signature, defaults, warnings and results (scipy.sparse.linalg.lobpcg).

Each iteration takes the residuals R = A X - B X diag(lambda) of the columns still above tol,
preconditions them (M), keeps them B-orthogonal to the constraints Y and to X, and does a
Rayleigh-Ritz step on span[X, R, P] (P the previous update): a small generalized eigenproblem
of the 3k x 3k Gram matrices. The blocks (n x k) stay on the device; per iteration the host
reads the k residual norms (which columns are still active) and the Ritz values (which to
keep). As SciPy's, the iterate with the smallest mean residual is kept, then refined by a
last Rayleigh-Ritz step; problems too small for the block (n - sizeY < 5 sizeX) are solved
densely."""
import warnings

import numpy as np

import loom
from loom.scipy import linalg as dense_linalg

from .._base import _spbase
from .._sputils import on_device
from ._interface import LinearOperator, operator_device


def _dtype_of(op):
    dt = getattr(op, "dtype", None)
    return None if dt is None else loom.dtype(dt)


def _block_product(op):
    """V -> op V for a matrix, a sparse matrix, a LinearOperator or a callable (None: None)."""
    if op is None:
        return None
    if isinstance(op, LinearOperator):
        return op.matmat
    if isinstance(op, (_spbase, loom.ndarray, np.ndarray)):
        mat = op if isinstance(op, _spbase) else on_device(op)
        return lambda v: mat @ v
    if callable(op):
        return op
    raise TypeError(f"lobpcg: expected a matrix, a LinearOperator or a callable, got {type(op).__name__}")


def _dense_matrix(op, n, dt, device, name):
    if isinstance(op, _spbase):
        a = op.toarray()
    elif isinstance(op, (loom.ndarray, np.ndarray)):
        a = on_device(op, device)
    else:
        a = on_device(_block_product(op)(loom.eye(n, dtype=dt, device=device)), device)
    if a.shape != (n, n):
        raise ValueError(f"lobpcg: the {name} matrix has shape {tuple(a.shape)}, expected {(n, n)}")
    return a.astype(dt)


def _dense_solve(A, B, n, size, largest, device):
    """The whole problem by a dense generalized eigensolver (SciPy's path for small n)."""
    dts = [d for d in (_dtype_of(A), _dtype_of(B)) if d is not None]
    dt = loom.result_type(*dts) if dts else loom.float64
    if dt.kind in "biu" or dt.itemsize < 4:
        dt = loom.result_type(dt, loom.float64)
    a = _dense_matrix(A, n, dt, device, "primary")
    b = None if B is None else _dense_matrix(B, n, dt, device, "secondary")
    span = (n - size, n - 1) if largest else (0, size - 1)
    vals, vecs = dense_linalg.eigh(a, b, subset_by_index=span, check_finite=False)
    if largest:
        vals, vecs = loom.flip(vals), loom.flip(vecs, axis=1)
    return vals, vecs


def _herm(a):
    return loom.conj(a.T) if a.dtype.kind == "c" else a.T


def _sym(g):
    return (g + _herm(g)) / 2


def _block(rows):
    return loom.concatenate([loom.concatenate(r, axis=1) for r in rows], axis=0)


def _select(values, count, largest):
    """Indices of the `count` wanted Ritz values (host side), most wanted first for largest."""
    order = np.argsort(values, kind="stable")
    return order[::-1][:count] if largest else order[:count]


class _Problem:
    """The operators as block products in the working dtype, and the constraints."""

    def __init__(self, A, B, M, Y, dt, n):
        self.dt, self.n = dt, n
        self._A, self._B, self._M = _block_product(A), _block_product(B), _block_product(M)
        self.has_B = B is not None
        self.Y = self.BY = self.YBY = None
        if Y is not None:
            self.Y = Y.astype(dt)
            self.BY = self.B(self.Y, "constraint") if self.has_B else self.Y
            try:
                self.YBY = dense_linalg.cho_factor(_herm(self.Y) @ self.BY, check_finite=False)
            except np.linalg.LinAlgError as e:
                raise ValueError("lobpcg: linearly dependent constraints") from e

    def _apply(self, f, V, what, name):
        out = on_device(f(V), V.device)
        if out.shape != V.shape:
            raise ValueError(f"lobpcg: the shape {tuple(V.shape)} of the {what} changed to {tuple(out.shape)} "
                             f"after multiplying by the {name} matrix")
        return out.astype(self.dt, copy=False)

    def A(self, V, what="iterate"):
        return self._apply(self._A, V, what, "primary")

    def B(self, V, what="iterate"):
        return self._apply(self._B, V, what, "secondary") if self.has_B else V

    def M(self, V):
        return V if self._M is None else self._apply(self._M, V, "residual", "preconditioner")

    def constrain(self, V):
        """V with its B-components along Y removed: V - Y (Y^H B Y)^-1 (B Y)^H V."""
        if self.Y is None:
            return V
        return V - self.Y @ dense_linalg.cho_solve(self.YBY, _herm(self.BY) @ V, check_finite=False)


def _b_orthonormalize(prob, V, BV=None):
    """(V R^-1, B V R^-1, R^-1) with V^H B V = R^H R (Cholesky), or None when V^H B V is not
    positive definite (the block is linearly dependent)."""
    if BV is None:
        BV = prob.B(V)
    try:
        R = _herm(loom.linalg.cholesky(_herm(V) @ BV))
        inv_r = loom.linalg.inv(R)
    except np.linalg.LinAlgError:
        return None
    V = V @ inv_r
    return V, (BV @ inv_r if prob.has_B else V), inv_r


def _residual_norms(R):
    return loom.sqrt(loom.abs(loom.sum(loom.conj(R) * R if R.dtype.kind == "c" else R * R, axis=0)))


def _rayleigh_ritz(gramA, gramB):
    """Ritz values (host and device) and vectors of the pencil (gramA, gramB), or None when
    gramB is not positive definite.

    Solved on the host with NumPy's LAPACK, as SciPy's lobpcg does: the Gram matrices are at
    most three blocks square and the Ritz values are read there anyway. On an H100 the same
    solve on the device (loom.scipy.linalg.eigh(gramA, gramB)) gave spurious Ritz values now
    and then (larger than A's largest eigenvalue), and svds(solver='lobpcg') missed the top
    pair for 8 of 48 seeded starts; the whole solve on the host (SciPy's eigh in that test,
    NumPy's Cholesky and eigh here) brought it to 0, while moving any one piece of the
    device's solve (Cholesky, triangular solves, the standard eigh) to the host did not. The
    device-side cause is not found yet."""
    a = _sym_host(gramA.numpy())
    try:
        if gramB is None:
            w, v = np.linalg.eigh(a)
        else:
            low_inv = np.linalg.inv(np.linalg.cholesky(_sym_host(gramB.numpy())))
            w, y = np.linalg.eigh(_sym_host(low_inv @ a @ low_inv.conj().T))
            v = low_inv.conj().T @ y  # v^H gramB v = I
    except np.linalg.LinAlgError:
        return None
    host = w.astype(np.float64)
    if not (np.all(np.isfinite(host)) and np.all(np.isfinite(v))):
        return None
    device = gramA.device
    vals = loom.asarray(w.astype(gramA.real.dtype.name), device=device)
    return host, vals, loom.asarray(np.ascontiguousarray(v.astype(gramA.dtype.name)), device=device)


def _sym_host(g):
    """The Hermitian part of a host Gram matrix, in float64 or complex128."""
    g = g.astype(np.complex128 if np.iscomplexobj(g) else np.float64)
    return (g + g.conj().T) / 2


def _working_dtype(X, *ops):
    dts = [X.dtype] + [d for d in (_dtype_of(op) for op in ops) if d is not None]
    dt = loom.result_type(*dts)
    return loom.float64 if dt.kind in "biu" else dt


def _histories(rows, best, as_device):
    kept = rows[:best + 2]
    return [as_device(np.squeeze(r)) for r in kept]


def lobpcg(A, X, B=None, M=None, Y=None, tol=None, maxiter=None, largest=True, verbosityLevel=0,
           retLambdaHistory=False, retResidualNormsHistory=False, restartControl=20):
    """sizeX = X.shape[1] eigenpairs of A x = lambda B x (B = I when None) from the initial
    block X (n x sizeX), the largest or smallest (largest=False), by LOBPCG. M approximates
    inv(A) (a preconditioner); the vectors are kept B-orthogonal to the columns of Y. tol
    defaults to sqrt(eps) * n, maxiter to 20. A, B, M may be loom sparse matrices, dense
    arrays, LinearOperators or callables taking a block. Returns (lambda, vectors), plus the
    Ritz value history and the residual norm history (lists of loom arrays) when asked."""
    if X is None:
        raise ValueError("lobpcg: the mandatory initial matrix X cannot be None")
    device = X.device if isinstance(X, loom.ndarray) else operator_device(A)
    X = on_device(X, device)
    if X.ndim != 2:
        raise ValueError(f"lobpcg: expected rank-2 array for argument X, got {X.ndim}-d")
    if X.dtype.kind not in "fc":
        warnings.warn(f"Data type for argument X is {X.dtype.name}, which is not inexact, so casted to "
                      f"float32.", UserWarning, stacklevel=2)
        X = X.astype(loom.float32)
    if Y is not None:
        Y = on_device(Y, device)
        if Y.ndim != 2:
            warnings.warn(f"Expected rank-2 array for argument Y, instead got {Y.ndim}, so ignore it and use no "
                          f"constraints.", UserWarning, stacklevel=2)
            Y = None
    maxiter = 20 if maxiter is None else int(maxiter)
    n, size = X.shape
    size_y = 0 if Y is None else Y.shape[1]
    if n - size_y < 5 * size:
        warnings.warn(f"The problem size {n} minus the constraints size {size_y} is too small relative to the "
                      f"block size {size}. Using a dense eigensolver instead of LOBPCG iterations. No output of "
                      f"the history of the iterations.", UserWarning, stacklevel=2)
        if Y is not None:
            raise NotImplementedError("lobpcg: the dense eigensolver does not support constraints.")
        return _dense_solve(A, B, n, min(size, n), largest, device)

    dt = _working_dtype(X, A, B, M, Y)
    real = np.float32 if dt in (loom.float32, loom.complex64) else np.float64
    eps = float(np.finfo(real).eps)
    x_eps = float(np.finfo(np.dtype(X.dtype.name)).eps)  # SciPy's default tol follows X's dtype
    tol = float(np.sqrt(x_eps) * n) if tol is None or tol <= 0 else float(tol)
    hist_dtype = np.dtype(X.dtype.name)
    lambda_rows = np.zeros((maxiter + 3, size), dtype=hist_dtype)
    residual_rows = np.zeros((maxiter + 3, size), dtype=hist_dtype)
    prob = _Problem(A, B, M, Y, dt, n)

    X = prob.constrain(X.astype(dt))
    start = _b_orthonormalize(prob, X)
    if start is None:
        raise ValueError("lobpcg: linearly dependent initial approximations")
    X, BX, _ = start
    AX = prob.A(X, "initial approximations")
    ritz = _rayleigh_ritz(_herm(X) @ AX, None)
    if ritz is None:
        raise ValueError("lobpcg: eigh failed on the initial approximations")
    host, vals, vecs = ritz
    keep = _select(host, size, largest)
    lam, lam_d = host[keep], loom.take(vals, loom.asarray(keep, device=device))
    lambda_rows[0] = lam
    E = loom.take(vecs, loom.asarray(keep, device=device), axis=1)
    X, AX = X @ E, AX @ E
    BX = BX @ E if prob.has_B else X

    active = np.ones(size, dtype=bool)
    P = AP = BP = None
    smallest = float(np.finfo(real).max)
    best_it, best_X = maxiter, X
    it = -1
    restart, forced_restart, explicit_gram = True, False, False
    while it < maxiter:
        it += 1
        R = AX - BX * lam_d[None, :]
        res = _residual_norms(R).numpy().astype(np.float64)
        residual_rows[it] = res
        mean_res = float(np.sum(np.abs(res))) / size
        if mean_res < smallest:
            smallest, best_it, best_X = mean_res, it, X
        elif mean_res > 2 ** restartControl * smallest:
            # Rounding has spoiled AX and BX: recompute them and drop P for this step.
            forced_restart = True
            AX = prob.A(X, "restarted iterate")
            BX = prob.B(X, "restarted iterate") if prob.has_B else X
        active &= res > tol
        count = int(active.sum())
        if verbosityLevel:
            print(f"iteration {it}\ncurrent block size: {count}\neigenvalue(s):\n{lam}\nresidual norm(s):\n{res}")
        if count == 0:
            break
        idx = loom.asarray(np.flatnonzero(active), device=device)
        aR = prob.constrain(prob.M(loom.take(R, idx, axis=1)))
        aR = aR - X @ (_herm(BX) @ aR)
        ortho = _b_orthonormalize(prob, aR)
        if ortho is None:
            warnings.warn(f"Failed at iteration {it} with accuracies {res}\n not reaching the requested tolerance "
                          f"{tol}.", UserWarning, stacklevel=2)
            break
        aR, aBR, _ = ortho
        aAR = prob.A(aR)
        if it > 0:
            aP, aAP = loom.take(P, idx, axis=1), loom.take(AP, idx, axis=1)
            aBP = loom.take(BP, idx, axis=1) if prob.has_B else None
            ortho = _b_orthonormalize(prob, aP, aBP)
            if ortho is None:
                restart = True
            else:
                aP, aBP, inv_r = ortho
                aAP = aAP @ inv_r
                restart = forced_restart
        # While the residuals are large, the Gram blocks of X, R, P known in theory (the
        # identity, diag(lambda)) are used as such; near convergence they are computed.
        gram_eps = 1.0 if dt == loom.float32 else float(np.sqrt(eps))
        explicit_gram = not (res.max() > gram_eps and not explicit_gram)
        XH, RH = _herm(X), _herm(aR)
        gXAR, gRAR = XH @ aAR, RH @ aAR
        if explicit_gram:
            gRAR = _sym(gRAR)
            gXAX, gXBX = _sym(XH @ AX), XH @ BX
            gRBR, gXBR = RH @ aBR, XH @ aBR
        else:
            gXAX = loom.diag(lam_d.astype(dt))
            gXBX = loom.eye(size, dtype=dt, device=device)
            gRBR = loom.eye(count, dtype=dt, device=device)
            gXBR = loom.zeros((size, count), dtype=dt, device=device)
        ritz = None
        if not restart:
            PH = _herm(aP)
            gXAP, gRAP, gPAP = XH @ aAP, RH @ aAP, PH @ aAP
            gXBP, gRBP = XH @ aBP, RH @ aBP
            gPAP = _sym(gPAP) if explicit_gram else gPAP
            gPBP = PH @ aBP if explicit_gram else loom.eye(count, dtype=dt, device=device)
            gram_a = _block([[gXAX, gXAR, gXAP], [_herm(gXAR), gRAR, gRAP], [_herm(gXAP), _herm(gRAP), gPAP]])
            gram_b = _block([[gXBX, gXBR, gXBP], [_herm(gXBR), gRBR, gRBP], [_herm(gXBP), _herm(gRBP), gPBP]])
            ritz = _rayleigh_ritz(gram_a, gram_b)
            if ritz is None:
                if verbosityLevel:
                    warnings.warn(f"eigh failed at iteration {it}, causing a restart.", UserWarning, stacklevel=2)
                restart = True
        if restart:
            gram_a = _block([[gXAX, gXAR], [_herm(gXAR), gRAR]])
            gram_b = _block([[gXBX, gXBR], [_herm(gXBR), gRBR]])
            ritz = _rayleigh_ritz(gram_a, gram_b)
            if ritz is None:
                warnings.warn(f"eigh failed at iteration {it}.", UserWarning, stacklevel=2)
                break
        host, vals, vecs = ritz
        keep = _select(host, size, largest)
        keep_d = loom.asarray(keep, device=device)
        lam, lam_d = host[keep], loom.take(vals, keep_d)
        lambda_rows[it + 1] = lam
        E = loom.take(vecs, keep_d, axis=1)
        EX, ER = E[:size], E[size:size + count]
        pp, app = aR @ ER, aAR @ ER
        bpp = aBR @ ER if prob.has_B else None
        if not restart:
            EP = E[size + count:]
            pp, app = pp + aP @ EP, app + aAP @ EP
            bpp = bpp + aBP @ EP if prob.has_B else None
        X, AX = X @ EX + pp, AX @ EX + app
        BX = BX @ EX + bpp if prob.has_B else X
        P, AP, BP = pp, app, bpp

    R = AX - BX * lam_d[None, :]
    res = _residual_norms(R).numpy().astype(np.float64)
    lambda_rows[it + 1] = lam
    residual_rows[it + 1] = res
    mean_res = float(np.sum(np.abs(res))) / size
    if mean_res < smallest:
        smallest, best_it, best_X = mean_res, it + 1, X
    if np.max(np.abs(res)) > tol:
        warnings.warn(f"Exited at iteration {it} with accuracies \n{res}\nnot reaching the requested tolerance "
                      f"{tol}.\nUse iteration {best_it} instead with accuracy \n{smallest}.\n", UserWarning,
                      stacklevel=2)
    if verbosityLevel:
        print(f"Final iterative eigenvalue(s):\n{lam}\nFinal iterative residual norm(s):\n{res}")

    # A last Rayleigh-Ritz step on the best block.
    X = prob.constrain(best_X)
    AX = prob.A(X, "postprocessing iterate")
    BX = prob.B(X, "postprocessing iterate")
    ritz = _rayleigh_ritz(_sym(_herm(X) @ AX), _sym(_herm(X) @ BX))
    if ritz is None:
        raise ValueError("lobpcg: eigh has failed in lobpcg postprocessing")
    host, vals, vecs = ritz
    keep = _select(host, size, largest)
    keep_d = loom.asarray(keep, device=device)
    lam_d, E = loom.take(vals, keep_d), loom.take(vecs, keep_d, axis=1)
    X, AX, BX = X @ E, AX @ E, BX @ E
    res = _residual_norms(AX - BX * lam_d[None, :]).numpy().astype(np.float64)
    lambda_rows[best_it + 1] = host[keep]
    residual_rows[best_it + 1] = res
    if np.max(np.abs(res)) > tol:
        warnings.warn(f"Exited postprocessing with accuracies \n{res}\nnot reaching the requested tolerance {tol}.",
                      UserWarning, stacklevel=2)
    if verbosityLevel:
        print(f"Final postprocessing eigenvalue(s):\n{host[keep]}\nFinal residual norm(s):\n{res}")

    out = [lam_d, X]
    as_device = lambda a: loom.asarray(a, device=device)  # noqa: E731
    if retLambdaHistory:
        out.append(_histories(lambda_rows, best_it, as_device))
    if retResidualNormsHistory:
        out.append(_histories(residual_rows, best_it, as_device))
    return tuple(out)
