"""numpy.linalg's decompositions in loom.linalg against NumPy on fresh random data: solve, inv,
det, slogdet, cholesky (lower/upper), eigh/eigvalsh (UPLO), negative matrix_power; batched and
not, float32/float64 and integer inputs; LinAlgError naming the batch index; the argument
errors. cpu() runs them through LAPACK, GPUs through cuSOLVER (and cuBLAS's batched LU for
stacks of small matrices)."""
import numpy as np
import pytest

import loom

TOL = {"float32": 2e-4, "float64": 1e-10}



def well_conditioned(rng, shape, dtype):
    n = shape[-1]
    return (rng.standard_normal(shape) + n * np.eye(n)).astype(dtype)


def spd(rng, shape, dtype):
    a = rng.standard_normal(shape)
    return (a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])).astype(dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("batch", [(), (3,), (2, 2)])
@pytest.mark.parametrize("n", [5, 40])  # on GPUs: one batched LU call for small stacks, cuSOLVER per matrix beyond 32
def test_solve_inv_det_slogdet(dev, rng, dtype, batch, n):
    a = well_conditioned(rng, batch + (n, n), dtype)
    b = rng.standard_normal(batch + (n, 3)).astype(dtype)
    la, lb = loom.asarray(a, device=dev), loom.asarray(b, device=dev)
    tol = TOL[dtype]
    x = loom.linalg.solve(la, lb)
    assert x.dtype == np.dtype(dtype) and x.shape == batch + (n, 3)
    np.testing.assert_allclose(x.numpy(), np.linalg.solve(a, b), rtol=tol, atol=tol)
    np.testing.assert_allclose(loom.linalg.inv(la).numpy(), np.linalg.inv(a), rtol=tol, atol=tol)
    np.testing.assert_allclose(loom.linalg.det(la).numpy(), np.linalg.det(a), rtol=tol)
    sign, logabs = loom.linalg.slogdet(la)
    want = np.linalg.slogdet(a)
    np.testing.assert_array_equal(sign.numpy(), want.sign)
    np.testing.assert_allclose(logabs.numpy(), want.logabsdet, rtol=tol)


def test_solve_broadcasts_batches_and_takes_vectors(dev, rng):
    a = well_conditioned(rng, (4, 1, 3, 3), "float64")
    b = rng.standard_normal((5, 3, 2))
    np.testing.assert_allclose(loom.linalg.solve(loom.asarray(a, device=dev), loom.asarray(b, device=dev)).numpy(), np.linalg.solve(a, b),
                               rtol=1e-10)
    v = rng.standard_normal(3)
    np.testing.assert_allclose(loom.linalg.solve(loom.asarray(a[0, 0], device=dev), loom.asarray(v, device=dev)).numpy(),
                               np.linalg.solve(a[0, 0], v), rtol=1e-10)


def test_integer_inputs_compute_in_float64(dev):
    a = np.array([[2, 1], [1, 3]])
    got = loom.linalg.inv(loom.asarray(a, device=dev))
    assert got.dtype == np.float64
    np.testing.assert_allclose(got.numpy(), np.linalg.inv(a), rtol=1e-12)
    assert float(loom.linalg.det(loom.asarray(a, device=dev)).numpy()) == pytest.approx(5.0)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("batch", [(), (4,)])
def test_cholesky_lower_and_upper(dev, rng, dtype, batch):
    a = spd(rng, batch + (6, 6), dtype)
    tol = TOL[dtype]
    np.testing.assert_allclose(loom.linalg.cholesky(loom.asarray(a, device=dev)).numpy(), np.linalg.cholesky(a),
                               rtol=tol, atol=tol)
    up = loom.linalg.cholesky(loom.asarray(a, device=dev), upper=True).numpy()
    np.testing.assert_allclose(up, np.swapaxes(np.linalg.cholesky(a), -1, -2), rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh_and_eigvalsh(dev, rng, dtype, uplo):
    a = rng.standard_normal((3, 5, 5)).astype(dtype)  # not symmetric: only one triangle is read
    tol = TOL[dtype] * 10
    w, v = loom.linalg.eigh(loom.asarray(a, device=dev), UPLO=uplo)
    want_w = np.linalg.eigvalsh(a, UPLO=uplo)
    np.testing.assert_allclose(w.numpy(), want_w, rtol=tol, atol=tol)
    np.testing.assert_allclose(loom.linalg.eigvalsh(loom.asarray(a, device=dev), UPLO=uplo).numpy(), want_w,
                               rtol=tol, atol=tol)
    # Eigenvectors are defined up to sign: check A v = w v on the symmetric matrix read.
    tri = np.tril(a) if uplo == "L" else np.triu(a)
    sym = tri + np.swapaxes(tri, -1, -2) - np.eye(5) * np.diagonal(a, axis1=-2, axis2=-1)[..., None, :]
    vv = v.numpy()
    np.testing.assert_allclose(sym @ vv, vv * w.numpy()[..., None, :], rtol=tol, atol=tol)
    np.testing.assert_allclose(np.swapaxes(vv, -1, -2) @ vv, np.broadcast_to(np.eye(5), (3, 5, 5)), atol=tol)


def test_negative_matrix_power(dev, rng):
    a = well_conditioned(rng, (4, 4), "float64")
    np.testing.assert_allclose(loom.linalg.matrix_power(loom.asarray(a, device=dev), -3).numpy(),
                               np.linalg.matrix_power(a, -3), rtol=1e-9)


def test_singular_and_indefinite_raise_linalgerror_with_the_batch_index(dev):
    stack = np.stack([np.eye(3), np.zeros((3, 3)), np.eye(3)])
    with pytest.raises(np.linalg.LinAlgError, match=r"\[linalg.solve\] singular matrix \(batch index 1\)"):
        loom.linalg.solve(loom.asarray(stack, device=dev), loom.ones((3, 3, 1), device=dev))
    with pytest.raises(np.linalg.LinAlgError, match=r"\[linalg.inv\] singular matrix \(batch index 1\)"):
        loom.linalg.inv(loom.asarray(stack, device=dev))
    with pytest.raises(np.linalg.LinAlgError, match=r"\[linalg.cholesky\] matrix is not positive definite$"):
        loom.linalg.cholesky(loom.asarray(-np.eye(2), device=dev))
    indefinite = np.stack([np.eye(2), np.eye(2), np.diag([1.0, -1.0])])
    with pytest.raises(np.linalg.LinAlgError, match=r"\(batch index 2\)"):
        loom.linalg.cholesky(loom.asarray(indefinite, device=dev))
    sign, logabs = loom.linalg.slogdet(loom.asarray(stack, device=dev))  # NumPy: (0, -inf), no error
    np.testing.assert_array_equal(sign.numpy(), [1, 0, 1])
    assert logabs.numpy()[1] == -np.inf
    assert loom.linalg.det(loom.asarray(stack, device=dev)).numpy()[1] == 0


def test_argument_errors(dev):
    with pytest.raises(ValueError, match="must be square"):
        loom.linalg.inv(loom.ones((2, 3), device=dev))
    with pytest.raises(ValueError, match="at least two-dimensional"):
        loom.linalg.det(loom.ones(3, device=dev))
    with pytest.raises(TypeError, match="float16 is unsupported in linalg"):
        loom.linalg.inv(loom.ones((2, 2), dtype="float16", device=dev))
    with pytest.raises(ValueError, match="must match a's size"):
        loom.linalg.solve(loom.eye(3, device=dev), loom.ones(4, device=dev))
    with pytest.raises(ValueError, match="UPLO argument must be"):
        loom.linalg.eigh(loom.eye(2, device=dev), UPLO="X")


def test_empty_matrices(dev):
    assert loom.linalg.inv(loom.ones((0, 0), device=dev)).shape == (0, 0)
    assert float(loom.linalg.det(loom.ones((0, 0), device=dev)).numpy()) == 1.0
    assert loom.linalg.eigvalsh(loom.ones((2, 0, 0), device=dev)).shape == (2, 0)


def _central(f, a, e, eps=1e-6):
    return (f(a + eps * e) - f(a - eps * e)) / (2 * eps)


def test_gradients_against_central_differences(dev, rng):
    """Directional derivatives along random (symmetric where the op reads one triangle)
    directions: solve in a and b, det, slogdet, cholesky, eigvalsh and eigh's vectors."""
    a = well_conditioned(rng, (4, 4), "float64")
    b, w = rng.standard_normal((4, 2)), rng.standard_normal((4, 2))
    s = spd(rng, (4, 4), "float64")
    e = rng.standard_normal((4, 4))
    es = (e + e.T) / 2
    W = rng.standard_normal((4, 4))
    def la(x):
        return loom.asarray(x, device=dev)

    def check(loom_f, np_f, x, direction):
        g = loom.grad(loom_f)(la(x)).numpy()
        np.testing.assert_allclose(np.sum(g * direction), _central(np_f, x, direction), rtol=1e-5, atol=1e-7)

    check(lambda A: loom.sum(loom.linalg.solve(A, la(b)) * la(w)), lambda A: np.sum(np.linalg.solve(A, b) * w), a, e)
    eb = rng.standard_normal(b.shape)
    check(lambda B: loom.sum(loom.linalg.solve(la(a), B) * la(w)), lambda B: np.sum(np.linalg.solve(a, B) * w), b, eb)
    check(loom.linalg.det, np.linalg.det, a, e)
    check(lambda A: loom.linalg.slogdet(A)[1], lambda A: np.linalg.slogdet(A)[1], a, e)
    check(lambda A: loom.sum(loom.linalg.inv(A) * la(W)), lambda A: np.sum(np.linalg.inv(A) * W), a, e)
    check(lambda A: loom.sum(loom.linalg.cholesky(A) * la(W)), lambda A: np.sum(np.linalg.cholesky(A) * W), s, es)
    weights = np.arange(4.0)
    check(lambda A: loom.sum(loom.linalg.eigvalsh(A) * la(weights)),
          lambda A: np.sum(np.linalg.eigvalsh(A) * weights), s, es)

    def loom_vecs(A):
        _, v = loom.linalg.eigh(A)
        return loom.sum(v * loom.sign(v[0]) * la(W))  # eigenvectors up to sign: fix it

    def np_vecs(A):
        _, v = np.linalg.eigh(A)
        return np.sum(v * np.sign(v[0]) * W)
    check(loom_vecs, np_vecs, s, es)


def test_vmap_and_jit(dev, rng):
    a = well_conditioned(rng, (5, 3, 3), "float64")
    np.testing.assert_allclose(loom.vmap(loom.linalg.det)(loom.asarray(a, device=dev)).numpy(), np.linalg.det(a), rtol=1e-10)
    np.testing.assert_allclose(loom.vmap(loom.linalg.inv)(loom.asarray(a, device=dev)).numpy(), np.linalg.inv(a), rtol=1e-10)
    f = loom.jit(lambda m: loom.linalg.eigvalsh(m @ loom.swapaxes(m, -1, -2)))
    np.testing.assert_allclose(f(loom.asarray(a, device=dev)).numpy(), np.linalg.eigvalsh(a @ np.swapaxes(a, -1, -2)), rtol=1e-9)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (2, 4, 4), (2, 3, 6, 2), (0, 3), (3, 0)])
def test_svd_qr_and_what_is_built_on_them(dev, rng, dtype, shape):
    a = rng.standard_normal(shape).astype(dtype)
    la = loom.asarray(a, device=dev)
    tol = TOL[dtype] * 10
    k = min(shape[-2:])
    for full in (True, False):
        u, s, vh = loom.linalg.svd(la, full_matrices=full)
        U, S, VH = np.linalg.svd(a, full_matrices=full)
        assert (u.shape, s.shape, vh.shape) == (U.shape, S.shape, VH.shape)
        np.testing.assert_allclose(s.numpy(), S, rtol=tol, atol=tol)
        uk, vk = u.numpy()[..., :k], vh.numpy()[..., :k, :]
        np.testing.assert_allclose((uk * s.numpy()[..., None, :]) @ vk, a, rtol=tol, atol=tol)
        np.testing.assert_allclose(np.swapaxes(u.numpy(), -1, -2) @ u.numpy(), np.broadcast_to(
            np.eye(u.shape[-1]), u.shape[:-2] + (u.shape[-1],) * 2), atol=tol)
    np.testing.assert_allclose(loom.linalg.svd(la, compute_uv=False).numpy(), np.linalg.svd(a, compute_uv=False),
                               rtol=tol, atol=tol)
    np.testing.assert_allclose(loom.linalg.svdvals(la).numpy(), np.linalg.svd(a, compute_uv=False), rtol=tol, atol=tol)
    for mode in ("reduced", "complete"):
        q, r = loom.linalg.qr(la, mode=mode)
        Q, R = np.linalg.qr(a, mode=mode)
        assert (q.shape, r.shape) == (Q.shape, R.shape)
        # Householder QR is unique up to the signs of Q's columns (R's rows), which LAPACK fixes.
        np.testing.assert_allclose(np.abs(q.numpy()), np.abs(Q), rtol=tol, atol=tol)
        np.testing.assert_allclose(r.numpy(), np.triu(r.numpy()), atol=0)
        np.testing.assert_allclose(q.numpy() @ r.numpy(), a, rtol=tol, atol=tol)
    np.testing.assert_allclose(np.abs(loom.linalg.qr(la, mode="r").numpy()), np.abs(np.linalg.qr(a, mode="r")),
                               rtol=tol, atol=tol)
    np.testing.assert_allclose(loom.linalg.pinv(la).numpy(), np.linalg.pinv(a), rtol=tol * 10, atol=tol * 10)
    np.testing.assert_array_equal(loom.linalg.matrix_rank(la).numpy(), np.linalg.matrix_rank(a))


def test_qr_raw_lstsq_rank_cond_and_matrix_norms(dev, rng):
    a = rng.standard_normal((6, 3))
    h, tau = loom.linalg.qr(loom.asarray(a, device=dev), mode="raw")
    H, TAU = np.linalg.qr(a, mode="raw")
    np.testing.assert_allclose(h.numpy(), H, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(tau.numpy(), TAU, rtol=1e-12)
    for b in (rng.standard_normal(6), rng.standard_normal((6, 2))):
        got, want = loom.linalg.lstsq(loom.asarray(a, device=dev), loom.asarray(b, device=dev)), np.linalg.lstsq(a, b)
        np.testing.assert_allclose(got[0].numpy(), want[0], rtol=1e-10)
        np.testing.assert_allclose(got[1].numpy(), want[1], rtol=1e-10)
        assert got[2] == want[2]
        np.testing.assert_allclose(got[3].numpy(), want[3], rtol=1e-12)
    low_rank = rng.standard_normal((5, 2)) @ rng.standard_normal((2, 4))
    assert int(loom.linalg.matrix_rank(loom.asarray(low_rank, device=dev)).numpy()) == 2
    assert int(loom.linalg.matrix_rank(loom.asarray(low_rank, device=dev), tol=1e3).numpy()) == 0
    got = loom.linalg.lstsq(loom.asarray(low_rank.T, device=dev), loom.asarray(np.ones(4), device=dev))
    assert got[2] == 2 and got[1].shape == (0,)  # rank-deficient: no residuals, as NumPy
    m = rng.standard_normal((3, 4, 4))
    for p in [None, 2, -2, 1, -1, np.inf, -np.inf, "fro"]:
        np.testing.assert_allclose(loom.linalg.cond(loom.asarray(m, device=dev), p).numpy(), np.linalg.cond(m, p),
                                   rtol=1e-9)
    for o in [2, -2, "nuc"]:
        np.testing.assert_allclose(loom.linalg.norm(loom.asarray(m, device=dev), o, axis=(2, 0)).numpy(),
                                   np.linalg.norm(m, o, axis=(2, 0)), rtol=1e-10)
        np.testing.assert_allclose(loom.linalg.norm(loom.asarray(m, device=dev), o, axis=(1, 2), keepdims=True).numpy(),
                                   np.linalg.norm(m, o, axis=(1, 2), keepdims=True), rtol=1e-10)
    with pytest.raises(ValueError, match="Unrecognized mode"):
        loom.linalg.qr(loom.asarray(a, device=dev), mode="full")
    with pytest.raises(ValueError, match="Incompatible dimensions"):
        loom.linalg.lstsq(loom.asarray(a, device=dev), loom.ones(5, device=dev))


def test_singular_value_gradients_and_batching(dev, rng):
    a = rng.standard_normal((5, 3))
    e = rng.standard_normal((5, 3))
    weights = np.array([1.0, -2.0, 0.5])
    g = loom.grad(lambda A: loom.sum(loom.linalg.svdvals(A) * loom.asarray(weights, device=dev)))(loom.asarray(a, device=dev)).numpy()
    fd = _central(lambda A: np.sum(np.linalg.svd(A, compute_uv=False) * weights), a, e)
    np.testing.assert_allclose(np.sum(g * e), fd, rtol=1e-6)
    g = loom.grad(lambda A: loom.linalg.norm(A, "nuc"))(loom.asarray(a, device=dev)).numpy()
    np.testing.assert_allclose(np.sum(g * e), _central(lambda A: np.linalg.norm(A, "nuc"), a, e), rtol=1e-6)
    stack = rng.standard_normal((4, 5, 3))
    np.testing.assert_allclose(loom.vmap(loom.linalg.svdvals)(loom.asarray(stack, device=dev)).numpy(),
                               np.linalg.svd(stack, compute_uv=False), rtol=1e-12)
    np.testing.assert_allclose(loom.vmap(lambda m: loom.linalg.qr(m)[1])(loom.asarray(stack, device=dev)).numpy(),
                               np.stack([np.linalg.qr(m)[1] for m in stack]), rtol=1e-10, atol=1e-12)
    with pytest.raises(NotImplementedError, match="full_matrices=False"):
        loom.grad(lambda A: loom.sum(loom.linalg.svd(A)[0]))(loom.asarray(a, device=dev))
    # qr's factors have a rule (test_grad_qr_eig.py); the Householder form of mode="raw" has none.
    with pytest.raises(NotImplementedError, match="no derivative rule for 'geqrf'"):
        loom.grad(lambda A: loom.sum(loom.linalg.qr(A, mode="raw")[0]))(loom.asarray(a, device=dev))


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4)])
def test_svd_factor_gradients_against_central_differences(dev, rng, shape):
    """Functions of the reduced factors that do not depend on their signs: u diag(c) vh with
    weights c other than s, the projectors u u.T and vh.T vh, and s."""
    a = rng.standard_normal(shape)
    k = min(shape)
    c = rng.standard_normal(k)
    w1, w2, w3 = rng.standard_normal(shape), rng.standard_normal((shape[0],) * 2), rng.standard_normal((shape[1],) * 2)
    ws = rng.standard_normal(k)

    def np_f(A):
        u, s, vh = np.linalg.svd(A, full_matrices=False)
        return (np.sum(w1 * ((u * c) @ vh)) + np.sum(w2 * (u @ u.T)) + np.sum(w3 * (vh.T @ vh))
                + np.sum(ws * s))

    def loom_f(A):
        u, s, vh = loom.linalg.svd(A, full_matrices=False)
        la = lambda x: loom.asarray(x, device=dev)  # noqa: E731
        return (loom.sum(la(w1) * ((u * la(c)) @ vh)) + loom.sum(la(w2) * (u @ u.T)) + loom.sum(la(w3) * (vh.T @ vh))
                + loom.sum(la(ws) * s))
    e = rng.standard_normal(shape)
    g = loom.grad(loom_f)(loom.asarray(a, device=dev)).numpy()
    np.testing.assert_allclose(np.sum(g * e), _central(np_f, a, e), rtol=1e-5, atol=1e-7)
    batched = loom.vmap(loom.grad(loom_f))(loom.asarray(np.stack([a, a]), device=dev)).numpy()
    np.testing.assert_allclose(batched[1], g, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_cond_of_singular_matrices_is_inf(dev, rng, dtype):
    """NumPy's cond ignores inv's errors: a singular matrix (zeros, ones) gives inf for every
    p, also inside a batch beside invertible ones; 0 / 0 from the singular values too."""
    batch = np.stack([np.zeros((3, 3)), np.ones((3, 3)), rng.standard_normal((3, 3)), np.eye(3)]).astype(dtype)
    for p in [None, 2, -2, 1, -1, np.inf, -np.inf, "fro"]:
        for a in (batch, batch[0], batch[1]):
            with np.errstate(all="ignore"):
                want = np.linalg.cond(a, p)
            got = loom.linalg.cond(loom.asarray(a, device=dev), p)
            assert got.dtype == np.asarray(want).dtype
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-4 if dtype == "float32" else 1e-10)


def test_cond_of_an_empty_matrix_raises(dev):
    for shape in [(0, 0), (3, 0, 0)]:
        for p in [None, 2, 1, "fro"]:
            with pytest.raises(np.linalg.LinAlgError, match="empty"):
                loom.linalg.cond(loom.zeros(shape, device=dev), p)
