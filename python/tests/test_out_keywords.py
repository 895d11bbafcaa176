"""NumPy's keywords over bound functions that lacked them (python/loom/_numpy/out_keywords.py):
copyto(casting=, where=), dot(out=) and x.dot(b, out=), the ufunc keywords of float_power,
heaviside, ldexp, logaddexp, deg2rad, ... and matmul(out=, casting=, dtype=, axes=), compared
with NumPy on fresh random data."""
import inspect
import warnings

import numpy as np
import pytest

import loom
from conftest import assert_matches, compare, random_array

DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float16", "float32", "float64", "complex64", "complex128"]


# ---- copyto ---------------------------------------------------------------------------------

@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
@pytest.mark.parametrize("src_dtype, dst_dtype", [("float64", "int8"), ("int8", "float32"), ("int32", "int32"),
                                                  ("complex64", "float64"), ("bool", "uint8"), ("uint8", "int8")])
def test_copyto_casting_of_arrays(device, rng, casting, src_dtype, dst_dtype):
    src = random_array(rng, (3, 4), src_dtype, 0, 100)
    dst = random_array(rng, (3, 4), dst_dtype, 0, 100)

    def run(xp, d, s):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
            xp.copyto(d, s, casting)
        return d
    compare(run, dst, src, device=device, exact=True)


@pytest.mark.parametrize("casting", ["same_kind", "unsafe", "no"])
@pytest.mark.parametrize("dst_dtype", ["int8", "uint8", "float32", "complex64", "bool"])
@pytest.mark.parametrize("value", [3.25, 0, 4, -4, 300, True, 1 + 1j, np.float32(2.5), np.array(7, np.int16)])
def test_copyto_scalars_checked_as_numpy(device, rng, casting, dst_dtype, value):
    dst = random_array(rng, (2, 3), dst_dtype, 0, 50)

    def run(xp, d):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
            xp.copyto(d, value, casting=casting)
        return d
    compare(run, dst, device=device, exact=True)


@pytest.mark.parametrize("dtype", ["int32", "float64", "complex64", "bool"])
@pytest.mark.parametrize("src_shape, mask_shape", [((2, 3, 4), (2, 3, 4)), ((1, 2, 1, 4), (3, 4)), ((4,), (2, 1, 4))])
def test_copyto_where(device, rng, dtype, src_shape, mask_shape):
    dst = random_array(rng, (2, 3, 4), dtype)
    src = random_array(rng, src_shape, dtype)
    mask = random_array(rng, mask_shape, "bool")

    def run(xp, d, s, m):
        xp.copyto(d, s, where=m)
        return d
    compare(run, dst, src, mask, device=device, exact=True)


@pytest.mark.parametrize("where", [3.2, 0, -4, True, False, 1 + 1j])
def test_copyto_where_python_scalar_counts_by_truth(device, rng, where):
    dst, src = random_array(rng, (3, 2), "float32"), random_array(rng, (3, 2), "float32")

    def run(xp, d, s):
        xp.copyto(d, s, where=where)
        return d
    compare(run, dst, src, device=device, exact=True)


def test_copyto_errors_are_numpys(device, rng):
    dst, src = random_array(rng, (2, 3), "int32"), random_array(rng, (2, 3), "int32")
    compare(lambda xp, d, s, m: xp.copyto(d, s, where=m), dst, src, random_array(rng, (2, 3), "int8"), device=device)
    compare(lambda xp, d, s: xp.copyto(d, s[:, :2]), dst, src, device=device)
    compare(lambda xp, d, s: xp.copyto(d, s, casting="sometimes"), dst, src, device=device)
    compare(lambda xp, d: xp.copyto(d, np.ones((2, 1, 2, 3))), dst, device=device)
    with pytest.raises(TypeError, match="copyto"):
        loom.copyto([1, 2], loom.ones(2, device=device))


# ---- dot ------------------------------------------------------------------------------------

@pytest.mark.parametrize("shapes", [((3, 4), (4, 5)), ((2, 3, 4), (3, 4, 2)), ((4,), (4,)), ((3, 4), (4,)),
                                    ((), (3, 2)), ((2, 2), ())])
@pytest.mark.parametrize("dtypes", [("float32", "float32", "float32"), ("float64", "float32", "float64"),
                                    ("float32", "float32", "float64"), ("int32", "int32", "int32")])
def test_dot_out(device, rng, shapes, dtypes):
    # Positive operands: a float32 sum that cancels would carry no relative accuracy to compare.
    a, b = random_array(rng, shapes[0], dtypes[0], 1, 5), random_array(rng, shapes[1], dtypes[1], 1, 5)
    shape = np.dot(a, b).shape

    def run(xp, x, y):
        out = xp.zeros(shape, dtype=dtypes[2])
        r = xp.dot(x, y, out=out)
        assert r is out or out.ndim == 0  # NumPy returns a scalar for vector . vector
        return out
    compare(run, a, b, device=device, rtol=1e-5)


def test_dot_out_must_be_c_contiguous_and_method_form(device, rng):
    a, b = random_array(rng, (3, 4), "float64"), random_array(rng, (4, 5), "float64")
    compare(lambda xp, x, y: xp.dot(x, y, out=xp.zeros((5, 3)).T), a, b, device=device)
    compare(lambda xp, x, y: xp.dot(x, y, out=xp.zeros((3, 4))), a, b, device=device)

    def method(xp, x, y):
        out = xp.zeros((3, 5))
        assert x.dot(y, out=out) is out
        return out
    compare(method, a, b, device=device, rtol=1e-12)


# ---- ufunc keywords -------------------------------------------------------------------------

BINARY = ["float_power", "heaviside", "ldexp", "logaddexp", "logaddexp2"]
UNARY = ["deg2rad", "degrees", "rad2deg", "radians", "signbit", "spacing"]


def _inputs(rng, name, shape):
    if name == "ldexp":
        return random_array(rng, shape, "float32"), random_array(rng, shape, "int32", -5, 5)
    return random_array(rng, shape, "float32", 0.5, 3), random_array(rng, shape, "float32", -2, 2)


@pytest.mark.parametrize("name", BINARY)
def test_binary_ufunc_keywords(device, rng, name):
    x1, x2 = _inputs(rng, name, (3, 4))
    compare(lambda xp, a, b: getattr(xp, name)(a, b), x1, x2, device=device, rtol=1e-5)
    compare(lambda xp, a, b: getattr(xp, name)(a, b, dtype="float64"), x1, x2, device=device, rtol=1e-12)

    def into(xp, a, b, o, m):
        r = getattr(xp, name)(a, b, out=o, where=m)
        assert r is o
        return o
    out = random_array(rng, (3, 4), "float64")
    compare(into, x1, x2, out, random_array(rng, (3, 4), "bool"), device=device, rtol=1e-5)
    # A float result into int16 is not same_kind (NumPy's error is a TypeError subclass).
    compare(lambda xp, a, b: getattr(xp, name)(a, b, out=xp.zeros((3, 4), dtype="int16")), x1, x2, device=device,
            raises=TypeError)


@pytest.mark.parametrize("name", UNARY)
def test_unary_ufunc_keywords(device, rng, name):
    x = random_array(rng, (5,), "float32")
    # signbit has bool results only: dtype=float64 finds no loop in NumPy.
    compare(lambda xp, a: getattr(xp, name)(a, dtype="float64"), x, device=device, rtol=1e-12, raises=TypeError)
    compare(lambda xp, a: getattr(xp, name)(a, dtype="float64" if name != "signbit" else "bool"), x,
            device=device, rtol=1e-12)

    def into(xp, a, o):
        return getattr(xp, name)(a, out=o, casting="unsafe")
    compare(into, x, random_array(rng, (5,), "float64"), device=device, rtol=1e-6)


@pytest.mark.parametrize("dtype", ["float64", "complex128", "float32"])
def test_float_power_dtype_has_numpys_loops(device, rng, dtype):
    x1, x2 = random_array(rng, (4,), "float32", 0.5, 2), random_array(rng, (4,), "int16", -3, 3)
    compare(lambda xp, a, b: xp.float_power(a, b, dtype=dtype), x1, x2, device=device, rtol=1e-12)


def test_numpy_ufunc_dispatch_passes_the_keywords(device, rng):
    if device != loom.cpu():
        pytest.skip("NumPy imports host memory only")
    x1, x2 = _inputs(rng, "float_power", (4,))
    got = np.float_power(loom.asarray(x1, device=device), loom.asarray(x2, device=device), dtype="float64")
    assert_matches(got, np.float_power(x1, x2, dtype="float64"), rtol=1e-12)


# ---- matmul ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("int32", "int8"), ("float64", "bool")])
def test_matmul_out_and_casting(device, rng, dtypes):
    a, b = random_array(rng, (2, 3, 4), dtypes[0], -3, 3), random_array(rng, (2, 4, 5), dtypes[1], -3, 3)
    compare(lambda xp, x, y: xp.matmul(x, y, out=xp.zeros((2, 3, 5), dtype=dtypes[0])[::-1]), a, b,
            device=device, rtol=1e-5)
    compare(lambda xp, x, y: xp.matmul(x, y, out=xp.zeros((2, 3, 5), dtype=bool), casting="unsafe"), a, b,
            device=device)


@pytest.mark.parametrize("shapes, axes", [(((2, 5, 3, 2, 3, 4), (3, 5, 1, 1, 1, 4)), [(1, 2), (0, 1), (0, 1)]),
                                          (((3, 2, 4, 4), (4, 4, 3, 2)), [(0, 1), (-1, -2), (-2, -1)])])
def test_matmul_axes(device, rng, shapes, axes):
    a, b = random_array(rng, shapes[0], "float64"), random_array(rng, shapes[1], "float64")
    compare(lambda xp, x, y: xp.matmul(x, y, axes=axes), a, b, device=device, rtol=1e-12)


def test_signatures_are_numpys():
    assert list(inspect.signature(loom.copyto).parameters) == ["dst", "src", "casting", "where"]
    assert list(inspect.signature(loom.dot).parameters) == ["a", "b", "out"]
    assert list(inspect.signature(loom.float_power).parameters) == ["x1", "x2", "out", "where", "casting", "order",
                                                                    "dtype", "subok"]
    assert loom.linalg.matmul is loom.matmul and loom.float_power.__name__ == "float_power"
