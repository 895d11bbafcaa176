"""x[key] = nan / inf / -inf on every dtype that holds them, complex included
(python/loom/_numpy/setitem.py), and the errors NumPy gives for integer arrays, compared with
NumPy on fresh random data."""
import numpy as np
import pytest

from conftest import compare, random_array


@pytest.mark.parametrize("dtype", ["complex64", "complex128", "float32", "float64", "int32", "bool"])
@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf")])
@pytest.mark.parametrize("key", [2, (slice(None), 1), Ellipsis])
def test_non_finite_floats_assign_as_numpy(device, rng, dtype, value, key):
    a = random_array(rng, (4, 3), dtype)

    def run(xp, x):
        x[key] = value
        return x
    compare(run, a, device=device, exact=True)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_fill_and_sort_with_nan_on_complex(device, rng, dtype):
    a = random_array(rng, (9,), dtype)

    def run(xp, x):
        x[2] = x[6] = xp.nan
        return xp.sort(x)
    compare(run, a, device=device, exact=True)

    def fill(xp, x):
        x.fill(np.nan)
        return x
    compare(fill, a, device=device, exact=True)
