"""numpy.linalg's decompositions on complex64/complex128 matrices, and eig/eigvals on every
dtype, against NumPy on fresh random data on every device: solve, inv, det, slogdet, cholesky
(both triangles), eigh/eigvalsh (UPLO), svd (full and reduced, tall and wide), qr (its modes),
pinv, lstsq, matrix_rank, cond; batched and not; LinAlgError for a singular complex matrix."""
import numpy as np
import pytest

import loom

CTYPES = ["complex64", "complex128"]
TOL = {"complex64": 3e-4, "complex128": 1e-10, "float32": 3e-4, "float64": 1e-10}


def crandn(rng, shape, dtype):
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def well_conditioned(rng, shape, dtype):
    return (crandn(rng, shape, dtype) + 2 * shape[-1] * np.eye(shape[-1])).astype(dtype)


def hermitian_pd(rng, shape, dtype):
    a = crandn(rng, shape, "complex128")
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + shape[-1] * np.eye(shape[-1])).astype(dtype)


def la(x, dev):
    return loom.asarray(x, device=dev)


@pytest.mark.parametrize("dtype", CTYPES)
@pytest.mark.parametrize("batch", [(), (3,)])
@pytest.mark.parametrize("n", [4, 40])  # on GPUs: one batched LU call for small stacks, cuSOLVER per matrix beyond 32
def test_solve_inv_det_slogdet(dev, rng, dtype, batch, n):
    a = well_conditioned(rng, batch + (n, n), dtype)
    b = crandn(rng, batch + (n, 2), dtype)
    tol = TOL[dtype]
    x = loom.linalg.solve(la(a, dev), la(b, dev))
    assert x.dtype == np.dtype(dtype)
    np.testing.assert_allclose(x.numpy(), np.linalg.solve(a, b), rtol=tol, atol=tol)
    np.testing.assert_allclose(loom.linalg.inv(la(a, dev)).numpy(), np.linalg.inv(a), rtol=tol, atol=tol)
    sign, logabs = loom.linalg.slogdet(la(a, dev))
    want = np.linalg.slogdet(a)
    assert sign.dtype == np.dtype(dtype) and logabs.dtype == np.dtype(want.logabsdet.dtype)
    np.testing.assert_allclose(sign.numpy(), want.sign, rtol=tol * 10, atol=tol * 10)
    np.testing.assert_allclose(logabs.numpy(), want.logabsdet, rtol=tol)
    if n == 4:  # larger determinants overflow complex64 in both libraries
        np.testing.assert_allclose(loom.linalg.det(la(a, dev)).numpy(), np.linalg.det(a), rtol=tol * 10)


@pytest.mark.parametrize("dtype", CTYPES)
def test_cholesky_both_triangles(dev, rng, dtype):
    a = hermitian_pd(rng, (3, 6, 6), dtype)
    tol = TOL[dtype] * 10
    np.testing.assert_allclose(loom.linalg.cholesky(la(a, dev)).numpy(), np.linalg.cholesky(a), rtol=tol, atol=tol)
    np.testing.assert_allclose(loom.linalg.cholesky(la(a, dev), upper=True).numpy(),
                               np.linalg.cholesky(a, upper=True), rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", CTYPES)
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh_and_eigvalsh(dev, rng, dtype, uplo):
    a = crandn(rng, (2, 5, 5), dtype)  # not Hermitian: only the triangle UPLO names counts
    tol = TOL[dtype] * 10
    w, v = loom.linalg.eigh(la(a, dev), UPLO=uplo)
    want_w = np.linalg.eigvalsh(a, UPLO=uplo)
    assert w.dtype == want_w.dtype
    np.testing.assert_allclose(w.numpy(), want_w, rtol=tol, atol=tol)
    np.testing.assert_allclose(loom.linalg.eigvalsh(la(a, dev), UPLO=uplo).numpy(), want_w, rtol=tol, atol=tol)
    tri = np.tril(a) if uplo == "L" else np.triu(a)
    herm = tri + np.conj(np.swapaxes(tri, -1, -2))
    herm -= np.eye(5) * np.real(np.diagonal(a, axis1=-2, axis2=-1))[..., None, :]  # the diagonal once, real
    vv = v.numpy()
    np.testing.assert_allclose(herm @ vv, vv * w.numpy()[..., None, :], rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", CTYPES)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
@pytest.mark.parametrize("full", [True, False])
def test_svd(dev, rng, dtype, shape, full):
    a = crandn(rng, shape, dtype)
    tol = TOL[dtype] * 10
    u, s, vh = loom.linalg.svd(la(a, dev), full_matrices=full)
    want_s = np.linalg.svd(a, compute_uv=False)
    assert s.dtype == want_s.dtype
    np.testing.assert_allclose(s.numpy(), want_s, rtol=tol, atol=tol)
    k = min(shape[-2:])
    uu, vv = u.numpy(), vh.numpy()
    recon = (uu[..., :, :k] * s.numpy()[..., None, :]) @ vv[..., :k, :]
    np.testing.assert_allclose(recon, a, rtol=tol, atol=tol)
    eye_u = np.eye(uu.shape[-1])
    np.testing.assert_allclose(np.conj(np.swapaxes(uu, -1, -2)) @ uu, np.broadcast_to(eye_u, uu.shape[:-2] + eye_u.shape),
                               atol=tol)
    np.testing.assert_allclose(loom.linalg.svdvals(la(a, dev)).numpy(), want_s, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", CTYPES)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5)])
def test_qr_modes(dev, rng, dtype, shape):
    a = crandn(rng, shape, dtype)
    tol = TOL[dtype] * 10
    for mode in ("reduced", "complete"):
        q, r = loom.linalg.qr(la(a, dev), mode=mode)
        qq, rr = q.numpy(), r.numpy()
        np.testing.assert_allclose(qq @ rr, a, rtol=tol, atol=tol)
        np.testing.assert_allclose(np.conj(qq.T) @ qq, np.eye(qq.shape[1]), atol=tol)
        np.testing.assert_array_equal(np.tril(rr, -1), 0)
        np.testing.assert_allclose(np.abs(rr), np.abs(np.linalg.qr(a, mode=mode)[1]), rtol=tol, atol=tol)
    h, tau = loom.linalg.qr(la(a, dev), mode="raw")
    want_h, want_tau = np.linalg.qr(a, mode="raw")
    np.testing.assert_allclose(h.numpy(), want_h, rtol=tol, atol=tol)
    np.testing.assert_allclose(tau.numpy(), want_tau, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", CTYPES)
def test_what_is_built_on_the_svd(dev, rng, dtype):
    a = crandn(rng, (6, 4), dtype)
    b = crandn(rng, (6, 2), dtype)
    tol = TOL[dtype] * 10
    np.testing.assert_allclose(loom.linalg.pinv(la(a, dev)).numpy(), np.linalg.pinv(a), rtol=tol, atol=tol)
    x, res, rank, s = loom.linalg.lstsq(la(a, dev), la(b, dev))
    wx, wres, wrank, ws = np.linalg.lstsq(a, b)
    np.testing.assert_allclose(x.numpy(), wx, rtol=tol, atol=tol)
    assert res.dtype == wres.dtype
    np.testing.assert_allclose(res.numpy(), wres, rtol=tol * 10, atol=tol)
    assert int(rank) == wrank
    assert int(loom.linalg.matrix_rank(la(a, dev)).numpy()) == np.linalg.matrix_rank(a)
    np.testing.assert_allclose(loom.linalg.cond(la(a, dev)).numpy(), np.linalg.cond(a), rtol=tol * 10)


def _matched(got, want):
    """got's rows reordered to want's: each wanted eigenvalue takes the nearest unused one
    (eigenvalues have no canonical order, and sorting ties on rounding noise)."""
    out = np.empty_like(want)
    for r, (g, w) in enumerate(zip(got.reshape(-1, got.shape[-1]), want.reshape(-1, want.shape[-1]))):
        free = list(range(len(g)))
        for i, x in enumerate(w):
            j = min(free, key=lambda k: abs(g[k] - x))
            free.remove(j)
            out.reshape(-1, want.shape[-1])[r, i] = g[j]
    return out


def _check_eig(a, w, v, tol):
    want = np.linalg.eigvals(a)
    np.testing.assert_allclose(_matched(w, want), want, rtol=tol, atol=tol)
    np.testing.assert_allclose(a @ v, v * w[..., None, :], rtol=tol, atol=tol * np.abs(a).max())
    np.testing.assert_allclose(np.linalg.norm(v, axis=-2), 1, rtol=tol)


@pytest.mark.parametrize("dtype", ["float32", "float64"] + CTYPES)
@pytest.mark.parametrize("batch", [(), (3,)])
def test_eig_and_eigvals(dev, rng, dtype, batch):
    n = 6
    a = (crandn(rng, batch + (n, n), dtype) if dtype.startswith("complex")
         else rng.standard_normal(batch + (n, n)).astype(dtype))
    tol = TOL[dtype] * 30
    w, v = loom.linalg.eig(la(a, dev))
    want_dtype = np.result_type(dtype, np.complex64)
    assert w.dtype == want_dtype and v.dtype == want_dtype
    _check_eig(a.astype(np.complex128), w.numpy().astype(np.complex128), v.numpy().astype(np.complex128), tol)
    want = np.linalg.eigvals(a.astype(np.complex128))
    np.testing.assert_allclose(_matched(loom.linalg.eigvals(la(a, dev)).numpy(), want), want, rtol=tol, atol=tol)


def test_eig_of_a_real_rotation_gives_a_conjugate_pair(dev):
    a = np.array([[0.0, -1.0], [1.0, 0.0]])
    w, v = loom.linalg.eig(la(a, dev))
    np.testing.assert_allclose(_matched(w.numpy(), np.array([1j, -1j])), [1j, -1j], atol=1e-12)
    _check_eig(a.astype(complex), w.numpy(), v.numpy(), 1e-12)


def test_singular_complex_matrix_raises(dev):
    stack = np.stack([np.eye(3), np.zeros((3, 3)), np.eye(3)]).astype(np.complex128)
    with pytest.raises(np.linalg.LinAlgError, match=r"\[linalg.inv\] singular matrix \(batch index 1\)"):
        loom.linalg.inv(la(stack, dev))
    with pytest.raises(np.linalg.LinAlgError, match=r"\[linalg.cholesky\] matrix is not positive definite"):
        loom.linalg.cholesky(la(-np.eye(2, dtype=np.complex64), dev))
    sign, logabs = loom.linalg.slogdet(la(stack, dev))
    np.testing.assert_array_equal(sign.numpy(), [1, 0, 1])
    assert logabs.numpy()[1] == -np.inf
