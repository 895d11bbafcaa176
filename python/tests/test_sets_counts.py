"""numpy's isin, intersect1d, union1d, setdiff1d, setxor1d, digitize, bincount, histogram,
cov and corrcoef against NumPy on fresh random data, on every device, with the errors."""
import numpy as np
import pytest

import loom


def L(x, device):
    return loom.asarray(x, device=device)


def test_isin_and_set_routines(device, rng):
    a, b = rng.integers(0, 12, size=(3, 5)), rng.integers(5, 20, size=9)
    for invert in (False, True):
        np.testing.assert_array_equal(loom.isin(L(a, device), L(b, device), invert=invert).numpy(),
                                      np.isin(a, b, invert=invert))
    np.testing.assert_array_equal(loom.isin(L(a, device), L(np.array([], np.int64), device)).numpy(), np.isin(a, []))
    f = np.array([1.5, np.nan, 2.0])
    np.testing.assert_array_equal(loom.isin(L(f, device), L(np.array([2.0, np.nan]), device)).numpy(),
                                  np.isin(f, [2.0, np.nan]))
    for name in ("intersect1d", "union1d", "setdiff1d", "setxor1d"):
        np.testing.assert_array_equal(getattr(loom, name)(L(a, device), L(b, device)).numpy(), getattr(np, name)(a, b))
    np.testing.assert_array_equal(loom.setxor1d(L(a[:0], device), L(b[:0], device)).numpy(), np.setxor1d(a[:0], b[:0]))


@pytest.mark.parametrize("right", [False, True])
def test_digitize(device, rng, right):
    x = rng.uniform(-1, 11, size=(4, 6))
    x[0, 0] = 3.0  # on an edge
    inc = np.array([0.0, 1.0, 3.0, 3.0, 7.0, 10.0])
    for bins in (inc, inc[::-1].copy()):
        np.testing.assert_array_equal(loom.digitize(L(x, device), L(bins, device), right=right).numpy(),
                                      np.digitize(x, bins, right=right))
    with pytest.raises(ValueError, match="monoton"):
        loom.digitize(L(x, device), L(np.array([0.0, 2.0, 1.0]), device))


def test_bincount(device, rng):
    x = rng.integers(0, 7, size=30)
    np.testing.assert_array_equal(loom.bincount(L(x, device)).numpy(), np.bincount(x))
    np.testing.assert_array_equal(loom.bincount(L(x, device), minlength=12).numpy(), np.bincount(x, minlength=12))
    w = rng.standard_normal(30)
    np.testing.assert_allclose(loom.bincount(L(x, device), weights=L(w, device)).numpy(), np.bincount(x, weights=w),
                               rtol=1e-12, atol=1e-12)
    assert loom.bincount(L(np.array([], np.int64), device)).shape == (0,)
    with pytest.raises(ValueError, match="negative"):
        loom.bincount(L(np.array([1, -1]), device))
    with pytest.raises(TypeError):
        loom.bincount(L(np.array([1.0]), device))


@pytest.mark.parametrize("bins", [1, 5, 10])
def test_histogram(device, rng, bins):
    a = rng.standard_normal(200)
    h, e = loom.histogram(L(a, device), bins=bins)
    wh, we = np.histogram(a, bins=bins)
    np.testing.assert_array_equal(h.numpy(), wh)
    np.testing.assert_allclose(e.numpy(), we, rtol=1e-15)
    h, e = loom.histogram(L(a, device), bins=bins, range=(-1, 1), weights=L(np.abs(a), device), density=True)
    wh, we = np.histogram(a, bins=bins, range=(-1, 1), weights=np.abs(a), density=True)
    np.testing.assert_allclose(h.numpy(), wh, rtol=1e-12)
    g = np.arange(11.0)  # every value on an edge
    np.testing.assert_array_equal(loom.histogram(L(g, device), bins=5)[0].numpy(), np.histogram(g, bins=5)[0])


def test_cov_and_corrcoef(device, rng):
    m = rng.standard_normal((3, 20))
    y = rng.standard_normal((2, 20))
    np.testing.assert_allclose(loom.cov(L(m, device)).numpy(), np.cov(m), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(loom.cov(L(m, device), L(y, device)).numpy(), np.cov(m, y), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(loom.cov(L(m.T, device), rowvar=False, bias=True).numpy(), np.cov(m.T, rowvar=False, bias=True),
                               rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(loom.cov(L(m[0], device), ddof=0).numpy(), np.cov(m[0], ddof=0), rtol=1e-12)
    z = m + 1j * rng.standard_normal((3, 20))
    np.testing.assert_allclose(loom.cov(L(z, device)).numpy(), np.cov(z), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(loom.corrcoef(L(m, device)).numpy(), np.corrcoef(m), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(loom.corrcoef(L(m, device), L(y, device)).numpy(), np.corrcoef(m, y), rtol=1e-12,
                               atol=1e-14)
