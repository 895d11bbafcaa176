"""numpy's lexsort, partition, argpartition and interp against NumPy on fresh random data,
on every device, with the errors."""
import numpy as np
import pytest

import loom


def L(x, device):
    return loom.asarray(x, device=device)


def test_lexsort(device, rng):
    a, b, c = rng.integers(0, 3, 40), rng.integers(0, 3, 40), rng.standard_normal(40)
    np.testing.assert_array_equal(loom.lexsort([L(c, device), L(b, device), L(a, device)]).numpy(),
                                  np.lexsort((c, b, a)))
    k2 = rng.integers(0, 4, size=(2, 3, 5))
    for axis in (-1, 0, 1):
        np.testing.assert_array_equal(loom.lexsort([L(k2[0], device), L(k2[1], device)], axis=axis).numpy(),
                                      np.lexsort((k2[0], k2[1]), axis=axis))
    with pytest.raises(ValueError):
        loom.lexsort([L(a, device), L(a[:3], device)])


@pytest.mark.parametrize("kth", [0, 3, -1, [1, 4]])
def test_partition_property(device, rng, kth):
    x = rng.standard_normal((4, 9))
    p = loom.partition(L(x, device), kth, axis=1).numpy()
    ip = loom.argpartition(L(x, device), kth, axis=1).numpy()
    for k in np.atleast_1d(kth):
        kk = k % 9
        want = np.partition(x, kth, axis=1)[:, kk]
        np.testing.assert_array_equal(p[:, kk], want)
        assert np.all(p[:, :kk] <= want[:, None]) and np.all(p[:, kk + 1:] >= want[:, None])
        np.testing.assert_array_equal(np.take_along_axis(x, ip, axis=1)[:, kk], want)
    with pytest.raises(ValueError, match="out of bounds"):
        loom.partition(L(x, device), 9, axis=1)


def test_interp(device, rng):
    xp = np.sort(rng.uniform(0, 10, 12))
    fp = rng.standard_normal(12)
    x = np.concatenate([rng.uniform(-2, 12, 40), xp, [np.nan]])
    np.testing.assert_allclose(loom.interp(L(x, device), L(xp, device), L(fp, device)).numpy(), np.interp(x, xp, fp),
                               rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(loom.interp(L(x, device), L(xp, device), L(fp, device), left=-7.0, right=9.0).numpy(),
                               np.interp(x, xp, fp, left=-7.0, right=9.0), rtol=1e-12, atol=1e-12)
    fc = fp + 1j * rng.standard_normal(12)
    np.testing.assert_allclose(loom.interp(L(x[:40], device), L(xp, device), L(fc, device)).numpy(),
                               np.interp(x[:40], xp, fc), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(loom.interp(L(x[:5], device), L(xp[:1], device), L(fp[:1], device)).numpy(),
                               np.interp(x[:5], xp[:1], fp[:1]))
    with pytest.raises(ValueError, match="same length"):
        loom.interp(L(x, device), L(xp, device), L(fp[:3], device))


def test_interp_with_infinite_samples(device, rng):
    """NumPy's retries: a NaN from one end of the segment is tried from the other, then (equal
    ends) the sample; a sample point itself gives its sample."""
    xp = np.array([0.0, 1.0, 2.0, 3.0])
    x = np.concatenate([[-1.0, 0.0, 1.0, 2.0, 3.0, 4.0], rng.uniform(0, 3, 10)])
    for fp in ([np.inf, 1, np.inf, 2], [1, np.inf, 2, -np.inf], [np.inf, np.inf, 1, np.nan], [-np.inf, 3, 3, np.inf]):
        for dt in ("float16", "float64"):
            f = np.array(fp, dt)
            np.testing.assert_array_equal(loom.interp(L(x, device), L(xp, device), L(f, device)).numpy(),
                                          np.interp(x, xp, f))


def test_interp_period(device, rng):
    # Angles: samples in any order, some beyond one period; x anywhere; a negative period is
    # its absolute value; complex fp; a period of 0 is NumPy's ValueError.
    xp = rng.uniform(-200, 400, 9)
    fp = rng.standard_normal(9)
    x = np.concatenate([rng.uniform(-720, 720, 50), xp, [np.nan]])
    for period in (360.0, -360.0, 7.5):
        np.testing.assert_allclose(loom.interp(L(x, device), L(xp, device), L(fp, device), period=period).numpy(),
                                   np.interp(x, xp, fp, period=period), rtol=1e-12, atol=1e-12)
    fc = fp - 2j * fp[::-1]
    np.testing.assert_allclose(loom.interp(L(x, device), L(xp, device), L(fc, device), period=360).numpy(),
                               np.interp(x, xp, fc, period=360), rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match="period"):
        loom.interp(L(x, device), L(xp, device), L(fp, device), period=0)
