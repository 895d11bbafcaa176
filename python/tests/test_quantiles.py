"""numpy's quantile, percentile and median against NumPy on fresh random data, on every
device: scalar and array q, every method, axes (None, one, several), keepdims, NaNs, integer
inputs, even and odd counts, and the errors."""
import numpy as np
import pytest

import loom


def L(x, device):
    return loom.asarray(x, device=device)


@pytest.mark.parametrize("method", ["linear", "lower", "higher", "nearest", "midpoint"])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2)])
def test_quantile_and_percentile(device, rng, method, axis):
    x = rng.standard_normal((4, 5, 3))
    for q in (0.0, 0.3, 0.5, 1.0, [0.1, 0.25, 0.9], [[0.2], [0.75]]):
        for keepdims in (False, True):
            got = loom.quantile(L(x, device), q, axis=axis, method=method, keepdims=keepdims)
            want = np.quantile(x, q, axis=axis, method=method, keepdims=keepdims)
            assert got.shape == want.shape and got.dtype == want.dtype
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-14)
    got = loom.percentile(L(x, device), [10, 50, 95], axis=axis, method=method)
    np.testing.assert_allclose(got.numpy(), np.percentile(x, [10, 50, 95], axis=axis, method=method), rtol=1e-12)


def test_quantile_dtypes_nans_and_errors(device, rng):
    xi = rng.integers(-50, 50, size=(6, 7))
    for method in ("linear", "lower", "nearest"):
        got = loom.quantile(L(xi, device), 0.4, axis=1, method=method)
        want = np.quantile(xi, 0.4, axis=1, method=method)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    x32 = rng.standard_normal((5, 8)).astype(np.float32)
    assert loom.quantile(L(x32, device), 0.5, axis=0).dtype == np.float32
    xn = rng.standard_normal((3, 4))
    xn[1, 2] = np.nan
    np.testing.assert_array_equal(np.isnan(loom.quantile(L(xn, device), 0.5, axis=1).numpy()),
                                  np.isnan(np.quantile(xn, 0.5, axis=1)))
    with pytest.raises(ValueError, match="range"):
        loom.quantile(L(xn, device), 1.5)
    with pytest.raises(ValueError, match="range"):
        loom.percentile(L(xn, device), -1)
    with pytest.raises(ValueError, match="not a valid method"):
        loom.quantile(L(xn, device), 0.5, method="bad")


@pytest.mark.parametrize("shape,axis", [((7,), None), ((6,), None), ((4, 6), 1), ((4, 5), 0), ((2, 3, 4), (0, 2))])
def test_median(device, rng, shape, axis):
    x = rng.standard_normal(shape)
    for keepdims in (False, True):
        got = loom.median(L(x, device), axis=axis, keepdims=keepdims)
        want = np.median(x, axis=axis, keepdims=keepdims)
        assert got.shape == np.shape(want)
        np.testing.assert_array_equal(got.numpy(), want)
    xi = rng.integers(0, 9, size=shape)
    np.testing.assert_array_equal(loom.median(L(xi, device), axis=axis).numpy(), np.median(xi, axis=axis))


@pytest.mark.parametrize("method", ["linear", "lower", "higher", "nearest", "midpoint"])
@pytest.mark.parametrize("axis", [None, 1, (0, 2)])
def test_nanquantile_nanpercentile_nanmedian(device, rng, method, axis):
    import warnings
    x = rng.standard_normal((4, 6, 5)).astype("float32")
    x[rng.random(x.shape) < 0.3] = np.nan
    x[1, :, 2] = np.nan  # an all-NaN slice along axis 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for q in (0.0, 0.5, [0.1, 0.77, 1.0]):
            for keepdims in (False, True):
                got = loom.nanquantile(L(x, device), q, axis=axis, method=method, keepdims=keepdims)
                want = np.nanquantile(x, q, axis=axis, method=method, keepdims=keepdims)
                assert got.shape == want.shape and got.dtype == want.dtype
                np.testing.assert_allclose(got.numpy(), want, rtol=1e-6, atol=1e-6)  # a float32 lerp across 0
        got = loom.nanpercentile(L(x, device), [5, 60], axis=axis, method=method)
        np.testing.assert_allclose(got.numpy(), np.nanpercentile(x, [5, 60], axis=axis, method=method), rtol=1e-6, atol=1e-6)
        for keepdims in (False, True):
            got = loom.nanmedian(L(x, device), axis=axis, keepdims=keepdims)
            want = np.nanmedian(x, axis=axis, keepdims=keepdims)
            assert got.shape == want.shape and got.dtype == want.dtype
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-6, atol=1e-6)
    xi = rng.integers(-9, 9, size=(3, 4))
    np.testing.assert_allclose(loom.nanmedian(L(xi, device), axis=0).numpy(), np.nanmedian(xi, axis=0))
    with pytest.raises(ValueError, match="nanquantile"):
        loom.nanquantile(L(x, device), 1.5)
    with pytest.raises(ValueError, match="nanpercentile"):
        loom.nanpercentile(L(x, device), -1)
