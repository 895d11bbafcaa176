"""loom.scipy.sparse.linalg against scipy.sparse.linalg on fresh random matrices, on every
device: LinearOperator, cg, gmres, norm, spsolve, eigsh, and SciPy's exception types."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as ssl

import loom
from loom.scipy import sparse as ls
from loom.scipy.sparse import linalg as ll
from scipy_compare import check, same_error


def spd(rng, n, dtype=np.float64, density=0.05):
    """A sparse symmetric (Hermitian) positive definite matrix, diagonally dominant."""
    a = sp.random(n, n, density, rng=rng, dtype=np.float64)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * sp.random(n, n, density, rng=rng)
    a = a + a.conj().T
    return (a + sp.diags(np.asarray(abs(a).sum(axis=1)).ravel() + 1.0)).astype(dtype).tocsr()


def general(rng, n, dtype=np.float64):
    a = sp.random(n, n, 0.08, rng=rng) + sp.eye(n) * 4
    return a.astype(dtype).tocsr()


def residual(a, x, b):
    return np.linalg.norm(a @ x - b) / np.linalg.norm(b)


def test_linear_operator(device, rng):
    s = general(rng, 6, np.complex128)
    a = ls.csr_matrix(s, device=device)
    op = ll.aslinearoperator(a)
    x, y = rng.standard_normal(6) + 1j, rng.standard_normal((6, 2))
    assert op.shape == (6, 6) and op.dtype == loom.complex128
    check(op.matvec(x), s @ x, device=device)
    check(op.rmatvec(x), s.conj().T @ x)
    check(op.matmat(y), s @ y)
    check(op @ y, s @ y)
    check(op.H @ x, s.conj().T @ x)
    check(op.T @ x, s.T @ x)
    check((2 * op + op) @ x, 3 * (s @ x))
    check((op @ op) @ x, s @ (s @ x))
    check(x @ op, x @ s)
    custom = ll.LinearOperator((6, 6), matvec=lambda v: a @ v, rmatvec=lambda v: a.conj().T @ v)
    assert custom.dtype == loom.complex128  # SciPy's rule: one matvec of zeros
    check(custom.matmat(y), s @ y)
    check(custom.H.matvec(x), s.conj().T @ x)

    class Diag(ll.LinearOperator):
        def __init__(self, d):
            super().__init__(d.dtype, (d.shape[0], d.shape[0]))
            self.d = d

        def _matvec(self, v):
            return self.d * v.reshape(-1)

    dd = loom.asarray(np.arange(1.0, 7.0), device=device)
    with loom.device(device):  # NumPy operands go to the default device, where the operators are
        check(Diag(dd).matvec(np.ones(6)), np.arange(1.0, 7.0))
        check(ll.aslinearoperator(loom.asarray(s.toarray(), device=device)) @ x, s @ x)
    with pytest.raises(TypeError):
        ll.aslinearoperator("no")
    with pytest.raises(ValueError, match="dimension mismatch"):
        op.matvec(np.ones(5))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_cg(device, rng, dtype):
    s = spd(rng, 120, dtype)
    b = rng.standard_normal(120).astype(dtype)
    a = ls.csr_matrix(s, device=device)
    tol = 1e-5 if dtype != np.float32 else 1e-4
    x, info = ll.cg(a, loom.asarray(b, device=device), rtol=tol)
    assert info == 0 and x.device == device and x.dtype == np.dtype(dtype)
    assert residual(s, x.numpy(), b) <= tol * 1.01
    want, _ = ssl.cg(s, b, rtol=tol)
    assert np.linalg.norm(x.numpy() - want) <= 10 * tol * np.linalg.norm(want)
    # A Jacobi preconditioner, a start, a callback; too few iterations give info = maxiter.
    jac = ll.LinearOperator(s.shape, matvec=lambda v: v / loom.asarray(s.diagonal(), device=device),
                            dtype=dtype)
    seen = []
    x, info = ll.cg(a, b, x0=np.ones(120, dtype), rtol=tol, M=jac, callback=seen.append)
    assert info == 0 and residual(s, x.numpy(), b) <= tol * 1.01 and len(seen) > 0
    x, info = ll.cg(a, b, rtol=1e-12, maxiter=2)
    assert info == 2
    x, info = ll.cg(a, np.zeros(120, dtype))
    assert info == 0 and not x.numpy().any()


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_gmres(device, rng, dtype):
    s = general(rng, 100, dtype)
    b = (rng.standard_normal(100) + (1j * rng.standard_normal(100) if dtype == np.complex128 else 0)).astype(dtype)
    a = ls.csr_matrix(s, device=device)
    for kw in ({}, {"restart": 5}, {"M": ll.aslinearoperator(ls.diags(1 / s.diagonal(), device=device))},
               {"x0": np.ones(100, dtype), "atol": 1e-8, "rtol": 0.0}):
        x, info = ll.gmres(a, b, **kw)
        tol = max(kw.get("atol", 0.0), kw.get("rtol", 1e-5) * np.linalg.norm(b))
        assert info == 0 and x.device == device
        assert np.linalg.norm(s @ x.numpy() - b) <= tol * 1.01, kw
    res = []
    x, info = ll.gmres(a, b, restart=3, maxiter=1, rtol=1e-12, callback=res.append, callback_type="pr_norm")
    assert info == 1 and len(res) == 3 and res[-1] < 1
    xs = []
    x, info = ll.gmres(a, b, callback=xs.append, callback_type="x")
    assert info == 0 and len(xs) >= 1
    want, _ = ssl.gmres(s, b, rtol=1e-10)
    x, _ = ll.gmres(a, b, rtol=1e-10)
    check(x, want, rtol=1e-7)


def test_norm(device, rng):
    for s in (sp.random(7, 5, 0.4, rng=rng, format="csr"), sp.csr_matrix((3, 4)),
              sp.coo_matrix((np.array([1.0, -2.0, 3.0j]), (np.array([0, 0, 2]), np.array([1, 1, 0]))), shape=(3, 2))):
        a = ls.csr_matrix(s.tocsr(), device=device) if s.format != "coo" else ls.coo_matrix(s, device=device)
        for ord in (None, "fro", 1, -1, np.inf, -np.inf):
            check(ll.norm(a, ord), np.asarray(ssl.norm(s, ord)), device=device)
        for axis in (0, 1, -1):
            for ord in (None, 1, 2, np.inf, -np.inf, 0, 3):
                # older SciPy returns a (1, n) np.matrix here; ord=0 counts are int64 in loom
                # (NumPy's count_nonzero), int32 or int64 in SciPy by version
                check(ll.norm(a, ord, axis=axis), np.asarray(ssl.norm(s, ord, axis=axis)).ravel(), dtype=ord != 0)
        check(ll.norm(a, axis=(1, 0)), np.asarray(ssl.norm(s, axis=(1, 0))))
    with pytest.raises(NotImplementedError, match="svds"):
        ll.norm(a, 2)
    err = same_error(lambda: ll.norm(a, "bad"), lambda: ssl.norm(s, "bad"))
    assert "norm order" in str(err)
    assert "not sparse" in str(same_error(lambda: ll.norm(np.eye(2)), lambda: ssl.norm(np.eye(2))))


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_spsolve(device, rng, dtype):
    s = general(rng, 40, dtype)
    a = ls.csc_matrix(s.tocsc(), device=device)
    b1, b2 = rng.standard_normal(40).astype(dtype), rng.standard_normal((40, 3)).astype(dtype)
    check(ll.spsolve(a, b1), ssl.spsolve(s.tocsc(), b1), device=device)
    check(ll.spsolve(a, b2), ssl.spsolve(s.tocsc(), b2))
    check(ll.spsolve(a, b2[:, :1]), ssl.spsolve(s.tocsc(), b2[:, :1]))
    bs = sp.random(40, 2, 0.3, rng=rng, format="csc")
    got = ll.spsolve(a, ls.csc_matrix(bs, device=device))
    assert ls.issparse(got)
    check(got.toarray(), ssl.spsolve(s.tocsc(), bs).toarray())
    sing = ls.csr_matrix(np.array([[1.0, 2.0], [2.0, 4.0]]), device=device)
    if device == loom.cpu():  # LAPACK reports the singular pivot; cuSOLVER's getrs does not raise
        with pytest.warns(ll.MatrixRankWarning):
            assert np.isnan(ll.spsolve(sing, np.ones(2)).numpy()).all()
    for call in (lambda m, x: m.spsolve(x(np.ones((2, 3))), np.ones(2)),
                 lambda m, x: m.spsolve(x(np.eye(3)), np.ones(4))):
        same_error(lambda: call(ll, lambda d: ls.csr_matrix(d, device=device)), lambda: call(ssl, sp.csc_matrix))
    with pytest.raises(NotImplementedError, match="4096"):
        ll.spsolve(ls.eye(5000, device=device), np.ones(5000))


@pytest.mark.parametrize("which", ["LM", "SM", "LA", "SA", "BE"])
def test_eigsh(device, rng, which):
    # Indefinite, so that both ends matter; but definite for SM, which without shift-invert
    # (sigma) asks for interior eigenvalues of an indefinite matrix, where Lanczos (and ARPACK)
    # converge very slowly.
    s = spd(rng, 150, density=0.03) - sp.eye(150) * (3 if which != "SM" else 0)
    a = ls.csr_matrix(s, device=device)
    w, v = ll.eigsh(a, k=4, which=which, rng=1)
    want = ssl.eigsh(s, k=4, which=which, return_eigenvectors=False)
    np.testing.assert_allclose(w.numpy(), np.sort(want), rtol=1e-9, atol=1e-9)
    assert v.shape == (150, 4) and v.device == device
    vv = v.numpy()
    np.testing.assert_allclose(s @ vv, vv * w.numpy(), atol=1e-7)


def test_eigsh_complex_small_and_errors(device, rng):
    s = spd(rng, 30, np.complex128, density=0.2)
    w = ll.eigsh(ls.csr_matrix(s, device=device), k=3, return_eigenvectors=False)
    np.testing.assert_allclose(w.numpy(), np.sort(np.linalg.eigvalsh(s.toarray()))[-3:], rtol=1e-10)
    d = ls.diags(np.arange(1.0, 9.0), device=device)  # ncv = n: one cycle spans the space
    check(ll.eigsh(d, k=2, which="SA", return_eigenvectors=False), np.array([1.0, 2.0]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check(ll.eigsh(ls.diags(np.arange(1.0, 4.0), device=device), k=3)[0], np.array([1.0, 2.0, 3.0]))
    a, sa = ls.eye(10, device=device), sp.eye(10)
    for kw in ({"which": "XX"}, {"k": 0}, {"ncv": 3, "k": 4}):
        same_error(lambda: ll.eigsh(a, **kw), lambda: ssl.eigsh(sa, **kw))
    with pytest.raises(NotImplementedError, match="sigma"):
        ll.eigsh(a, k=2, sigma=1.0)
    with pytest.raises(ll.ArpackNoConvergence):
        ll.eigsh(ls.csr_matrix(spd(rng, 200), device=device), k=3, which="SM", ncv=8, maxiter=1)
