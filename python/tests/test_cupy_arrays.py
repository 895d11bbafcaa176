"""CuPy's array and type names (loom/_numpy/cupy_types.py, memptr.py): loom.ndarray(shape, dtype,
memptr=, strides=, order=), x.data as a MemoryPointer, dtypes callable as NumPy's scalar types,
asnumpy, get_array_module and fill; compared with NumPy on fresh random data."""
import numpy as np
import pytest

import loom
from conftest import random_array
from loom import cuda

DTYPES = ["float32", "float64", "int8", "uint16", "int64", "complex64", "bool"]


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 5), (7,), (), (0, 3)])
def test_ndarray_constructs_an_empty_array(device, shape, order):
    with loom.device(device):
        x = loom.ndarray(shape, np.float32, order=order)
    assert type(x) is loom.ndarray
    assert x.shape == shape and x.dtype == loom.float32 and x.device == device
    want = np.ndarray(shape, np.float32, order=order)
    assert x.strides == want.strides or x.size == 0  # NumPy gives empty arrays zero strides
    assert loom.ndarray(5).dtype == loom.float64  # CuPy's default dtype: float


@pytest.mark.parametrize("dtype", ["float32", "int16", "complex128"])
def test_ndarray_over_memptr_shares_memory(device, rng, dtype):
    a = random_array(rng, (24,), dtype)
    x = loom.asarray(a, device=device)
    y = loom.ndarray((2, 3), dtype, memptr=x.data + 2 * a.itemsize, strides=(6 * a.itemsize, 2 * a.itemsize))
    want = np.lib.stride_tricks.as_strided(a[2:], (2, 3), (6 * a.itemsize, 2 * a.itemsize))
    np.testing.assert_array_equal(y.numpy(), want)
    value = random_array(rng, (), dtype)
    y[1, 2] = value
    a2 = a.copy()
    a2[2 + 6 + 4] = value
    np.testing.assert_array_equal(x.numpy(), a2)
    z = loom.ndarray((4, 6), dtype, memptr=x.data, order="F")
    np.testing.assert_array_equal(z.numpy(), a2.reshape(6, 4).T)


def test_ndarray_over_an_allocation_outlives_it(device, rng):
    a = random_array(rng, (5, 3), "float64")
    with loom.device(device):
        p = cuda.alloc(a.nbytes)
    x = loom.ndarray(a.shape, a.dtype, memptr=p)
    x[...] = loom.asarray(a, device=device)
    del p
    y = loom.ndarray((15,), "float64", memptr=x.data)
    del x
    np.testing.assert_array_equal(y.numpy(), a.ravel())


def test_ndarray_errors(device):
    x = loom.zeros(8, dtype=loom.float32, device=device)
    with pytest.raises(ValueError, match=r"\[ndarray\] shape \(3, 3\) .* reaches bytes 0..36 of a memory of 32"):
        loom.ndarray((3, 3), "float32", memptr=x.data)
    with pytest.raises(ValueError, match=r"\[ndarray\] shape \(2,\) .* reaches bytes -4..4"):
        loom.ndarray((2,), "float32", memptr=x.data, strides=(-4,))
    with pytest.raises(ValueError, match=r"\[ndarray\] strides= needs memptr="):
        loom.ndarray((2,), strides=(4,))
    with pytest.raises(ValueError, match=r"\[ndarray\] strides \(4,\) do not match"):
        loom.ndarray((2, 2), "float32", memptr=x.data, strides=(4,))
    with pytest.raises(ValueError, match=r"\[ndarray\] negative dimensions"):
        loom.ndarray((-1, 2))
    with pytest.raises(ValueError, match=r"\[ndarray\] order must be"):
        loom.ndarray((2,), order="K")
    with pytest.raises(TypeError, match=r"\[ndarray\] memptr must be"):
        loom.ndarray((2,), memptr=123)


def test_ndarray_class_is_the_array_type(device, rng):
    x = loom.asarray(random_array(rng, (3, 4), "float32"), device=device)
    assert isinstance(x, loom.ndarray) and not isinstance(np.zeros(2), loom.ndarray)
    assert type(x) is loom.ndarray and loom.Array is loom.ndarray  # CuPy's constructor is its own
    np.testing.assert_allclose(loom.ndarray.mean(x, 0).numpy(), x.numpy().mean(0), rtol=1e-6)
    assert "sum" in dir(loom.ndarray)
    loom.ndarray._cupy_test_attribute = 5  # writes reach the array type
    try:
        assert x._cupy_test_attribute == 5
    finally:
        del loom.ndarray._cupy_test_attribute
    assert not hasattr(x, "_cupy_test_attribute")


@pytest.mark.parametrize("index", [(slice(None), slice(None)), (slice(1, 3), slice(None, None, -2)), (1,),
                                   (slice(None, None, -1), 2)])
def test_data_points_at_element_zero(device, rng, index):
    a = random_array(rng, (4, 6), "float64")
    x = loom.asarray(a, device=device)
    v, w = x[index], a[index]
    p = v.data
    assert isinstance(p, cuda.MemoryPointer) and p.device == device
    assert p.ptr - x.data.ptr == w.ctypes.data - a.ctypes.data
    low, high = np.lib.array_utils.byte_bounds(w) if hasattr(np.lib, "array_utils") else np.byte_bounds(w)
    assert p.mem.ptr - x.data.ptr == low - a.ctypes.data and p.mem.size == high - low
    assert int(p) == p.ptr and p.device_id == cuda.Device(device).id
    again = loom.ndarray(v.shape, v.dtype, memptr=p, strides=v.strides)
    np.testing.assert_array_equal(again.numpy(), w)


@pytest.mark.parametrize("name", ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                                  "float16", "float32", "float64", "complex64", "complex128"])
def test_scalar_types_are_numpys(rng, name):
    d, t = getattr(loom, name), getattr(np, name)
    v = random_array(rng, (), t).item()
    got = d(v)
    assert type(got) is t and got == t(v)
    assert d() == t() and type(d("1")) is t
    assert isinstance(t(v), d) and not isinstance(v, d) and issubclass(t, d) and not issubclass(float, d)
    assert loom.zeros(2, dtype=d).dtype == d and d.itemsize == np.dtype(t).itemsize  # still a dtype
    np.testing.assert_array_equal(d([1, 2]), t([1, 2]))  # as NumPy's: an array from a list


def test_scalar_types_examples(device, rng):
    assert loom.uint32(5) == 5 and type(loom.uint32(5)) is np.uint32
    assert loom.float32(1.5) == np.float32(1.5) and loom.bool_(1) is np.True_
    assert type(loom.bfloat16(1.5)).__name__ == "bfloat16" and float(loom.bfloat16(1.5)) == 1.5
    a = random_array(rng, (5,), "float64")
    x = loom.float32(loom.asarray(a, device=device))  # a loom array stays on its device
    assert x.dtype == loom.float32 and x.device == device
    np.testing.assert_array_equal(x.numpy(), a.astype(np.float32))


def test_asnumpy_get_array_module_fill(device, rng):
    a = random_array(rng, (3, 5), "int32")
    x = loom.asarray(a, device=device)
    got = loom.asnumpy(x)
    assert isinstance(got, np.ndarray)
    np.testing.assert_array_equal(got, a)
    np.testing.assert_array_equal(loom.asnumpy(a), a)  # NumPy arrays pass through, as CuPy's
    assert loom.get_array_module(x) is loom and loom.get_array_module(a) is np
    value = random_array(rng, (), "int32").item()
    x.fill(value)
    np.testing.assert_array_equal(x.numpy(), np.full((3, 5), value, np.int32))
