"""CuPy's names on loom (python/loom/_numpy/cupy_names.py): get_array_module, x.get(),
x.fill(), dtype.type/char/str, and order= (with ndmin=) on the creation functions, compared
with NumPy on fresh random data."""
import numpy as np
import pytest

import loom
from conftest import assert_matches, compare, random_array

SHAPES = [(3, 4), (2, 3, 5), (7,), ()]


def test_get_array_module(device, rng):
    a = random_array(rng, (3,), "float32")
    assert loom.get_array_module(loom.asarray(a, device=device)) is loom
    assert loom.get_array_module(a, 1.0) is np
    assert loom.get_array_module(a, loom.asarray(a, device=device)) is loom
    assert loom.get_array_module() is np


@pytest.mark.parametrize("order", ["C", "F", "A"])
def test_get_copies_to_numpy_in_order(device, rng, order):
    a = random_array(rng, (4, 5), "float64")
    x = loom.asarray(np.asfortranarray(a), order="F", device=device)
    got = x.get(order=order)
    assert isinstance(got, np.ndarray)
    np.testing.assert_array_equal(got, a)
    assert got.flags.f_contiguous == (order in ("F", "A"))


def test_get_into_out_and_its_errors(device, rng):
    a = random_array(rng, (3, 2), "int32")
    x = loom.asarray(a, device=device)
    out = np.empty((3, 2), np.int32)
    assert x.get(out=out) is out
    np.testing.assert_array_equal(out, a)
    with pytest.raises(ValueError, match=r"\[get\] out has shape"):
        x.get(out=np.empty((2, 3), np.int32))
    with pytest.raises(TypeError, match=r"\[get\] out must be"):
        x.get(out=[0] * 6)
    with pytest.raises(ValueError, match=r"\[get\] order"):
        x.get(order="K")


@pytest.mark.parametrize("dtype", ["float32", "int16", "uint8", "bool", "complex64"])
def test_fill_casts_like_numpy(device, rng, dtype):
    a = random_array(rng, (3, 4), dtype)
    value = random_array(rng, (), "float64").item() * 3

    def fill(xp, a):
        b = a[:, 1:3] if xp is np else a[:, 1:3]
        with np.errstate(invalid="ignore"):
            b.fill(value if dtype != "bool" else True)
        return a
    compare(fill, a, device=device, exact=True)


def test_fill_takes_a_scalar_only(device, rng):
    x = loom.asarray(random_array(rng, (3,), "float32"), device=device)
    with pytest.raises(ValueError, match=r"\[fill\] value must be a scalar"):
        x.fill(loom.ones((3,), device=device))
    x.fill(loom.asarray(np.float32(2.5), device=device))
    np.testing.assert_array_equal(x.numpy(), np.full(3, 2.5, np.float32))


@pytest.mark.parametrize("name", ["bool", "int8", "uint16", "int64", "float16", "float32", "float64", "complex128"])
def test_dtype_type_char_str(name):
    d, n = getattr(loom, name if name != "bool" else "bool_"), np.dtype(name)
    assert d.type is n.type and d.char == n.char and d.str == n.str


@pytest.mark.parametrize("fn", ["empty", "zeros", "ones", "full"])
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("shape", SHAPES)
def test_creation_order(device, rng, fn, order, shape):
    fill = random_array(rng, (), "float32").item()
    args = (shape, fill) if fn == "full" else (shape,)
    x = getattr(loom, fn)(*args, dtype="float32", order=order, device=device)
    want = getattr(np, fn)(*args, dtype="float32", order=order)
    assert x.shape == want.shape and x.device == device
    assert x.flags.c_contiguous == want.flags.c_contiguous and x.flags.f_contiguous == want.flags.f_contiguous
    if fn != "empty":
        assert_matches(x, want, exact=True)
    with pytest.raises(ValueError, match=rf"\[{fn}\] order must be one of C, F"):
        getattr(loom, fn)(*args, order="K", device=device)


@pytest.mark.parametrize("fn", ["empty_like", "zeros_like", "ones_like", "full_like"])
@pytest.mark.parametrize("order", ["C", "F", "A", "K", None])
@pytest.mark.parametrize("fortran_input", [False, True])
def test_like_order(device, rng, fn, order, fortran_input):
    a = random_array(rng, (3, 4, 2), "int32")
    a = np.asfortranarray(a) if fortran_input else a
    x = loom.asarray(a, order="K", device=device)
    extra = (7,) if fn == "full_like" else ()
    got = getattr(loom, fn)(x, *extra, order=order or "K")
    want = getattr(np, fn)(a, *extra, order=order or "K")
    assert got.device == device and got.shape == want.shape and got.dtype == want.dtype
    assert got.flags.f_contiguous == want.flags.f_contiguous and got.flags.c_contiguous == want.flags.c_contiguous
    if fn != "empty_like":
        assert_matches(got, want, exact=True)
    assert getattr(loom, fn)(x, *extra, dtype="float16", shape=(5, 2)).shape == (5, 2)


@pytest.mark.parametrize("fn", ["array", "asarray"])
@pytest.mark.parametrize("order", ["C", "F", "A", "K", None])
@pytest.mark.parametrize("fortran_input", [False, True])
def test_array_order(device, rng, fn, order, fortran_input):
    a = random_array(rng, (4, 3), "float64")
    a = np.asfortranarray(a) if fortran_input else a
    for src in (a, loom.asarray(a, order="K", device=device)):
        got = getattr(loom, fn)(src, order=order, device=device)
        want = getattr(np, fn)(a, order=order)
        assert_matches(got, want, exact=True, device=device)
        assert got.flags.f_contiguous == want.flags.f_contiguous and got.flags.c_contiguous == want.flags.c_contiguous
    with pytest.raises(ValueError, match=rf"\[{fn}\] order must be one of"):
        getattr(loom, fn)(a, order="Z", device=device)


@pytest.mark.parametrize("ndmin", [0, 1, 3])
def test_array_ndmin(device, rng, ndmin):
    a = random_array(rng, (2,), "int16")
    compare(lambda xp, a: xp.array(a, ndmin=ndmin), a, device=device, exact=True)


@pytest.mark.parametrize("fn", ["empty", "zeros", "ones"])
def test_creation_order_none_is_c(device, fn):
    x = getattr(loom, fn)((2, 3), order=None, device=device)
    assert x.flags.c_contiguous and x.shape == getattr(np, fn)((2, 3), order=None).shape


@pytest.mark.parametrize("fn", ["empty_like", "zeros_like", "ones_like"])
def test_like_refuses_subok(device, rng, fn):
    x = loom.asarray(random_array(rng, (2, 2), "float32"), device=device)
    with pytest.raises(TypeError, match=rf"\[{fn}\] subok=True"):
        getattr(loom, fn)(x, subok=True)
    assert getattr(loom, fn)(x, subok=False).shape == (2, 2)
