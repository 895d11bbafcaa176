"""The FFTs' derivative rules (ops/fft_grad.cpp) against central differences on fresh random
data, on every device present: fft/ifft of complex and real input, rfft/irfft with even and
odd lengths, padding and truncation (n), every norm, the n-dimensional transforms. JAX's
convention (docs/TRANSFORMS.md §6): for real L, dL = Re(sum(grad * dx))."""
import numpy as np
import pytest

import loom
from conftest import check_directional_grad, randn
from loom.transforms._grad import grad


def check(device, f, x, rng, tol=1e-6, h=1e-6):
    """grad(f)(x) against central differences along two random directions."""
    for _ in range(2):
        check_directional_grad(device, f, x, randn(rng, x.shape, np.iscomplexobj(x)), tol, h)


def weights(rng, shape, device):
    return loom.asarray(randn(rng, shape, True), device=device)


@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
@pytest.mark.parametrize("cplx", [False, True], ids=["real", "complex"])
def test_fft_ifft(device, rng, norm, cplx):
    x = randn(rng, (3, 8), cplx)
    W = weights(rng, (3, 8), device)
    check(device, lambda a: loom.sum(loom.real(loom.fft.fft(a, norm=norm) * W)), x, rng)
    check(device, lambda a: loom.sum(loom.abs(loom.fft.ifft(a, axis=0, norm=norm)) ** 2), x, rng)
    W6 = weights(rng, (3, 6), device)
    check(device, lambda a: loom.sum(loom.imag(loom.fft.fft(a, n=6, norm=norm) * W6)), x, rng)  # truncated
    W11 = weights(rng, (3, 11), device)
    check(device, lambda a: loom.sum(loom.real(loom.fft.ifft(a, n=11, norm=norm) * W11)), x, rng)  # padded


@pytest.mark.parametrize("n", [8, 7])
@pytest.mark.parametrize("norm", [None, "ortho"])
def test_rfft_irfft(device, rng, n, norm):
    x = rng.standard_normal((2, n))
    W = weights(rng, (2, n // 2 + 1), device)
    check(device, lambda a: loom.sum(loom.real(loom.fft.rfft(a, norm=norm) * W)), x, rng)
    h = randn(rng, (2, n // 2 + 1), True)
    Wr = loom.asarray(rng.standard_normal((2, n)), device=device)
    check(device, lambda s: loom.sum(loom.fft.irfft(s, n=n, norm=norm) * Wr), h, rng)
    check(device, lambda a: loom.sum(loom.sin(loom.fft.irfft(loom.fft.rfft(a) * 0.5j + 0.1, n=n))), x, rng)


def test_n_dimensional(device, rng):
    x = randn(rng, (4, 5, 6), True)
    W = weights(rng, (4, 5, 6), device)
    check(device, lambda a: loom.sum(loom.real(loom.fft.fftn(a) * W)), x, rng)
    r = rng.standard_normal((4, 6))
    W2 = weights(rng, (4, 4), device)
    check(device, lambda a: loom.sum(loom.real(loom.fft.rfft2(a) * W2)), r, rng)
    check(device, lambda a: loom.sum(loom.fft.irfft2(loom.fft.rfft2(a) ** 2, s=(4, 6)) ** 2), r, rng)


def test_vmap_of_grad(device, rng):
    x = rng.standard_normal((3, 8))
    g = grad(lambda a: loom.sum(loom.abs(loom.fft.rfft(a)) ** 2))
    want = np.stack([g(loom.asarray(x[i], device=device)).numpy() for i in range(3)])
    np.testing.assert_allclose(loom.vmap(g)(loom.asarray(x, device=device)).numpy(), want, rtol=1e-10, atol=1e-10)
    # The per-example gradients are those of the whole batch's sum.
    np.testing.assert_allclose(want.sum(), np.sum(g(loom.asarray(x, device=device)).numpy()))
