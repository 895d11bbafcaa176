"""loom.scipy.linalg against scipy.linalg on fresh random matrices, on every device."""
import numpy as np
import pytest
import scipy.linalg as sl

import loom
from loom.scipy import linalg as ll
from scipy_compare import check, same_error


def _mat(rng, shape, dtype=np.float64):
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def _spd(rng, n, dtype=np.float64):
    a = _mat(rng, (n, n), dtype)
    return (a @ a.conj().T + n * np.eye(n)).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
@pytest.mark.parametrize("shape", [(1, 1), (5, 5), (7, 4), (4, 7)])
def test_lu_factor_and_lu(dev, rng, dtype, shape):
    a = _mat(rng, shape, dtype)
    lu, piv = ll.lu_factor(loom.asarray(a, device=dev))
    rlu, rpiv = sl.lu_factor(a)
    check(lu, rlu, device=dev)
    check(piv, rpiv)
    for kw in ({}, {"p_indices": True}, {"permute_l": True}):
        for got, want in zip(ll.lu(loom.asarray(a, device=dev), **kw), sl.lu(a, **kw)):
            check(got, want, device=dev, dtype=want.dtype.kind != "i")


@pytest.mark.parametrize("trans", [0, 1, 2])
@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_lu_solve(dev, rng, trans, dtype):
    a, b = _mat(rng, (6, 6), dtype), _mat(rng, (6, 3), dtype)
    f = ll.lu_factor(loom.asarray(a, device=dev))
    check(ll.lu_solve(f, loom.asarray(b, device=dev), trans=trans), sl.lu_solve(sl.lu_factor(a), b, trans=trans),
          device=dev)
    check(ll.lu_solve(f, loom.asarray(b[:, 0], device=dev)), sl.lu_solve(sl.lu_factor(a), b[:, 0]))


def test_lu_of_a_stack(dev, rng):
    a = _mat(rng, (3, 5, 5))
    lu, piv = ll.lu_factor(loom.asarray(a, device=dev))
    for k in range(3):
        rlu, rpiv = sl.lu_factor(a[k])
        check(lu[k], rlu)
        check(piv[k], rpiv)


@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_cholesky_family(dev, rng, lower, dtype):
    a, b = _spd(rng, 6, dtype), _mat(rng, (6, 2), dtype)
    check(ll.cholesky(loom.asarray(a, device=dev), lower=lower), sl.cholesky(a, lower=lower), device=dev)
    c = ll.cho_factor(loom.asarray(a, device=dev), lower=lower)
    rc = sl.cho_factor(a, lower=lower)
    assert c[1] == rc[1]
    # SciPy documents the other triangle as arbitrary (its versions differ there): only the
    # factor's own triangle is compared.
    tri = np.tril if lower else np.triu
    check(loom.asarray(tri(c[0].numpy())), tri(rc[0]))
    check(ll.cho_solve(c, loom.asarray(b, device=dev)), sl.cho_solve(rc, b), device=dev)


@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("trans", [0, 1, 2, "T"])
@pytest.mark.parametrize("unit", [False, True])
def test_solve_triangular(dev, rng, lower, trans, unit):
    a = _mat(rng, (6, 6)) + 4 * np.eye(6)
    b = _mat(rng, (6, 3))
    got = ll.solve_triangular(loom.asarray(a, device=dev), loom.asarray(b, device=dev), trans=trans, lower=lower,
                              unit_diagonal=unit)
    check(got, sl.solve_triangular(a, b, trans=trans, lower=lower, unit_diagonal=unit), device=dev)


@pytest.mark.parametrize("assume_a", [None, "gen", "sym", "her", "pos", "diagonal", "upper triangular",
                                      "lower triangular"])
@pytest.mark.parametrize("lower", [False, True])
def test_solve(dev, rng, assume_a, lower):
    a = _spd(rng, 5) + np.triu(_mat(rng, (5, 5)), 1)       # not symmetric: only a triangle counts
    if assume_a == "diagonal":
        a = np.diag(np.diag(a))
    b = _mat(rng, (5, 2))
    got = ll.solve(loom.asarray(a, device=dev), loom.asarray(b, device=dev), assume_a=assume_a, lower=lower)
    check(got, sl.solve(a, b, assume_a=assume_a, lower=lower), device=dev)
    check(ll.solve(loom.asarray(a, device=dev), loom.asarray(b[:, 0], device=dev), transposed=True),
          sl.solve(a, b[:, 0], transposed=True))


def test_inv_det_norm_pinv_lstsq(dev, rng):
    a = _mat(rng, (5, 5))
    la = loom.asarray(a, device=dev)
    check(ll.inv(la), sl.inv(a), device=dev)
    check(ll.det(la), sl.det(a))
    stack = _mat(rng, (3, 4, 4))
    check(ll.det(loom.asarray(stack, device=dev)), sl.det(stack))
    for ord_ in (None, "fro", 1, 2, np.inf):
        check(ll.norm(la, ord_), np.asarray(sl.norm(a, ord_)))
    t = _mat(rng, (7, 4))
    check(ll.pinv(loom.asarray(t, device=dev)), sl.pinv(t), device=dev)
    x, res, rank, s = ll.lstsq(loom.asarray(t, device=dev), loom.asarray(t[:, 0] + 1, device=dev))
    rx, rres, rrank, rs = sl.lstsq(t, t[:, 0] + 1)
    check(x, rx)
    check(s, rs)
    assert int(rank) == rrank


def test_eigh(dev, rng):
    a, b = _spd(rng, 6) - 3 * np.eye(6), _spd(rng, 6)
    la, lb = loom.asarray(a, device=dev), loom.asarray(b, device=dev)
    w, v = ll.eigh(la)
    rw, rv = sl.eigh(a)
    check(w, rw, device=dev)
    check(loom.abs(v), np.abs(rv))
    for lower in (True, False):
        w, v = ll.eigh(la + loom.triu(la, 1) * lower, lb, lower=lower)
        rw, rv = sl.eigh(a + np.triu(a, 1) * lower, b, lower=lower)
        check(w, rw)
        check(loom.abs(v), np.abs(rv))
    check(ll.eigh(la, eigvals_only=True, subset_by_index=[1, 3]), sl.eigh(a, eigvals_only=True, subset_by_index=[1, 3]))
    check(ll.eigvalsh(la, subset_by_value=(-1, 4)), sl.eigvalsh(a, subset_by_value=(-1, 4)))


@pytest.mark.parametrize("shape", [(5, 5), (6, 3), (3, 6)])
def test_svd_qr(dev, rng, shape):
    a = _mat(rng, shape)
    la = loom.asarray(a, device=dev)
    u, s, vh = ll.svd(la)
    ru, rs, rvh = sl.svd(a)
    check(s, rs, device=dev)
    assert u.shape == ru.shape and vh.shape == rvh.shape
    k = min(shape)
    check((u[:, :k] * s) @ vh[:k], a)
    check(ll.svd(la, compute_uv=False), sl.svd(a, compute_uv=False))
    check(ll.svdvals(la), sl.svdvals(a))
    for mode in ("full", "economic"):
        q, r = ll.qr(la, mode=mode)
        rq, rr = sl.qr(a, mode=mode)
        check(loom.abs(r), np.abs(rr), device=dev)
        assert q.shape == rq.shape
        check(q @ r, a)
    (r,) = ll.qr(la, mode="r")
    check(loom.abs(r), np.abs(sl.qr(a, mode="r")[0]))


@pytest.mark.parametrize("scale", [1e-4, 0.05, 0.5, 1.5, 3.0, 40.0])
@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.float32])
def test_expm(dev, rng, scale, dtype):
    if dtype == np.float32 and scale > 5:
        scale = 5.0                                        # exp(100) overflows float32
    a = (_mat(rng, (6, 6), dtype) * scale).astype(dtype)
    rtol = 1e-4 if dtype == np.float32 else 1e-9
    check(ll.expm(loom.asarray(a, device=dev)), sl.expm(a), device=dev, rtol=rtol)


def test_expm_edges(dev, rng):
    check(ll.expm(loom.asarray(np.array([[2.0]]), device=dev)), sl.expm(np.array([[2.0]])))
    check(ll.expm(loom.zeros((0, 0), device=dev)), sl.expm(np.zeros((0, 0))))
    stack = _mat(rng, (3, 4, 4))
    check(ll.expm(loom.asarray(stack, device=dev)), sl.expm(stack), rtol=1e-9)
    nil = np.triu(_mat(rng, (5, 5)), 1)                    # nilpotent: a finite series
    check(ll.expm(loom.asarray(nil, device=dev)), sl.expm(nil), rtol=1e-9)


def test_special_matrices(dev, rng):
    c, r = _mat(rng, 4), _mat(rng, 6)
    lc, lr = loom.asarray(c, device=dev), loom.asarray(r, device=dev)
    check(ll.toeplitz(lc, lr), sl.toeplitz(c, r), device=dev)
    cc = _mat(rng, 4, np.complex128)
    check(ll.toeplitz(loom.asarray(cc, device=dev)), sl.toeplitz(cc))
    batch = _mat(rng, (2, 3))
    check(ll.toeplitz(loom.asarray(batch, device=dev)), sl.toeplitz(batch))
    check(ll.circulant(lc), sl.circulant(c))
    check(ll.hankel(lc, lr), sl.hankel(c, r))
    check(ll.hankel(lc), sl.hankel(c))
    check(ll.companion(lr), sl.companion(r))
    blocks = [_mat(rng, (2, 3)), np.array([1.0, 2.0]), 3.0, np.zeros((0, 2))]
    check(ll.block_diag(*[loom.asarray(b, device=dev) for b in blocks]), sl.block_diag(*blocks))
    check(ll.block_diag(), sl.block_diag())


def test_empty_and_single(dev):
    e = loom.zeros((0, 0), device=dev)
    check(ll.inv(e), sl.inv(np.zeros((0, 0))))
    check(ll.det(e), np.asarray(sl.det(np.zeros((0, 0)))))
    check(ll.solve(e, loom.zeros((0,), device=dev)), sl.solve(np.zeros((0, 0)), np.zeros(0)))
    one = loom.asarray(np.array([[4.0]]), device=dev)
    check(ll.cholesky(one), sl.cholesky(np.array([[4.0]])))
    check(ll.lu_factor(one)[0], sl.lu_factor(np.array([[4.0]]))[0])


def test_errors(dev):
    rect = np.ones((2, 3))
    lrect = loom.asarray(rect, device=dev)
    assert "shape" in str(same_error(lambda: ll.inv(lrect), lambda: sl.inv(rect)))
    same_error(lambda: ll.solve(lrect, loom.ones(2, device=dev)), lambda: sl.solve(rect, np.ones(2)))
    same_error(lambda: ll.solve(loom.eye(2, device=dev), loom.ones(3, device=dev)), lambda: sl.solve(np.eye(2), np.ones(3)))
    same_error(lambda: ll.inv(loom.ones((2, 2), device=dev)), lambda: sl.inv(np.ones((2, 2))))
    same_error(lambda: ll.det(lrect), lambda: sl.det(rect))
    same_error(lambda: ll.cholesky(-loom.eye(2, device=dev)), lambda: sl.cholesky(-np.eye(2)))
    nan = np.array([[1.0, np.nan], [1.0, 1.0]])
    assert "infs or NaNs" in str(same_error(lambda: ll.lu_factor(loom.asarray(nan, device=dev)), lambda: sl.lu_factor(nan)))
    same_error(lambda: ll.expm(lrect), lambda: sl.expm(rect))
    same_error(lambda: ll.solve_triangular(lrect, loom.ones(2, device=dev)), lambda: sl.solve_triangular(rect, np.ones(2)))
    same_error(lambda: ll.solve_triangular(loom.zeros((2, 2), device=dev), loom.ones(2, device=dev)),
               lambda: sl.solve_triangular(np.zeros((2, 2)), np.ones(2)))
    same_error(lambda: ll.eigh(lrect), lambda: sl.eigh(rect))
    same_error(lambda: ll.cho_solve((loom.eye(2, device=dev), False), loom.ones(3, device=dev)),
               lambda: sl.cho_solve((np.eye(2), False), np.ones(3)))
    same_error(lambda: ll.lu_solve((loom.eye(2, device=dev), loom.arange(2, device=dev)), loom.ones(3, device=dev)),
               lambda: sl.lu_solve((np.eye(2), np.arange(2)), np.ones(3)))
    assert "Mode" in str(same_error(lambda: ll.qr(loom.eye(2, device=dev), mode="bad"), lambda: sl.qr(np.eye(2), mode="bad")))
    same_error(lambda: ll.svd(loom.ones(3, device=dev)), lambda: sl.svd(np.ones(3)))
    same_error(lambda: ll.solve(loom.eye(2, device=dev), loom.ones(2, device=dev), assume_a="bad"),
               lambda: sl.solve(np.eye(2), np.ones(2), assume_a="bad"))


def test_reachable_as_cupyx_scipy():
    from loom import scipy as cpx_scipy
    assert cpx_scipy.linalg.lu_factor is ll.lu_factor
    assert loom.scipy.linalg is ll
