"""loom.scipy.fftpack against scipy.fftpack on every device: the complex transforms with
fftpack's shape= spelling, and the packed real transforms."""
import numpy as np
import pytest
import scipy.fftpack as sp

import loom
from loom.scipy import fftpack as lp


@pytest.mark.parametrize("n", [1, 2, 7, 8, 16])
@pytest.mark.parametrize("axis", [0, -1])
def test_packed_real_transforms(device, rng, n, axis):
    x = rng.standard_normal((3, n) if axis == -1 else (n, 3))
    lx = loom.asarray(x, device=device)
    got = lp.rfft(lx, axis=axis)
    assert got.device == device
    np.testing.assert_allclose(got.numpy(), sp.rfft(x, axis=axis), rtol=1e-12, atol=1e-12)
    for m in (n, n + 3, max(n - 1, 1)):
        np.testing.assert_allclose(lp.rfft(lx, n=m, axis=axis).numpy(), sp.rfft(x, n=m, axis=axis), rtol=1e-12,
                                   atol=1e-12)
        np.testing.assert_allclose(lp.irfft(lx, n=m, axis=axis).numpy(), sp.irfft(x, n=m, axis=axis), rtol=1e-12,
                                   atol=1e-12)
    np.testing.assert_allclose(lp.rfftfreq(n, 0.25).numpy(), sp.rfftfreq(n, 0.25))


def test_complex_transforms_and_dtypes(device, rng):
    x = rng.standard_normal((4, 6)) + 1j * rng.standard_normal((4, 6))
    lx = loom.asarray(x, device=device)
    np.testing.assert_allclose(lp.fft2(lx, shape=(5, 7)).numpy(), sp.fft2(x, shape=(5, 7)), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(lp.ifftn(lx, axes=(0,)).numpy(), sp.ifftn(x, axes=(0,)), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(lp.fft(lx, n=9).numpy(), sp.fft(x, n=9), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(lp.dct(lx.real, type=3, norm="ortho").numpy(), sp.dct(x.real, type=3, norm="ortho"),
                               rtol=1e-12, atol=1e-12)
    f32 = rng.standard_normal(8).astype(np.float32)
    assert lp.rfft(loom.asarray(f32, device=device)).dtype == sp.rfft(f32).dtype
    with pytest.raises(TypeError):
        lp.rfft(lx)
