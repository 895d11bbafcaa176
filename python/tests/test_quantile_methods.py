"""numpy.quantile / percentile with every NumPy method, out= and overwrite_input=, and the
median / nanmedian of complex arrays (python/loom/_numpy/quantile.py), compared with NumPy on
fresh random data."""
import numpy as np
import pytest

import loom
from conftest import compare, random_array

METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest"]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int16"])
@pytest.mark.parametrize("axis, keepdims", [(None, False), (-1, False), ((0, 2), True), (1, True)])
def test_quantile_methods(device, rng, method, dtype, axis, keepdims):
    # Positive values: an interpolation between values of both signs can land near 0, where a
    # float32 result carries no relative accuracy to compare.
    a = random_array(rng, (4, 5, 6), dtype, 1, 50)
    q = rng.random(3).astype("float32")
    compare(lambda xp, x, qq: xp.quantile(x, qq, axis=axis, method=method, keepdims=keepdims), a, q,
            device=device, rtol=1e-5)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("q", [13.37, [0.0, 99.9, 100.0], 50])
def test_percentile_methods_and_scalar_q(device, rng, method, q):
    a = random_array(rng, (7, 9), "float32", 1, 50)  # positive: no interpolation lands near 0
    compare(lambda xp, x: xp.percentile(x, q, axis=0, method=method), a, device=device, rtol=1e-5)


@pytest.mark.parametrize("method", ["hazen", "linear", "higher"])
def test_out_and_overwrite_input(device, rng, method):
    a = random_array(rng, (6, 2, 5), "float64")
    q = rng.random(4) * 100

    def into(xp, x, qq, o):
        r = xp.percentile(x, qq, axis=-1, method=method, out=o)
        assert r is o
        return o
    compare(into, a, q, random_array(rng, (4, 6, 2), "float64"), device=device, rtol=1e-12)

    x = loom.asarray(a.copy(), device=device)
    r = loom.quantile(x, q / 100, axis=-1, method=method, overwrite_input=True)
    np.testing.assert_allclose(r.numpy(), np.quantile(a, q / 100, axis=-1, method=method), rtol=1e-12)
    np.testing.assert_array_equal(x.numpy(), np.sort(a, axis=-1))  # left sorted along the axis


def test_nan_slices_and_errors(device, rng):
    a = random_array(rng, (3, 8), "float64")
    a[1, 4] = np.nan
    compare(lambda xp, x: xp.quantile(x, [0.2, 0.9], axis=1, method="weibull"), a, device=device, rtol=1e-12)
    compare(lambda xp, x: xp.quantile(x, 0.5, method="nonsense"), a, device=device)
    compare(lambda xp, x: xp.quantile(x, [1.5], method="hazen"), a, device=device)
    compare(lambda xp, x: xp.quantile(x, [[0.1], [0.7]], axis=0, method="hazen"), a, device=device, rtol=1e-12)
    compare(lambda xp, x: xp.percentile(x, np.ones((1, 2, 3)), axis=-1, method="higher"), a, device=device)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("axis, keepdims", [(None, False), (0, True), ((1, 2), False), (-1, False)])
@pytest.mark.parametrize("shape", [(3, 4, 5), (2, 4, 6)])
def test_median_of_complex(device, rng, dtype, axis, keepdims, shape):
    a = random_array(rng, shape, dtype)
    compare(lambda xp, x: xp.median(x, axis=axis, keepdims=keepdims), a, device=device, rtol=1e-5)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("axis", [None, 0, (0, 2), -1])
def test_nanmedian_of_complex(device, rng, dtype, axis):
    a = random_array(rng, (3, 4, 5), dtype)
    a[rng.random(a.shape) < 0.3] = np.nan
    a[0, :, 0] = np.nan  # an all-NaN slice along axis 1
    with np.errstate(invalid="ignore"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            compare(lambda xp, x: xp.nanmedian(x, axis=axis), a, device=device, rtol=1e-5)
