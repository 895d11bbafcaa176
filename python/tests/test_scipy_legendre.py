"""loom.scipy.special.lpmv and sph_harm_y (_legendre.py) against SciPy on fresh random data,
on every device: integer and non-integer degrees, negative orders and degrees, the edges
(x = +-1, |x| > 1, a non-integer order), dtypes, broadcast orders and degrees, and the error
for a non-integer degree below x = -0.5."""
import math

import numpy as np
import pytest

import loom
from loom.scipy import special as ls

ss = pytest.importorskip("scipy.special")


@pytest.mark.parametrize("m", [0, 1, 2, 4, -1, -3])
@pytest.mark.parametrize("v", [0, 1, 3, 17, 50, -4])
def test_lpmv_integer_degree(device, rng, m, v):
    x = np.r_[rng.uniform(-1, 1, 200), [-1.0, 1.0, 0.0]]
    got = ls.lpmv(m, v, loom.asarray(x, device=device))
    with np.errstate(all="ignore"):
        want = ss.lpmv(m, v, x)
    assert got.dtype == loom.float64 and got.device == device
    scale = max(1.0, float(np.max(np.abs(want), where=~np.isnan(want), initial=0)))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-11, atol=1e-12 * scale, equal_nan=True)


@pytest.mark.parametrize("m", [0, 2, -2, -5])
def test_lpmv_large_degree(device, rng, m):
    # Degree 200: Gamma(v + m + 1) is past float64's range (math.gamma overflowed here). SciPy's
    # lpmv gives NaN for a negative order there; loom gives (-1)^m (v-m)!/(v+m)! P_v^|m|, checked
    # against SciPy's P_v^|m| times that ratio taken in logarithms.
    x = rng.uniform(-1, 1, 100)
    got = ls.lpmv(m, 200, loom.asarray(x, device=device)).numpy()
    k = abs(m)
    want = ss.lpmv(k, 200, x)
    if m < 0:
        want = want * (-1) ** k * np.exp(math.lgamma(200 - k + 1) - math.lgamma(200 + k + 1))
    scale = float(np.max(np.abs(want)))
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-11 * scale)


@pytest.mark.parametrize("m", [0, 1, 3, -2])
@pytest.mark.parametrize("v", [0.5, 2.3, 7.75, -0.3, -4.6])
def test_lpmv_non_integer_degree(device, rng, m, v):
    x = np.r_[rng.uniform(-0.5, 1, 200), [1.0, -0.5]]
    got = ls.lpmv(m, v, loom.asarray(x, device=device))
    want = ss.lpmv(m, v, x)
    scale = max(1.0, float(np.max(np.abs(want))))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-12 * scale)
    with pytest.raises(NotImplementedError, match=r"lpmv.*-0\.5"):
        ls.lpmv(m, v, loom.asarray([0.2, -0.7], device=device))


def test_lpmv_edges_dtypes_and_broadcasting(device, rng):
    x = rng.uniform(-1, 1, (3, 5))
    with np.errstate(all="ignore"):
        # |x| > 1 and a non-integer order are NaN; (-1, -1) is NaN where the gamma ratio is
        for args in ((1, 2, 1.5), (1.5, 2, 0.5), (-1, -1, 0.001)):
            assert np.isnan(float(ls.lpmv(args[0], args[1], loom.asarray(args[2], device=device))))
            assert np.isnan(ss.lpmv(*args))
    # orders and degrees as arrays, broadcast against x
    m = np.array([[0], [1], [2]])
    v = np.array([1, 2, 3, 5, 8])
    got = ls.lpmv(loom.asarray(m, device=device), loom.asarray(v, device=device), loom.asarray(x, device=device))
    np.testing.assert_allclose(got.numpy(), ss.lpmv(m, v, x), rtol=1e-11, atol=1e-12)
    # SciPy's float32 loop for small types (Python scalars weak), float64 otherwise
    for dt, want in ((np.float32, loom.float32), (np.int8, loom.float32), (np.float64, loom.float64),
                     (np.int32, loom.float64)):
        xa = loom.asarray(np.zeros(3, dt), device=device)
        assert ls.lpmv(1, 2, xa).dtype == want == ss.lpmv(1, 2, np.zeros(3, dt)).dtype
    assert ls.lpmv(1, 2, loom.asarray(np.zeros(3, bool), device=device)).dtype == ss.lpmv(1, 2, np.zeros(3, bool)).dtype


def test_sph_harm_y_against_scipy(device, rng):
    theta, phi = rng.uniform(0, np.pi, 60), rng.uniform(0, 2 * np.pi, 60)
    lt, lp = loom.asarray(theta, device=device), loom.asarray(phi, device=device)
    for n in range(7):
        for m in range(-n - 1, n + 2):
            got = ls.sph_harm_y(n, m, lt, lp)
            assert got.dtype == loom.complex128 and got.device == device
            np.testing.assert_allclose(got.numpy(), ss.sph_harm_y(n, m, theta, phi), rtol=1e-10, atol=1e-13,
                                       err_msg=f"n={n} m={m}")
    # n and m as arrays broadcast against the angles
    n = np.array([[2], [3], [5]])
    m = np.array([[-2], [1], [4]])
    got = ls.sph_harm_y(loom.asarray(n, device=device), loom.asarray(m, device=device), lt, lp)
    np.testing.assert_allclose(got.numpy(), ss.sph_harm_y(n, m, theta, phi), rtol=1e-10, atol=1e-13)
    with pytest.raises(TypeError, match="sph_harm_y"):
        ls.sph_harm_y(2.5, 1, lt, lp)
