"""cuda.reduce (Numba's) on every device against NumPy and functools.reduce."""
import functools

import numpy as np
import pytest

import loom
from loom import cuda


@cuda.reduce
def sum_reduce(a, b):
    return a + b


@cuda.reduce
def max_reduce(a, b):
    return a if a > b else b


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
@pytest.mark.parametrize("n", [1, 7, 256, 1000, 300_001])
def test_sum_and_max(device, rng, dtype, n):
    x = (rng.random(n) * 100).astype(dtype)
    d = loom.asarray(x, device=device)
    got = sum_reduce(d)
    want = x.sum(dtype=dtype)
    if dtype.startswith("float"):
        np.testing.assert_allclose(got, want, rtol=1e-5 if dtype == "float32" else 1e-12)
    else:
        assert got == want
    assert max_reduce(d, init=-1) == x.max()


def test_host_arrays_init_size_res_and_empty(rng):
    x = rng.integers(-50, 50, 999)
    assert sum_reduce(x, init=10) == x.sum() + 10
    assert sum_reduce(x, size=100) == x[:100].sum()
    res = np.zeros(1, dtype=x.dtype)
    assert sum_reduce(x, res=res) is None and res[0] == x.sum()
    assert sum_reduce(np.zeros(0, dtype=np.float32), init=3) == 3


def test_custom_function(device, rng):
    @cuda.reduce
    def prod_mod(a, b):
        return (a * b) % 1000003

    x = rng.integers(1, 1000, 5000)
    want = functools.reduce(lambda a, b: (a * b) % 1000003, x.tolist(), 1)
    assert want > 1 and prod_mod(loom.asarray(x, device=device), init=1) == want
    with pytest.raises(ValueError, match="1-D"):
        sum_reduce(np.zeros((2, 2)))


product_reduce = cuda.reduce(lambda a, b: a * b)  # Numba's documentation writes it this way


def test_a_lambda_is_a_reduction_function(device, rng):
    x = rng.uniform(0.9, 1.1, 500)
    assert np.isclose(product_reduce(loom.asarray(x, device=device), init=1), np.prod(x), rtol=1e-12)  # init: 0 by default


two_lambdas = (lambda a, b: a + b, lambda a, b: a - b)


def test_a_lambda_that_cannot_be_told_apart_says_to_use_def():
    with pytest.raises(cuda.UnsupportedError, match=r"several lambdas with the parameters \(a, b\)"):
        cuda.reduce(two_lambdas[0])(np.ones(3))
