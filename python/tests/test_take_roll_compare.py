"""numpy's take, take_along_axis, put_along_axis, roll, isclose, allclose, array_equal and
array_equiv against NumPy on fresh random data, on every device: axes (None, negative),
modes, broadcasting, non-contiguous views, 0-size and 0-d cases, dtypes, and the errors."""
import numpy as np
import pytest

import loom
from conftest import compare


def L(x, device):
    return loom.asarray(x, device=device)


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_take(device, rng, axis):
    a = rng.standard_normal((4, 5, 6))
    n = a.size if axis is None else a.shape[axis]
    idx = rng.integers(-n, n, size=(2, 3))
    np.testing.assert_array_equal(loom.take(L(a, device), L(idx, device), axis=axis).numpy(), np.take(a, idx, axis=axis))
    wild = rng.integers(-3 * n, 3 * n, size=7)
    for mode in ("wrap", "clip"):
        np.testing.assert_array_equal(loom.take(L(a, device), L(wild, device), axis=axis, mode=mode).numpy(),
                                      np.take(a, wild, axis=axis, mode=mode))
    np.testing.assert_array_equal(loom.take(L(a, device)[:, ::2], 1, axis=axis).numpy(),
                                  np.take(a[:, ::2], 1, axis=axis))
    out = loom.empty(idx.shape if axis is None else np.take(a, idx, axis=axis).shape, dtype="float64", device=device)
    assert loom.take(L(a, device), L(idx, device), axis=axis, out=out) is out
    np.testing.assert_array_equal(out.numpy(), np.take(a, idx, axis=axis))


def test_take_errors(device):
    a = L(np.arange(6.0), device)
    with pytest.raises(IndexError):
        loom.take(a, L(np.array([6]), device))
    with pytest.raises(TypeError):
        loom.take(a, L(np.array([1.0]), device))
    with pytest.raises(ValueError, match="clipmode"):
        loom.take(a, L(np.array([1]), device), mode="bad")


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_take_and_put_along_axis(device, rng, axis):
    a = rng.standard_normal((3, 4, 5))
    if axis is None:
        idx = np.argsort(a, axis=None)[:7]
    else:
        idx = np.argsort(a, axis=axis)
    got = loom.take_along_axis(L(a, device), L(idx, device), axis=axis)
    np.testing.assert_array_equal(got.numpy(), np.take_along_axis(a, idx, axis=axis))
    if axis is not None:
        first = np.take(idx, [0], axis=axis)  # size 1 along axis: broadcasts against the others
        np.testing.assert_array_equal(loom.take_along_axis(L(a, device), L(first, device), axis=axis).numpy(),
                                      np.take_along_axis(a, first, axis=axis))
        b, lb = a.copy(), L(a, device)
        loom.put_along_axis(lb, L(first, device), L(np.zeros(first.shape), device), axis=axis)
        np.put_along_axis(b, first, 0.0, axis=axis)
        np.testing.assert_array_equal(lb.numpy(), b)
    with pytest.raises(ValueError, match="same number of dimensions"):
        loom.take_along_axis(L(a, device), L(np.zeros((3, 4), np.int64), device), axis=0)


@pytest.mark.parametrize("shift,axis", [(2, None), (-3, None), (1, 0), (7, 1), (-2, -1), ((1, 2), (0, 1)),
                                        ((1, -1), (1, 1)), (3, (0, 2)), (0, 1)])
def test_roll(device, rng, shift, axis):
    a = rng.integers(-50, 50, size=(3, 4, 5)).astype(np.int32)
    got = loom.roll(L(a, device), shift, axis=axis)
    np.testing.assert_array_equal(got.numpy(), np.roll(a, shift, axis=axis))
    np.testing.assert_array_equal(loom.roll(L(a, device)[:, ::-1], shift, axis=axis).numpy(),
                                  np.roll(a[:, ::-1], shift, axis=axis))


@pytest.mark.parametrize("shift,axis", [(2, None), (-3, 1), ((1, 2), (0, 1))])
def test_roll_takes_shifts_as_arrays(device, rng, shift, axis):
    """A 0-d or 1-d integer array (loom's or NumPy's) is a shift as NumPy reads it; more
    dimensions are refused as NumPy refuses them."""
    a = rng.integers(-50, 50, size=(3, 4, 5))
    want = np.roll(a, shift, axis=axis)
    for s in (np.array(shift), L(np.array(shift), device)):
        np.testing.assert_array_equal(loom.roll(L(a, device), s, axis=axis).numpy(), want)
    with pytest.raises(ValueError, match="1D sequences"):
        loom.roll(L(a, device), L(np.ones((2, 1), np.int64), device), axis=(0, 1))


def test_roll_returns_a_new_array_and_handles_empty(device):
    a = L(np.arange(4.0), device)
    r = loom.roll(a, 4)
    r[0] = 9
    assert a.numpy()[0] == 0
    assert loom.roll(L(np.zeros((0, 3)), device), 2, axis=0).shape == (0, 3)
    with pytest.raises(ValueError):
        loom.roll(a, (1, 2), axis=(0, 0, 0))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int64"])
def test_isclose_allclose(device, rng, dtype):
    b = rng.standard_normal((4, 6)).astype(dtype) if dtype != "int64" else rng.integers(-9, 9, (4, 6))
    a = b + (rng.standard_normal(b.shape) * 1e-6 if dtype != "int64" else rng.integers(0, 2, b.shape))
    a = a.astype(b.dtype)
    a.flat[3] = b.flat[3] + 1
    for kw in ({}, dict(rtol=1e-3), dict(atol=0.5), dict(rtol=0, atol=0)):
        np.testing.assert_array_equal(loom.isclose(L(a, device), L(b, device), **kw).numpy(), np.isclose(a, b, **kw))
        assert loom.allclose(L(a, device), L(b, device), **kw) == np.allclose(a, b, **kw)
    assert loom.allclose(L(b, device), L(b, device)) is True


def test_isclose_special_values(device):
    a = np.array([np.inf, -np.inf, np.nan, 1.0, np.inf, 0.0])
    b = np.array([np.inf, np.inf, np.nan, np.nan, 1e308, 1e-9])
    for equal_nan in (False, True):
        np.testing.assert_array_equal(loom.isclose(L(a, device), L(b, device), equal_nan=equal_nan).numpy(),
                                      np.isclose(a, b, equal_nan=equal_nan))
    np.testing.assert_array_equal(loom.isclose(L(a, device), 1.0).numpy(), np.isclose(a, 1.0))


def test_array_equal_and_equiv(device, rng):
    a = rng.standard_normal((3, 4))
    assert loom.array_equal(L(a, device), L(a.copy(), device)) is True
    assert loom.array_equal(L(a, device), L(a[:2], device)) is False
    b = a.copy()
    b[1, 1] = np.nan
    assert loom.array_equal(L(b, device), L(b, device)) is False
    assert loom.array_equal(L(b, device), L(b, device), equal_nan=True) is True
    assert loom.array_equiv(L(a[:1], device), L(np.repeat(a[:1], 3, 0), device)) is True
    assert loom.array_equiv(L(a, device), L(a[:, :2], device)) is False


def test_take_put_compress_methods(device, rng):
    """x.take, x.put and x.compress as NumPy's ndarray methods, against NumPy's."""
    a = rng.standard_normal((3, 4))
    idx = rng.integers(-12, 12, 5)
    for kw in ({}, {"axis": 1, "mode": "clip"}, {"mode": "wrap"}):
        compare(lambda xp, x: x.take(idx if "axis" not in kw else idx % 4, **kw), a, device=device)
    out = loom.zeros(5, device=device)
    assert L(a, device).take(idx % 12, out=out) is out
    np.testing.assert_array_equal(out.numpy(), a.take(idx % 12))
    b, lb = a.copy(), L(a.copy(), device)
    b.put([0, 7, -1], [9.0, 8.0])
    lb.put([0, 7, -1], L(np.array([9.0, 8.0]), device))
    np.testing.assert_array_equal(lb.numpy(), b)
    cond = np.array([True, False, True])
    compare(lambda xp, x: x.compress(cond, axis=0), a, device=device)
    compare(lambda xp, x: x.compress([False, True, True, False, True]), a, device=device)
