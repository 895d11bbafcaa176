"""The signature key of Python kernels has one grammar (python/src/kernel_signature.h): the
key C++ builds for real launch arguments parses back to the types the translator gives
those arguments, and the translator's key of those types is the same text, for every dtype,
ndim 0-3 and beyond 9, both layouts, Python and NumPy scalars. If the launch path and the
translator spelled keys differently, declared signatures would never be found at a launch."""
import numpy as np
import pytest

import loom
from loom import cuda
from loom._loom import _KernelDispatcher
from loom.pykernel import types as T

from conftest import COMPLEX_DTYPES, DTYPES, random_array


def no_miss(launcher, args):
    raise AssertionError("no launch here")


def arrays_of(rng, npdt, ndim):
    """(loom array, its layout) pairs of `ndim` dimensions: C-contiguous, and (ndim >= 1)
    strided views that are not (a 0-d array is always contiguous)."""
    shape = tuple(int(n) for n in rng.integers(3, 6, size=ndim))  # [..., ::2] of 3+ is strided
    a = loom.asarray(random_array(rng, shape, npdt), device=loom.cpu())
    out = [(a, "C")]
    if ndim >= 1:
        out.append((a[..., ::2], "A"))
    if ndim >= 2:
        out.append((a.T, "A"))
    return out


@pytest.mark.parametrize("dt,npdt", DTYPES + COMPLEX_DTYPES, ids=[d.name for d, _ in DTYPES + COMPLEX_DTYPES])
@pytest.mark.parametrize("ndim", [0, 1, 2, 3])
def test_array_keys_parse_to_the_translator_types(rng, dt, npdt, ndim):
    d = _KernelDispatcher("f", no_miss)
    for a, layout in arrays_of(rng, npdt, ndim):
        want = T.Array(dt.name, ndim, layout)
        key = d.signature(a)
        assert T.parse_key(key) == (want,)
        assert T.signature_key((want,)) == key


def test_many_dimensions_take_several_digits():
    d = _KernelDispatcher("f", no_miss)
    a = loom.asarray(np.ones((1,) * 11 + (3,), np.float32), device=loom.cpu())
    key = d.signature(a, a[..., ::2])
    assert T.parse_key(key) == (T.Array("float32", 12, "C"), T.Array("float32", 12, "A"))
    assert T.signature_key(T.parse_key(key)) == key


@pytest.mark.parametrize("dt,npdt", DTYPES, ids=[d.name for d, _ in DTYPES])
def test_numpy_scalar_keys_parse_to_their_dtype(rng, dt, npdt):
    d = _KernelDispatcher("f", no_miss)
    x = random_array(rng, (), npdt)[()]
    key = d.signature(x)
    assert T.parse_key(key) == (T.Scalar(dt.name),)
    assert T.signature_key((T.Scalar(dt.name),)) == key


def test_mixed_arguments_round_trip(rng):
    d = _KernelDispatcher("f", no_miss)
    a = loom.asarray(random_array(rng, (3, 4), np.float64), device=loom.cpu())
    args = (a, a.T, True, int(rng.integers(1 << 40)), float(rng.random()), np.float32(rng.random()), np.uint16(7))
    want = (T.Array("float64", 2, "C"), T.Array("float64", 2, "A"), T.BOOL, T.INT64, T.FLOAT64, T.FLOAT32,
            T.Scalar("uint16"))
    key = d.signature(*args)
    assert T.parse_key(key) == want
    assert T.signature_key(want) == key
    assert T.parse_key(d.signature()) == () and T.signature_key(()) == ""


def test_declared_signatures_register_the_launch_key(rng):
    # The declared types are keyed by the translator; a launch looks its arguments' key up in C++.
    def axpy(out, x, a):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = a * x[i]

    k = cuda.jit(["void(float32[::1], float32[::1], float32)", "void(float64[:], float64[::1], int64)"])(axpy)
    x = loom.asarray(random_array(rng, 5, np.float32), device=loom.cpu())
    m = loom.asarray(random_array(rng, 6, np.float64), device=loom.cpu())
    assert k.keys() == [k.signature(x, x, np.float32(2)), k.signature(m[::2], m, 3)]
    out = loom.zeros(5, loom.float32, device=loom.cpu())
    k[1, 8](out, x, np.float32(2))  # found by the key C++ built: no miss, no new specialisation
    assert len(k.keys()) == 2
    np.testing.assert_array_equal(out.numpy(), np.float32(2) * x.numpy())


@pytest.mark.parametrize("key", ["float32[2X]", "float32[]", "float32[C]", "float32[02C]", "float32[2C",
                                 "f4", "float", "nonsense[1C]", "float32[1C],", ",int64", "int64,,int64",
                                 "float32[-1C]"])
def test_malformed_keys_raise(key):
    with pytest.raises(ValueError):
        T.parse_key(key)


@pytest.mark.parametrize("item", [("f4", None, None), ("float32", 1, "F"), ("float32", -1, "C"),
                                  ("float32", None, "C"), ("complex", 1, "C")])
def test_bad_items_raise(item):
    with pytest.raises(ValueError):
        loom._loom._kernel_key([item])
