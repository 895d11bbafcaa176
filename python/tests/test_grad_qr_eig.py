"""The derivatives of qr (modes reduced, complete where defined, r) and of eig/eigvals, real
and complex, against central differences of loom's own eager factorisations (the same
gauge: R's diagonal real as LAPACK's, unit-norm eigenvectors) on fresh random data, on every
device present; batched under vmap and jit; the undefined case (complete QR of a tall matrix)
raises. JAX's convention: for real L, dL = Re(sum(grad * dA))."""
import numpy as np
import pytest

import loom
from conftest import check_directional_grad as check
from conftest import randn
from loom.transforms._grad import grad


@pytest.mark.parametrize("cplx", [False, True], ids=["real", "complex"])
@pytest.mark.parametrize("shape,mode", [((5, 3), "reduced"), ((4, 4), "reduced"), ((4, 4), "complete"),
                                        ((3, 5), "reduced"), ((3, 5), "complete"), ((2, 6, 3), "reduced")])
def test_qr(dev, rng, cplx, shape, mode):
    a, e = randn(rng, shape, cplx), randn(rng, shape, cplx)
    q_shape = loom.linalg.qr(loom.asarray(a), mode=mode)[0].shape
    G, H = randn(rng, q_shape, True), randn(rng, q_shape[:-2] + (q_shape[-1], shape[-1]), True)
    L = lambda x: loom.asarray(x, device=dev)  # noqa: E731

    def f(A):
        q, r = loom.linalg.qr(A, mode=mode)
        return loom.sum(loom.real(q * L(G))) + loom.sum(loom.imag(r * L(H))) + loom.sum(loom.abs(r) ** 2 * 0.1)
    check(dev, f, a, e)
    check(dev, lambda A: loom.sum(loom.real(loom.linalg.qr(A, mode="r") * L(H))), a, e)


def test_qr_only_q_or_only_r(dev, rng):
    a, e = rng.standard_normal((5, 3)), rng.standard_normal((5, 3))
    W = rng.standard_normal((5, 3))
    check(dev, lambda A: loom.sum(loom.linalg.qr(A)[0] * loom.asarray(W, device=dev)), a, e)
    check(dev, lambda A: loom.sum(loom.sin(loom.linalg.qr(A)[1])), a, e)


def test_complete_qr_of_a_tall_matrix_raises(dev, rng):
    a = loom.asarray(rng.standard_normal((5, 3)), device=dev)
    with pytest.raises(NotImplementedError, match="mode='complete'"):
        grad(lambda A: loom.sum(loom.linalg.qr(A, mode="complete")[0]))(a)


def test_qr_under_vmap_and_jit(dev, rng):
    a = rng.standard_normal((3, 4, 3))
    W = rng.standard_normal((4, 3))
    f = lambda A: loom.sum(loom.linalg.qr(A)[0] * loom.asarray(W, device=dev))  # noqa: E731
    g = grad(f)
    want = np.stack([g(loom.asarray(a[i], device=dev)).numpy() for i in range(3)])
    np.testing.assert_allclose(loom.vmap(g)(loom.asarray(a, device=dev)).numpy(), want, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(loom.jit(g)(loom.asarray(a[0], device=dev)).numpy(), want[0], rtol=1e-10, atol=1e-12)
    q, r = loom.vmap(loom.linalg.qr)(loom.asarray(a, device=dev))
    np.testing.assert_allclose((q.numpy() @ r.numpy()), a, atol=1e-12)


@pytest.mark.parametrize("cplx", [False, True], ids=["real", "complex"])
def test_eig_and_eigvals(dev, rng, cplx):
    n = 4
    a, e = randn(rng, (n, n), cplx), randn(rng, (n, n), cplx)
    c, W = randn(rng, n, True), rng.standard_normal((n, n))
    L = lambda x: loom.asarray(x, device=dev)  # noqa: E731
    check(dev, lambda A: loom.sum(loom.real(loom.linalg.eigvals(A) * L(c))), a, e)
    check(dev, lambda A: loom.sum(loom.imag(loom.linalg.eig(A)[0] ** 2)), a, e)

    def vecs(A):  # |V|^2 does not depend on each eigenvector's phase
        w, v = loom.linalg.eig(A)
        return loom.sum(loom.abs(v) ** 2 * L(W)) + loom.sum(loom.real(w * L(c)))
    check(dev, vecs, a, e)


def test_eig_of_a_symmetric_matrix_matches_eigh(dev, rng):
    a = rng.standard_normal((4, 4))
    a = a + a.T
    c = rng.standard_normal(4)
    L = lambda x: loom.asarray(x, device=dev)  # noqa: E731
    # The sum of c_k f(w_k) does not depend on the order LAPACK gives the eigenvalues in
    # when c is a function of w: use sum(w**3).
    g_eig = grad(lambda A: loom.sum(loom.real(loom.linalg.eigvals(A) ** 3)))(L(a)).numpy()
    g_eigh = grad(lambda A: loom.sum(loom.linalg.eigvalsh(A) ** 3))(L(a)).numpy()
    np.testing.assert_allclose(g_eig, g_eigh, rtol=1e-8, atol=1e-10)
    del c


def test_eig_under_vmap(dev, rng):
    a = rng.standard_normal((3, 4, 4))
    g = grad(lambda A: loom.sum(loom.abs(loom.linalg.eigvals(A)) ** 2))
    want = np.stack([g(loom.asarray(a[i], device=dev)).numpy() for i in range(3)])
    np.testing.assert_allclose(loom.vmap(g)(loom.asarray(a, device=dev)).numpy(), want, rtol=1e-10, atol=1e-12)
