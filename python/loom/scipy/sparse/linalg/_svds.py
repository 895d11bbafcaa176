"""svds: a few singular triplets of an m x n operator, as scipy.sparse.linalg.svds computes
them: eigenvectors V of the Gram operator X^H X (X = A, or A^H when m < n, so the Gram
operator is min(m, n) square) by eigsh (solver='arpack', loom's Lanczos) or lobpcg, made
orthonormal by a QR, then the small dense SVD of X V gives the singular values and both
sets of vectors. All on the device; the Gram operator is applied one product at a time and
never formed."""
import numpy as np

import loom

from .._sputils import on_device
from ._eigen import eigsh
from ._interface import LinearOperator, operator_device
from ._isolve import as_operator
from ._lobpcg import lobpcg

_RETURN_VECTORS = (True, False, "u", "vh")


def _herm(a):
    return loom.conj(a.T) if a.dtype.kind == "c" else a.T


def _check(A, k, ncv, tol, which, v0, maxiter, return_singular_vectors, solver):
    """SciPy's argument rules (ValueError), plus CuPy's TypeError for non-float operators."""
    solver = str(solver).lower()
    if solver not in ("arpack", "lobpcg", "propack"):
        raise ValueError(f"svds: solver must be one of 'arpack', 'lobpcg', 'propack', got {solver!r}")
    if solver == "propack":
        raise NotImplementedError("svds: solver='propack' is not supported; use 'arpack' or 'lobpcg'")
    op = as_operator("svds", A)
    if op.dtype is None or op.dtype.kind not in "fc":
        raise TypeError(f"svds: A must be of floating or complex floating dtype, got "
                        f"{None if op.dtype is None else op.dtype.name}")
    if min(op.shape) == 0:
        raise ValueError("svds: `A` must not be empty.")
    if isinstance(k, bool) or int(k) != k or not 0 < k < min(op.shape):
        raise ValueError(f"svds: `k` must be an integer satisfying `0 < k < min(A.shape)`, got k={k!r} "
                         f"for shape {op.shape}")
    if solver == "arpack" and ncv is not None and (int(ncv) != ncv or not k < ncv < min(op.shape)):
        raise ValueError(f"svds: `ncv` must be an integer satisfying `k < ncv < min(A.shape)`, got ncv={ncv!r}")
    if tol < 0 or not np.isfinite(tol):
        raise ValueError(f"svds: `tol` must be a non-negative floating point value, got {tol!r}")
    which = str(which).upper()
    if which not in ("LM", "SM"):
        raise ValueError(f"svds: `which` must be 'LM' or 'SM', got {which!r}")
    if v0 is not None:
        v0 = on_device(v0, operator_device(op))
        if v0.dtype.kind not in "fc":
            raise ValueError("svds: `v0` must be of floating or complex floating data type.")
        if v0.shape != (min(op.shape),):
            raise ValueError(f"svds: `v0` must have shape ({min(op.shape)},), got {tuple(v0.shape)}")
    if maxiter is not None and (int(maxiter) != maxiter or maxiter <= 0):
        raise ValueError(f"svds: `maxiter` must be a positive integer, got {maxiter!r}")
    if not any(return_singular_vectors is r or (isinstance(r, str) and return_singular_vectors == r)
               for r in _RETURN_VECTORS):
        raise ValueError(f"svds: `return_singular_vectors` must be True, False, 'u' or 'vh', got "
                         f"{return_singular_vectors!r}")
    return op, int(k), None if ncv is None else int(ncv), float(tol), which, v0, maxiter, solver


def _start_vector(rng, size, dtype, device):
    """v0 for eigsh from SciPy's kinds of rng: a NumPy Generator or seed draws on the host
    (one small vector); a loom Generator, or None, lets eigsh draw on the device."""
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        rng = np.random.default_rng(rng)
    if isinstance(rng, np.random.Generator):
        return loom.asarray(rng.standard_normal(size), device=device).astype(dtype), None
    return None, rng


def svds(A, k=6, ncv=None, tol=0, which="LM", v0=None, maxiter=None, return_singular_vectors=True,
         solver="arpack", rng=None, options=None):
    """The k largest ('LM') or smallest ('SM') singular values of A, with 0 < k < min(A.shape),
    in ascending order (scipy.sparse.linalg.svds). Returns (u, s, vh), or s alone when
    return_singular_vectors is False; 'u' or 'vh' leaves the other as None. A may be a loom
    sparse matrix, a dense loom array or a LinearOperator (with rmatvec) of float or complex
    dtype. tol applies to the Gram operator's eigenpairs as tol**2, maxiter and ncv to eigsh
    (or lobpcg's maxiter), as in SciPy. Accuracy is that of the Gram operator: singular values
    far below the largest lose relative precision."""
    op, k, ncv, tol, which, v0, maxiter, solver = _check(A, k, ncv, tol, which, v0, maxiter,
                                                         return_singular_vectors, solver)
    m, n = op.shape
    dev = operator_device(op)
    dt = op.dtype
    # X is the taller of A and A^H, so that X^H X is the smaller Gram matrix.
    transpose = m < n
    X = op.H if transpose else op
    size = min(m, n)
    gram = LinearOperator((size, size), matvec=lambda v: X.rmatvec(X.matvec(v)), dtype=dt,
                          matmat=lambda V: X.rmatmat(X.matmat(V)))
    gram.device = dev  # eigsh works (and draws its start) where A lives, not on the default device
    if solver == "lobpcg":
        if k == 1 and v0 is not None:
            start = v0.reshape(size, 1).astype(dt)
        else:
            g = rng if isinstance(rng, loom.random.Generator) else loom.random.default_rng(
                rng if isinstance(rng, (int, np.integer)) else None)
            start = g.standard_normal((size, k), device=dev).astype(dt)
        _, eigvec = lobpcg(gram, start, tol=tol ** 2, maxiter=maxiter, largest=which == "LM")
    else:
        start, eigsh_rng = (v0, None) if v0 is not None else _start_vector(rng, size, dt, dev)
        _, eigvec = eigsh(gram, k=k, tol=tol ** 2, maxiter=maxiter, ncv=ncv, which=which, v0=start,
                          rng=eigsh_rng)
        # Lanczos vectors of clustered eigenvalues may drift from orthonormality.
        eigvec = loom.linalg.qr(eigvec)[0]
    XV = X.matmat(eigvec)
    if return_singular_vectors is False:
        return loom.flip(loom.linalg.svdvals(XV))
    u, s, vh = loom.linalg.svd(XV, full_matrices=False)
    u, s, vh = loom.flip(u, axis=1), loom.flip(s), loom.flip(vh, axis=0)
    want_u = return_singular_vectors is True or return_singular_vectors == "u"
    want_vh = return_singular_vectors is True or return_singular_vectors == "vh"
    if transpose:  # A^H = U S V^H with U from XV's left vectors: A = (V_eig W) S U^H
        return (eigvec @ _herm(vh) if want_u else None), s, (_herm(u) if want_vh else None)
    return (u if want_u else None), s, (vh @ _herm(eigvec) if want_vh else None)
