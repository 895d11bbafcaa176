"""The decompositions' derivative rules on complex matrices (and real ones, through the same
formulas): solve, inv, det/slogdet, cholesky, eigh/eigvalsh, svd/svdvals, against central
differences in complex128 on fresh random data, on every device present (cpu() through
LAPACK, GPUs through cuSOLVER). JAX's convention (docs/TRANSFORMS.md §6): for real L,
dL = Re(sum(grad * dA)). Functions of eigenvectors and singular vectors are gauge
invariant (the phase of each vector cancels), the only ones with a derivative."""
import numpy as np
import pytest

import loom
from loom.transforms._grad import grad



def crandn(rng, shape):
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


def hermitian(e):
    return (e + np.conj(np.swapaxes(e, -1, -2))) / 2


def hpd(rng, n):
    a = crandn(rng, (n, n))
    return a @ np.conj(a.T) + n * np.eye(n)


def check(dev, loom_f, np_f, x, e, tol=1e-6, h=1e-6):
    """loom's gradient of real loom_f at x against the central difference of NumPy's np_f
    along direction e: Re(sum(g * e)) = d/dt np_f(x + t e)."""
    g = grad(loom_f)(loom.asarray(x, device=dev)).numpy()
    assert g.dtype == x.dtype
    want = (np_f(x + h * e) - np_f(x - h * e)) / (2 * h)
    np.testing.assert_allclose(np.real(np.sum(g * e)), want, rtol=tol, atol=tol)


def test_solve_inv_det_slogdet(dev, rng):
    n = 4
    a = crandn(rng, (n, n)) + 3 * np.eye(n)
    b, w, wi = crandn(rng, (n, 2)), crandn(rng, (n, 2)), crandn(rng, (n, n))
    e = crandn(rng, (n, n))
    L = lambda x: loom.asarray(x, device=dev)  # noqa: E731
    check(dev, lambda A: loom.sum(loom.real(loom.linalg.solve(A, L(b)) * L(w))),
          lambda A: np.sum(np.real(np.linalg.solve(A, b) * w)), a, e)
    eb = crandn(rng, b.shape)
    check(dev, lambda B: loom.sum(loom.abs(loom.linalg.solve(L(a), B)) ** 2),
          lambda B: np.sum(np.abs(np.linalg.solve(a, B)) ** 2), b, eb)
    check(dev, lambda A: loom.sum(loom.imag(loom.linalg.inv(A) * L(wi))),
          lambda A: np.sum(np.imag(np.linalg.inv(A) * wi)), a, e)
    check(dev, lambda A: loom.real(loom.linalg.det(A) * (0.3 - 0.7j)),
          lambda A: np.real(np.linalg.det(A) * (0.3 - 0.7j)), a, e)
    check(dev, lambda A: loom.imag(loom.linalg.det(A)), lambda A: np.imag(np.linalg.det(A)), a, e)

    def loom_sl(A):
        s, la = loom.linalg.slogdet(A)
        return la * 0.5 + loom.real(s * (1 + 2j))

    def np_sl(A):
        s, la = np.linalg.slogdet(A)
        return la * 0.5 + np.real(s * (1 + 2j))
    check(dev, loom_sl, np_sl, a, e)


def test_batched_solve_and_inv(dev, rng):
    a = crandn(rng, (3, 4, 4)) + 3 * np.eye(4)
    e = crandn(rng, a.shape)
    check(dev, lambda A: loom.sum(loom.abs(loom.linalg.inv(A)) ** 2), lambda A: np.sum(np.abs(np.linalg.inv(A)) ** 2),
          a, e)


def test_cholesky(dev, rng):
    n = 4
    a, w = hpd(rng, n), crandn(rng, (n, n))
    e = hermitian(crandn(rng, (n, n)))
    check(dev, lambda A: loom.sum(loom.real(loom.linalg.cholesky(A) * loom.asarray(w, device=dev))),
          lambda A: np.sum(np.real(np.linalg.cholesky(A) * w)), a, e)
    check(dev, lambda A: loom.sum(loom.abs(loom.linalg.cholesky(A, upper=True)) ** 3),
          lambda A: np.sum(np.abs(np.conj(np.linalg.cholesky(A).T)) ** 3), a, e)


def test_eigh_and_eigvalsh(dev, rng):
    n = 4
    a = hermitian(crandn(rng, (n, n)))
    e = hermitian(crandn(rng, (n, n)))
    c, W = rng.standard_normal(n), rng.standard_normal((n, n))
    L = lambda x: loom.asarray(x, device=dev)  # noqa: E731
    check(dev, lambda A: loom.sum(loom.linalg.eigvalsh(A) * L(c)), lambda A: np.sum(np.linalg.eigvalsh(A) * c), a, e)

    def loom_vecs(A):
        w, v = loom.linalg.eigh(A)
        return loom.sum(loom.abs(v) ** 2 * L(W)) + loom.sum(w * L(c))

    def np_vecs(A):
        w, v = np.linalg.eigh(A)
        return np.sum(np.abs(v) ** 2 * W) + np.sum(w * c)
    check(dev, loom_vecs, np_vecs, a, e)
    # A projector-like function: sum_k c_k v_k v_k^H (invariant to each vector's phase).
    G = crandn(rng, (n, n))

    def loom_proj(A):
        _, v = loom.linalg.eigh(A)
        return loom.sum(loom.real(((v * L(c)) @ loom.conj(v.T)) * L(G)))

    def np_proj(A):
        _, v = np.linalg.eigh(A)
        return np.sum(np.real(((v * c) @ np.conj(v.T)) * G))
    check(dev, loom_proj, np_proj, a, e)


@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5)])
def test_svd_and_svdvals(dev, rng, shape):
    a = crandn(rng, shape)
    e = crandn(rng, shape)
    k = min(shape)
    c = rng.standard_normal(k)
    G, Wu, Wv = crandn(rng, shape), rng.standard_normal((shape[0], k)), rng.standard_normal((k, shape[1]))
    L = lambda x: loom.asarray(x, device=dev)  # noqa: E731
    check(dev, lambda A: loom.sum(loom.linalg.svdvals(A) * L(c)),
          lambda A: np.sum(np.linalg.svd(A, compute_uv=False) * c), a, e)

    def loom_f(A):
        u, s, vh = loom.linalg.svd(A, full_matrices=False)
        # U f(S) Vh couples the factors' phases (the term in Im diag(U^H gU) matters).
        return (loom.sum(loom.real((u * loom.sin(s)) @ vh * L(G))) + loom.sum(loom.abs(u) ** 2 * L(Wu))
                + loom.sum(loom.abs(vh) ** 2 * L(Wv)))

    def np_f(A):
        u, s, vh = np.linalg.svd(A, full_matrices=False)
        return np.sum(np.real((u * np.sin(s)) @ vh * G)) + np.sum(np.abs(u) ** 2 * Wu) + np.sum(np.abs(vh) ** 2 * Wv)
    check(dev, loom_f, np_f, a, e)


def test_real_matrices_unchanged(dev, rng):
    """The complex formulas reduce to the real ones: a real input's gradient is real."""
    a = rng.standard_normal((4, 3))
    e = rng.standard_normal((4, 3))
    G = rng.standard_normal((4, 3))

    def loom_f(A):
        u, s, vh = loom.linalg.svd(A, full_matrices=False)
        return loom.sum((u * loom.sin(s)) @ vh * loom.asarray(G, device=dev))

    def np_f(A):
        u, s, vh = np.linalg.svd(A, full_matrices=False)
        return np.sum((u * np.sin(s)) @ vh * G)
    check(dev, loom_f, np_f, a, e)
