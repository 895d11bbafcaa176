"""Pickled @cuda.jit kernels, device functions, configured launches and (gu)vectorize objects
(serialize.py): rebuilt from their Python function (by value when it is local) and options,
they compute what the originals do, on every device."""
import pickle

import numpy as np
import pytest

import loom
from loom import cuda


def _roundtrip(obj, times=2):
    for _ in range(times):
        obj = pickle.loads(pickle.dumps(obj))
    return obj


def test_a_local_kernel_with_a_closure_device_function_pickles(device, rng):
    scale = float(rng.uniform(1, 3))

    @cuda.jit(device=True)
    def inner(a):
        return a * scale + 1

    @cuda.jit("void(float64[::1])")
    def declared(x):
        i = cuda.grid(1)
        if i < x.size:
            x[i] = inner(x[i])

    @cuda.jit
    def lazy(x):
        i = cuda.grid(1)
        if i < x.size:
            x[i] = inner(x[i]) + np.float64(2)

    x = rng.standard_normal(40)
    for k, extra in ((declared, 0.0), (lazy, 2.0)):
        again = _roundtrip(k)
        a = loom.array(x, device=device)
        again[1, 64](a)
        np.testing.assert_allclose(a.numpy(), x * scale + 1 + extra)
    launch = _roundtrip(lazy[5, (8, 2)])
    assert (launch.griddim, launch.blockdim) == ((5, 1, 1), (8, 2, 1))


def test_vectorize_and_guvectorize_pickle(device, rng):
    @loom.vectorize(["int64(int64)", "float64(float64)"], target="cuda")
    def twice(x):
        return x * 2

    @loom.guvectorize(["void(float64[:], float64[:])"], "(n)->()", target="cuda")
    def total(x, out):
        s = 0.0
        for v in x:
            s += v
        out[0] = s

    x = rng.standard_normal((3, 7))
    with device:
        np.testing.assert_array_equal(_roundtrip(twice)(np.arange(5)), np.arange(5) * 2)
        np.testing.assert_allclose(_roundtrip(total)(x), x.sum(axis=1))


def test_a_launch_on_a_stream_does_not_pickle(device):
    @cuda.jit
    def k(x):
        x[0] = 1

    with device:
        s = cuda.stream()
        configured = k[1, 1, s]
    if s == loom.default_stream(device):
        pytest.skip("cpu()'s streams are its default stream")
    with pytest.raises(pickle.PicklingError, match="configured with a stream"):
        pickle.dumps(configured)
