"""x.flat (numpy.flatiter), x.partition / x.argpartition and partition(axis=None)
(python/loom/_numpy/flat_partition.py), compared with NumPy on fresh random data."""
import numpy as np
import pytest

import loom
from conftest import compare, random_array

INDICES = [Ellipsis, 0, 10, -1, slice(None), slice(None, 10), slice(None, None, 2), slice(None, None, -1),
           slice(10, None, -2)]


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("index", INDICES)
def test_flat_getitem(device, rng, index, order):
    a = np.asarray(random_array(rng, (2, 3, 4), "float32"), order=order)
    compare(lambda xp, x: xp.asarray(x.flat[index]), a, device=device, exact=True)


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("index", INDICES)
@pytest.mark.parametrize("value", ["scalar", (3,), (2, 3)])
def test_flat_setitem_writes_through_and_repeats(device, rng, index, order, value):
    a = np.asarray(random_array(rng, (2, 3, 4), "int32"), order=order)
    v = 7 if value == "scalar" else random_array(rng, value, "float64", -9, 9)
    if value != "scalar" and not isinstance(index, slice) and index is not Ellipsis:
        pytest.skip("an integer index takes a scalar")

    def run(xp, x, val):
        if order == "F" and xp is loom:
            x = loom.asfortranarray(x)
        x.flat[index] = val
        return x
    compare(run, a, v, device=device, exact=True)


def test_flat_len_iter_copy_base(device, rng):
    a = random_array(rng, (3, 4), "float64")
    x = loom.asarray(a, device=device)
    it = x.flat
    assert it.base is x and len(it) == 12 and len(x[::2].flat) == 8 and iter(it) is it
    first = next(it)
    assert float(first) == a.flat[0] and it.index == 1
    np.testing.assert_array_equal([float(v) for v in x.flat], a.ravel())
    np.testing.assert_array_equal(it.copy().numpy(), a.ravel())
    for bad in (None, (0,), True, [0], loom.asarray(np.array([0]), device=device)):
        with pytest.raises(IndexError):
            x.flat[bad]


@pytest.mark.parametrize("axis", [-1, 0, None])
@pytest.mark.parametrize("kth", [2, (1, 3)])
def test_partition_function_and_methods(device, rng, axis, kth):
    a = random_array(rng, (5, 6), "float64")
    want = np.partition(a, kth, axis=axis)
    got = loom.partition(loom.asarray(a, device=device), kth, axis=axis).numpy()
    kths = (kth,) if isinstance(kth, int) else kth
    for k in kths:  # the kth elements are in place; the rest are only on the right side
        np.testing.assert_array_equal(np.take(got, k, axis=-1 if axis is None else axis),
                                      np.take(want, k, axis=-1 if axis is None else axis))
    ix = loom.argpartition(loom.asarray(a, device=device), kth, axis=axis).numpy()
    flat = a.ravel() if axis is None else a
    picked = np.take_along_axis(flat, ix, axis=-1 if axis is None else axis)
    np.testing.assert_array_equal(np.sort(picked, axis=-1 if axis is None else axis),
                                  np.sort(flat, axis=-1 if axis is None else axis))
    if axis is not None:
        x = loom.asarray(a.copy(), device=device)
        assert x.partition(kth, axis=axis) is None
        np.testing.assert_array_equal(np.sort(x.numpy(), axis=axis), np.sort(a, axis=axis))
        y = loom.asarray(a, device=device)
        np.testing.assert_array_equal(y.argpartition(kth, axis=axis).numpy(), ix)


def test_partition_of_0d_raises_axis_error(device, rng):
    a = random_array(rng, (), "float32")
    compare(lambda xp, x: xp.partition(x, 0), a, device=device)
    compare(lambda xp, x: x.partition(0), a, device=device)
