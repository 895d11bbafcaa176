"""loom.scipy.sparse.linalg's bicgstab, cgs, minres, lsqr, lsmr, svds, lobpcg and
matrix_power on fresh random matrices, on every device: against SciPy's results (the same
recurrences give the same iterates), float64 NumPy references (residuals, numpy.linalg.svd,
numpy.linalg.eigh), and SciPy's exception types."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as ssl

import loom
from loom.scipy import sparse as ls
from loom.scipy.sparse import linalg as ll
from scipy_compare import check, same_error


def nonsymmetric(rng, n, dtype=np.float64):
    """A sparse, diagonally dominant nonsymmetric matrix (well conditioned)."""
    a = sp.random(n, n, 0.08, rng=rng)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * sp.random(n, n, 0.08, rng=rng)
    return (a + sp.eye(n) * 4).astype(dtype).tocsr()


def symmetric_indefinite(rng, n, dtype=np.float64):
    """A sparse Hermitian matrix with eigenvalues on both sides of zero, away from it."""
    a = sp.random(n, n, 0.05, rng=rng)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * sp.random(n, n, 0.05, rng=rng)
    signs = np.where(np.arange(n) % 2 == 0, 3.0, -3.0)
    return (a + a.conj().T + sp.diags(signs)).astype(dtype).tocsr()


def vector(rng, n, dtype):
    v = rng.standard_normal(n)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * rng.standard_normal(n)
    return v.astype(dtype)


def relative_residual(s, x, b):
    return np.linalg.norm(s @ x - b) / np.linalg.norm(b)


@pytest.mark.parametrize("name", ["bicgstab", "cgs"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_bicgstab_cgs(device, rng, name, dtype):
    solve, reference = getattr(ll, name), getattr(ssl, name)
    n = 120
    s = nonsymmetric(rng, n, dtype)
    b = vector(rng, n, dtype)
    a = ls.csr_matrix(s, device=device)
    # float32 stops at 1e-3: much further, (r~, r) may fall under SciPy's breakdown threshold.
    rtol = 1e-3 if dtype == np.float32 else 1e-8
    x, info = solve(a, loom.asarray(b, device=device), rtol=rtol)
    assert info == 0 and x.device == device and x.dtype == np.dtype(dtype)
    assert relative_residual(s, x.numpy().astype(np.complex128), b) <= rtol * 1.01
    if dtype != np.float32:  # the same recurrence: SciPy's iterates, up to rounding
        want, want_info = reference(s, b, rtol=rtol)
        assert want_info == 0
        check(x, want, rtol=1e-6)
        early, info = solve(a, b, rtol=1e-14, maxiter=3)
        assert info == 3
        check(early, reference(s, b, rtol=1e-14, maxiter=3)[0], rtol=1e-10)
    # A Jacobi preconditioner as a sparse matrix, a start, a callback per iteration.
    seen = []
    jacobi = ls.diags(1 / s.diagonal(), device=device)
    x, info = solve(a, b, x0=np.ones(n, dtype), rtol=rtol, M=jacobi, callback=seen.append)
    assert seen and x.dtype == np.dtype(dtype)
    # float32 CGS (the squared BiCG polynomial) can wander around 1e-3 for all its iterations:
    # SciPy's does on about 1 in 500 of these random systems, loom's as often (other ones).
    if not (name == "cgs" and dtype == np.float32):
        assert info == 0 and relative_residual(s, x.numpy().astype(np.complex128), b) <= rtol * 1.01
    else:  # converged, or ran out its default 10 n iterations with a callback after each
        assert info == 0 or (info == 10 * n and len(seen) == 10 * n)
    # Too few iterations report maxiter; b = 0 gives x = 0 at once; an (n, 1) b gives a 1-d x.
    assert solve(a, b, rtol=1e-14, atol=0.0, maxiter=2)[1] == 2
    x, info = solve(a, np.zeros(n, dtype))
    assert info == 0 and not x.numpy().any()
    assert solve(a, b.reshape(n, 1), rtol=rtol)[0].shape == (n,)


@pytest.mark.parametrize("name", ["bicgstab", "cgs", "minres"])
def test_square_solver_errors(device, rng, name):
    solve, reference = getattr(ll, name), getattr(ssl, name)
    s = nonsymmetric(rng, 8)
    a = ls.csr_matrix(s, device=device)
    b = np.ones(8)
    for args, kw in [((ls.csr_matrix(sp.random(8, 9, 0.5, rng=rng), device=device), b), {}),
                     ((a, np.ones(9)), {}), ((a, np.ones((8, 2))), {}),
                     ((a, b), {"x0": np.ones(9)}),
                     ((a, b), {"M": ls.eye(9, device=device)})]:
        sargs = tuple(x.get() if ls.issparse(x) else x for x in args)
        skw = {k: (v.get() if ls.issparse(v) else v) for k, v in kw.items()}
        err = same_error(lambda: solve(*args, **kw), lambda: reference(*sargs, **skw))
        assert name in str(err)
    with pytest.raises(TypeError, match=name):  # CuPy's rule for integer operators
        solve(loom.ones((8, 8), dtype=loom.int32, device=device), b)
    if name != "minres":
        same_error(lambda: solve(a, b, atol=None), lambda: reference(s, b, atol=None))


def minres_converged(s, x, b, rtol):
    """MINRES's own test, ||b - A x|| <= rtol ||A|| ||x||, with room for its estimates of
    ||A|| (the Lanczos coefficients' Frobenius norm, below ||A||_F) and of ||r||."""
    return np.linalg.norm(b - s @ x) <= 10 * rtol * sp.linalg.norm(s) * np.linalg.norm(x)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_minres(device, rng, dtype):
    n = 150
    s = symmetric_indefinite(rng, n, dtype)
    b = vector(rng, n, dtype)
    a = ls.csr_matrix(s, device=device)
    x, info = ll.minres(a, loom.asarray(b, device=device), rtol=1e-10)
    assert info == 0 and x.device == device and x.dtype == np.dtype(dtype)
    assert minres_converged(s, x.numpy(), b, 1e-10)
    x_ref = np.linalg.solve(s.toarray(), b)
    cond = np.linalg.cond(s.toarray())
    assert np.linalg.norm(x.numpy() - x_ref) <= 1e-9 * cond * np.linalg.norm(x_ref)
    if dtype == np.float64:  # SciPy's inner product does not conjugate: compare real systems only
        want, _ = ssl.minres(s, b, rtol=1e-10)
        check(x, want, rtol=1e-8)
        check(ll.minres(a, b, rtol=1e-14, maxiter=4)[0], ssl.minres(s, b, rtol=1e-14, maxiter=4)[0], rtol=1e-10)
    # A shift, a positive definite Jacobi preconditioner, a start, a callback.
    seen = []
    shifted = s - 0.5 * sp.eye(n)
    jacobi = ls.diags(1 / np.abs(s.diagonal()), device=device)
    x, info = ll.minres(a, b, shift=0.5, M=jacobi, x0=np.ones(n, dtype), rtol=1e-10, callback=seen.append)
    assert info == 0 and seen and minres_converged(shifted, x.numpy(), b, 1e-10)
    assert ll.minres(a, b, rtol=1e-14, maxiter=3)[1] == 3
    # SciPy returns double precision from float32 input.
    x32, _ = ll.minres(ls.csr_matrix(s.real.astype(np.float32), device=device), b.real.astype(np.float32))
    assert x32.dtype == np.float64
    with pytest.raises(ValueError, match="minres: indefinite preconditioner"):
        ll.minres(a, b, M=-ls.eye(n, device=device))


def least_squares_problem(rng, m, n, dtype=np.float64):
    a = sp.random(m, n, 0.3, rng=rng) + sp.eye(m, n) * 2
    if np.dtype(dtype).kind == "c":
        a = a + 1j * sp.random(m, n, 0.3, rng=rng)
    return a.astype(dtype).tocsr(), vector(rng, m, dtype)


def damped_solution(s, b, damp):
    """min ||A x - b||^2 + damp^2 ||x||^2 as a stacked least-squares problem, in float64."""
    a = s.toarray()
    stacked = np.vstack([a, damp * np.eye(a.shape[1])])
    return np.linalg.lstsq(stacked, np.concatenate([b, np.zeros(a.shape[1])]), rcond=None)[0]


@pytest.mark.parametrize("name", ["lsqr", "lsmr"])
@pytest.mark.parametrize("shape", [(90, 60), (60, 90)])
@pytest.mark.parametrize("damp", [0.0, 0.7])
def test_least_squares(device, rng, name, shape, damp):
    solve, reference = getattr(ll, name), getattr(ssl, name)
    s, b = least_squares_problem(rng, *shape)
    a = ls.csr_matrix(s, device=device)
    tols = dict(atol=1e-12, btol=1e-12)
    # Room to converge (lsmr's default limit, min(m, n), is where it would end here).
    room = {"iter_lim": 400} if name == "lsqr" else {"maxiter": 400}
    out = solve(a, loom.asarray(b, device=device), damp=damp, **tols, **room)
    want = reference(s, b, damp=damp, **tols, **room)
    assert len(out) == len(want) == (10 if name == "lsqr" else 8)
    x = out[0]
    assert x.device == device and x.dtype == np.float64
    ref = damped_solution(s, b, damp)
    assert np.linalg.norm(x.numpy() - ref) <= 1e-8 * np.linalg.norm(ref)
    check(x, want[0], rtol=1e-8)
    # istop; itn nearly (once orthogonality is lost, rounding moves the last steps); ||r||.
    assert out[1] == want[1] and abs(out[2] - want[2]) <= max(2, want[2] // 10)
    np.testing.assert_allclose(out[3], want[3], rtol=1e-6, atol=1e-8 * np.linalg.norm(b))
    # A start x0 and an iteration limit (istop 7); b as an (m, 1) column.
    limit = {"iter_lim": 3} if name == "lsqr" else {"maxiter": 3}
    # Before rounding makes the bidiagonalization lose orthogonality, every estimate (||r||,
    # ||A^H r||, ||A||, cond(A), ...) follows SciPy's to rounding.
    out = solve(a, b.reshape(-1, 1), x0=np.ones(shape[1]), damp=damp, **tols, **limit)
    want = reference(s, b, x0=np.ones(shape[1]), damp=damp, **tols, **limit)
    assert out[1] == 7 and out[2] == 3
    check(out[0], want[0], rtol=1e-8)
    np.testing.assert_allclose(np.array(out[3:9], dtype=float), np.array(want[3:9], dtype=float), rtol=1e-8)


@pytest.mark.parametrize("name", ["lsqr", "lsmr"])
def test_least_squares_complex_and_errors(device, rng, name):
    solve, reference = getattr(ll, name), getattr(ssl, name)
    s, b = least_squares_problem(rng, 50, 30, np.complex128)
    limit = {"iter_lim": 200} if name == "lsqr" else {"maxiter": 200}  # lsmr's default is min(m, n)
    out = solve(ls.csr_matrix(s, device=device), b, atol=1e-12, btol=1e-12, **limit)
    assert out[1] != 7
    x = out[0]
    assert x.dtype == np.complex128
    ref = np.linalg.lstsq(s.toarray(), b, rcond=None)[0]
    assert np.linalg.norm(x.numpy() - ref) <= 1e-8 * np.linalg.norm(ref)
    a = ls.csr_matrix(s.real.tocsr(), device=device)
    for bad_b in (np.ones(51), np.ones((2, 50))):
        err = same_error(lambda: solve(a, bad_b), lambda: reference(s.real, bad_b))
        assert name in str(err)
    with pytest.raises(ValueError, match=name):
        solve(a, np.ones(50), x0=np.ones(31))
    # b = 0: x = 0 at once (istop 0).
    out = solve(a, np.zeros(50))
    assert out[1] == 0 and not out[0].numpy().any()


def sparse_rect(rng, shape, dtype):
    a = sp.random(*shape, 0.3, rng=rng)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * sp.random(*shape, 0.3, rng=rng)
    return a.astype(dtype).tocsr()


@pytest.mark.parametrize("shape", [(80, 50), (50, 80)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_svds(device, rng, shape, dtype):
    s = sparse_rect(rng, shape, dtype)
    a = ls.csr_matrix(s, device=device)
    k = 6
    dense = s.toarray().astype(np.complex128 if np.dtype(dtype).kind == "c" else np.float64)
    U, S, Vh = np.linalg.svd(dense, full_matrices=False)
    rtol = 2e-4 if dtype == np.float32 else 1e-9
    u, sv, vh = ll.svds(a, k=k)
    real = np.float32 if dtype == np.float32 else np.float64
    assert sv.dtype == real and u.dtype == np.dtype(dtype) and vh.dtype == np.dtype(dtype)
    assert u.shape == (shape[0], k) and vh.shape == (k, shape[1]) and u.device == device
    np.testing.assert_allclose(sv.numpy(), S[:k][::-1], rtol=rtol)  # ascending, as SciPy's
    # The rank-k approximation is unique (distinct singular values), the vectors up to phase.
    approx = u.numpy() @ np.diag(sv.numpy()) @ vh.numpy()
    best = U[:, :k] @ np.diag(S[:k]) @ Vh[:k]
    assert np.abs(approx - best).max() <= 10 * rtol * S[0]
    np.testing.assert_allclose(np.conj(u.numpy()).T @ u.numpy(), np.eye(k), atol=10 * rtol)
    # Singular values alone, 'u' / 'vh' only, a LinearOperator, the smallest ones, lobpcg.
    check(ll.svds(a, k=k, return_singular_vectors=False), S[:k][::-1].astype(real), rtol=rtol)
    u_only = ll.svds(a, k=3, return_singular_vectors="u")
    assert u_only[2] is None and u_only[0].shape == (shape[0], 3)
    vh_only = ll.svds(ll.aslinearoperator(a), k=3, return_singular_vectors="vh")
    assert vh_only[0] is None and vh_only[2].shape == (3, shape[1])
    if dtype == np.float64:
        small = ll.svds(a, k=3, which="SM", return_singular_vectors=False)
        np.testing.assert_allclose(small.numpy(), np.sort(S[-3:]), rtol=1e-6)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            # A seeded start: the test is reproducible (an unseeded one draws fresh entropy).
            top = ll.svds(a, k=2, solver="lobpcg", maxiter=200, rng=int(rng.integers(1 << 31)),
                          return_singular_vectors=False)
        np.testing.assert_allclose(top.numpy(), S[:2][::-1], rtol=1e-6)
        check(ll.svds(a, k=4, rng=np.random.default_rng(1), return_singular_vectors=False),
              ssl.svds(s, k=4, rng=np.random.default_rng(1), return_singular_vectors=False), rtol=1e-9)


def test_svds_errors(device, rng):
    s = sparse_rect(rng, (12, 9), np.float64)
    a = ls.csr_matrix(s, device=device)
    for kw in ({"k": 0}, {"k": 9}, {"k": 20}, {"k": 3, "which": "LA"}, {"k": 3, "ncv": 2}, {"k": 3, "tol": -1.0},
               {"k": 3, "maxiter": 0}, {"k": 3, "return_singular_vectors": "x"}, {"k": 3, "solver": "nope"},
               {"k": 3, "v0": np.ones(5)}):
        err = same_error(lambda: ll.svds(a, **kw), lambda: ssl.svds(s, **kw))
        assert "svds" in str(err)
    with pytest.raises(ValueError):
        ll.svds(loom.ones(4, device=device))
    with pytest.raises(TypeError, match="svds"):
        ll.svds(loom.ones((4, 4), dtype=loom.int32, device=device), k=1)


def spd_dense(rng, n):
    """A dense SPD matrix (n >= 6) in a random basis whose three largest and smallest
    eigenvalues stand apart (LOBPCG's rate depends on those gaps)."""
    q = np.linalg.qr(rng.standard_normal((n, n)))[0]
    spectrum = np.concatenate([[0.5, 1.0, 1.5], np.linspace(3.0, 30.0, n - 6), [40.0, 45.0, 50.0]])
    return (q * spectrum) @ q.T


@pytest.mark.parametrize("largest", [True, False])
def test_lobpcg(device, rng, largest):
    n, k = 100, 3
    s = spd_dense(rng, n)
    a = ls.csr_matrix(sp.csr_matrix(s), device=device)
    X = rng.standard_normal((n, k))
    w_all, v_all = np.linalg.eigh(s)
    want = w_all[::-1][:k] if largest else w_all[:k]
    M = None if largest else ls.csr_matrix(sp.csr_matrix(np.linalg.inv(s)), device=device)  # an ideal preconditioner
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        w, v, lh, rh = ll.lobpcg(a, loom.asarray(X, device=device), M=M, tol=1e-8, maxiter=500, largest=largest,
                                 retLambdaHistory=True, retResidualNormsHistory=True)
    assert w.device == device and v.shape == (n, k) and w.dtype == np.float64
    np.testing.assert_allclose(w.numpy(), want, rtol=1e-7)
    assert np.abs(s @ v.numpy() - v.numpy() * w.numpy()).max() <= 1e-6
    np.testing.assert_allclose(v.numpy().T @ v.numpy(), np.eye(k), atol=1e-8)
    assert len(lh) == len(rh) >= 2 and lh[0].shape == (k,)


def test_lobpcg_generalized_constrained(device, rng):
    n, k = 120, 2
    diag_a = np.arange(1.0, n + 1)
    diag_b = rng.uniform(0.5, 2.0, n)
    a = ls.diags(diag_a, device=device)
    b = ls.diags(diag_b, device=device)
    Y = np.eye(n, 2)  # exclude the first two coordinates
    X = rng.standard_normal((n, k))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        w, v = ll.lobpcg(a, X, B=b, Y=Y, M=ls.diags(1 / diag_a, device=device), tol=1e-9, maxiter=300, largest=False)
    ratios = np.sort((diag_a / diag_b)[2:])
    np.testing.assert_allclose(w.numpy(), ratios[:k], rtol=1e-7)
    vv = v.numpy()
    assert np.abs(vv[:2]).max() <= 1e-8  # B-orthogonal to Y = the first two coordinates
    np.testing.assert_allclose(vv.T @ (diag_b[:, None] * vv), np.eye(k), atol=1e-8)
    # A callable operator, float32: the working dtype follows the inputs. (Unpreconditioned
    # float32 LOBPCG may stagnate where the top eigenvalues are crowded, SciPy's too: give
    # them room.)
    top = diag_a.copy()
    top[-2:] = [190.0, 200.0]
    a32 = ls.diags(top, device=device).astype(loom.float32)
    w32, v32 = ll.lobpcg(lambda V: a32 @ V, loom.asarray(X.astype(np.float32), device=device), tol=1e-2,
                         maxiter=100, largest=True)
    assert w32.dtype == np.float32 and v32.dtype == np.float32
    np.testing.assert_allclose(w32.numpy(), [200.0, 190.0], rtol=1e-3)


def test_lobpcg_dense_path_and_errors(device, rng):
    n = 8
    s = spd_dense(rng, n)
    X = rng.standard_normal((n, 2))
    with pytest.warns(UserWarning, match="dense eigensolver"):
        w, v = ll.lobpcg(loom.asarray(s, device=device), X, largest=False)
    np.testing.assert_allclose(w.numpy(), np.linalg.eigvalsh(s)[:2], rtol=1e-10)
    with pytest.warns(UserWarning):
        w_ref, _ = ssl.lobpcg(s, X, largest=False)
    check(w, w_ref, rtol=1e-10)
    with pytest.warns(UserWarning), pytest.raises(NotImplementedError):
        ll.lobpcg(loom.asarray(s, device=device), X, Y=np.eye(n, 1))
    with pytest.raises(ValueError, match="rank-2"):
        ll.lobpcg(loom.asarray(s, device=device), np.ones(n))
    dependent = np.zeros((60, 2))
    dependent[:, 0] = 1.0
    same_error(lambda: ll.lobpcg(ls.eye(60, device=device), dependent), lambda: ssl.lobpcg(sp.eye(60), dependent))


def test_matrix_power(device, rng):
    s = sp.random(30, 30, 0.1, rng=rng, format="csr")
    for fmt in ("csr", "csc", "coo"):
        a = getattr(ls, f"{fmt}_array")(s.asformat(fmt), device=device)
        for p in (0, 1, 2, 3, 6, np.int64(5)):
            got = ll.matrix_power(a, p)
            assert ls.issparse(got) and got.device == device and got.dtype == np.float64
            check(loom.asarray(got.toarray()), ssl.matrix_power(s.asformat(fmt), p).toarray(), rtol=1e-12)
    m = ls.csr_matrix(s, device=device)
    assert isinstance(ll.matrix_power(m, 2), ls.spmatrix)
    one = ll.matrix_power(m, 1)
    assert one is not m
    with pytest.raises(ValueError, match=">= 0"):
        ll.matrix_power(m, -1)
    with pytest.raises(ValueError, match="integer"):
        ll.matrix_power(m, 2.0)
    same_error(lambda: ll.matrix_power(ls.csr_matrix(np.ones((2, 3)), device=device), 2),
               lambda: ssl.matrix_power(sp.csr_matrix(np.ones((2, 3))), 2))


def test_pow_is_the_matrix_power_for_matrices_and_elementwise_for_arrays(device, rng):
    s = sp.random(12, 12, 0.3, rng=rng, format="csr")
    m, a = ls.csr_matrix(s, device=device), ls.csr_array(s, device=device)
    for p in (0, 1, 3):
        got = m ** p
        assert isinstance(got, ls.spmatrix), p  # ** 0 too: `*` on it stays the matrix product
        check(loom.asarray(got.toarray()), (s ** p).toarray(), rtol=1e-12)
    check(loom.asarray((a ** 2).toarray()), (sp.csr_array(s) ** 2).toarray(), rtol=1e-12)
    with pytest.raises(ValueError, match=">= 0"):
        m ** -1
