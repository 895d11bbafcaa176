"""numpy's insert, delete, resize, trim_zeros, choose, rollaxis and row_stack against NumPy on
fresh random data, on every device: every form of obj (integer, slice, index list, mask),
axes (None, negative), dtypes, non-contiguous inputs, 0-size and 0-d cases, and the errors
(typed, naming the op)."""
import warnings

import numpy as np
import pytest

import loom
from conftest import DTYPE_NAMES, NP_DTYPES, assert_matches, compare, random_array


def L(x, device):
    return loom.asarray(x, device=device)


DELETE_OBJS = [0, -1, 3, slice(1, 4), slice(None, None, 2), slice(None, None, -3), slice(5, 1, -1), slice(3, 3),
               [0, 2, 2, -1], [3], np.array([1]), [], "mask"]


@pytest.mark.parametrize("obj", DELETE_OBJS, ids=repr)
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_delete(device, rng, obj, axis):
    a = rng.standard_normal((5, 6))
    n = a.size if axis is None else a.shape[axis]
    if isinstance(obj, str):
        obj = rng.random(n) < 0.5
    compare(lambda xp, x: xp.delete(x, obj, axis=axis), a, device=device, exact=True)
    # A transposed (non-contiguous) input.
    n_t = a.size if axis is None else a.T.shape[axis]
    if isinstance(obj, np.ndarray) and obj.dtype == bool:
        obj = rng.random(n_t) < 0.5
    compare(lambda xp, x: xp.delete(x, obj, axis=axis), a.T, device=device, exact=True)


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_delete_dtypes_and_empty(device, rng, dtype):
    a = random_array(rng, (4, 3), NP_DTYPES[dtype])
    compare(lambda xp, x: xp.delete(x, [1, -1], axis=0), a, device=device, exact=True)
    compare(lambda xp, x: xp.delete(x, slice(0, 0), axis=1), np.zeros((0, 3), NP_DTYPES[dtype]), device=device)
    compare(lambda xp, x: xp.delete(x, 0), np.array(random_array(rng, (), NP_DTYPES[dtype])), device=device)


def test_delete_errors(device):
    a = L(np.arange(6.0).reshape(2, 3), device)
    with pytest.raises(IndexError, match=r"\[delete\] index 3 is out of bounds for axis 1 with size 3"):
        loom.delete(a, 3, axis=1)
    with pytest.raises(IndexError, match=r"\[delete\] index -7 is out of bounds for axis 0 with size 6"):
        loom.delete(a, [0, -7])
    with pytest.raises(ValueError, match=r"\[delete\] boolean array argument obj"):
        loom.delete(a, np.array([True, False]), axis=1)
    with pytest.raises(IndexError, match=r"\[delete\] arrays used as indices"):
        loom.delete(a, np.array([1.0]), axis=1)
    with pytest.raises(np.exceptions.AxisError, match=r"\[delete\]"):
        loom.delete(a, 0, axis=2)


INSERT_CASES = [  # (obj, shape of values along the inserted axis's other axes, values' own shape)
    (1, ()), (-1, ()), ("end", ()), (0, (1,)), (2, "row"), (2, "rows2"),
    (slice(1, 4), ()), (slice(None, None, 2), ()), ([3, 0, -1, 3], ()), ([1], "row"), ([1], "col"),
    ([1], ()), ([], ()), ("mask", ()), ([2, 0], "rows2t"),
]


def insert_values(rng, kind, a, axis):
    other = a.shape[1 - axis] if axis is not None else 1  # axis None: arr is 1-d
    if kind == ():
        return rng.standard_normal()
    if kind == (1,):
        return rng.standard_normal(1)
    if kind == "row":
        return rng.standard_normal(other)
    if kind == "col":
        return rng.standard_normal((other, 1)) if axis == 1 else rng.standard_normal((1, other))
    if kind == "rows2":
        return rng.standard_normal((2, other))
    return rng.standard_normal((other, 2)) if axis == 1 else rng.standard_normal((2, other))


@pytest.mark.parametrize("case", INSERT_CASES, ids=repr)
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_insert(device, rng, case, axis):
    obj, kind = case
    a = rng.integers(-50, 50, size=(4, 5))
    ax = None if axis is None else axis % 2
    n = a.size if axis is None else a.shape[axis]
    if obj == "end":
        obj = n
    elif obj == "mask":
        obj = rng.random(n) < 0.5
    values = insert_values(rng, kind, a, ax)
    compare(lambda xp, x, v: xp.insert(x, obj, v, axis=axis), a, np.asarray(values), device=device)
    compare(lambda xp, x, v: xp.insert(x, obj, v, axis=axis), a[:, ::-1].T.T, np.asarray(values), device=device)


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_insert_casts_to_arr_dtype(device, rng, dtype):
    a = random_array(rng, (3, 4), NP_DTYPES[dtype])
    v = rng.uniform(0, 1, size=4) * (1 if dtype == "bool" else 20)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy warns on float -> int casts of NaN-free data too
        compare(lambda xp, x, vals: xp.insert(x, 1, vals, axis=0), a, v, device=device, exact=True)
        compare(lambda xp, x, vals: xp.insert(x, [0, 4], vals[:2], axis=1), a, v, device=device, exact=True)
    compare(lambda xp, x: xp.insert(x, 0, 1), np.zeros((0, 2), NP_DTYPES[dtype]), device=device)


def test_insert_errors(device):
    a = L(np.arange(6.0).reshape(2, 3), device)
    with pytest.raises(IndexError, match=r"\[insert\] index 4 is out of bounds for axis 1 with size 3"):
        loom.insert(a, 4, 1.0, axis=1)
    with pytest.raises(IndexError, match=r"\[insert\] index 5 is out of bounds for axis 1 with size 3"):
        loom.insert(a, [0, 5], 1.0, axis=1)
    with pytest.raises(ValueError, match=r"\[insert\] index array argument obj"):
        loom.insert(a, [[0, 1]], 1.0, axis=1)
    with pytest.raises(ValueError, match=r"\[insert\].*broadcast"):
        loom.insert(a, [0, 1], np.ones((3, 3)), axis=1)
    with pytest.raises(IndexError, match=r"\[insert\] arrays used as indices"):
        loom.insert(a, np.array([0.0, 1.0]), 1.0, axis=1)
    with pytest.raises(np.exceptions.AxisError, match=r"\[insert\]"):
        loom.insert(a, 0, 1.0, axis=-3)


@pytest.mark.parametrize("new_shape", [7, (2, 5), (3, 0), (), (6,), (4, 3, 2)])
@pytest.mark.parametrize("dtype", ["bool", "int16", "float32", "complex64"])
def test_resize(device, rng, new_shape, dtype):
    a = random_array(rng, (2, 3), dtype) if dtype != "complex64" else (rng.standard_normal((2, 3)) * 1j).astype(dtype)
    compare(lambda xp, x: xp.resize(x, new_shape), a, device=device, exact=True)
    compare(lambda xp, x: xp.resize(x, new_shape), a.T, device=device, exact=True)
    compare(lambda xp, x: xp.resize(x, new_shape), np.zeros((0, 2), dtype), device=device)
    compare(lambda xp, x: xp.resize(x, new_shape), np.array(a[0, 0]), device=device)


def test_resize_is_a_new_array_and_errors(device):
    a = L(np.arange(6.0), device)
    r = loom.resize(a, (2, 3))
    r[0, 0] = 9
    assert a.numpy()[0] == 0
    with pytest.raises(ValueError, match=r"\[resize\] all elements of `new_shape` must be non-negative"):
        loom.resize(a, (2, -3))


def padded(rng, shape, dtype, lead=2, trail=3):
    """Random nonzero-holding data with zero borders of random widths on every axis."""
    inner = random_array(rng, shape, dtype)
    out = np.zeros(tuple(s + lead + trail for s in shape), dtype)
    out[tuple(slice(lead, lead + s) for s in shape)] = inner
    return out


@pytest.mark.parametrize("trim", ["fb", "f", "b", "BF"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint32", "float64"])
def test_trim_zeros_1d(device, rng, trim, dtype):
    x = padded(rng, (5,), dtype, lead=int(rng.integers(0, 4)), trail=int(rng.integers(0, 4)))
    compare(lambda xp, v: xp.trim_zeros(v, trim), x, device=device, exact=True)
    compare(lambda xp, v: xp.trim_zeros(v, trim), x[::-2], device=device, exact=True)
    compare(lambda xp, v: xp.trim_zeros(v, trim), np.zeros(4, dtype), device=device)
    compare(lambda xp, v: xp.trim_zeros(v, trim), np.zeros(0, dtype), device=device)


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1), ()])
@pytest.mark.parametrize("trim", ["fb", "f", "b"])
def test_trim_zeros_nd(device, rng, axis, trim):
    x = padded(rng, (3, 4), "float32", lead=int(rng.integers(0, 3)), trail=int(rng.integers(0, 3)))
    x[0, -1] = np.nan  # NaN is nonzero
    compare(lambda xp, v: xp.trim_zeros(v, trim, axis=axis), x, device=device, exact=True)
    compare(lambda xp, v: xp.trim_zeros(v, trim, axis=axis), x.T, device=device, exact=True)
    compare(lambda xp, v: xp.trim_zeros(v, trim, axis=axis), np.zeros((3, 2)), device=device)
    compare(lambda xp, v: xp.trim_zeros(v, trim, axis=axis), np.zeros((0, 2)), device=device)
    if axis != 1 and axis != ():  # a 3-d input, sliced, on the axes it has
        compare(lambda xp, v: xp.trim_zeros(v, trim, axis=axis), padded(rng, (2, 1, 3), "int64")[:, :, ::-1],
                device=device, exact=True)


def test_trim_zeros_0d_and_errors(device):
    x = L(np.array(0.0), device)
    r = loom.trim_zeros(x)  # nothing to trim: the input itself, as NumPy's
    r[()] = 5.0
    assert x.numpy() == 5.0
    with pytest.raises(ValueError, match=r"\[trim_zeros\] unexpected character"):
        loom.trim_zeros(L(np.array([0, 1]), device), "x")
    with pytest.raises(np.exceptions.AxisError, match=r"\[trim_zeros\]"):
        loom.trim_zeros(L(np.ones((2, 2)), device), axis=2)


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_choose(device, rng, mode):
    choices = [rng.standard_normal((3, 4)), rng.integers(-9, 9, (1, 4)).astype(np.int8), rng.standard_normal(4)]
    lo, hi = (0, 3) if mode == "raise" else (-7, 8)
    a = rng.integers(lo, hi, size=(3, 4))
    compare(lambda xp, i, c: xp.choose(i, c, mode=mode), a, choices, device=device, exact=True)
    compare(lambda xp, i, c: xp.choose(i, c, mode=mode), a.T.copy().T[:, ::-1], choices, device=device, exact=True)
    compare(lambda xp, i, c: xp.choose(i, c, mode=mode), a[:, :1].astype(np.uint8), choices, device=device, exact=True)
    compare(lambda xp, i, c: xp.choose(i, c, mode=mode), np.array(1), choices, device=device, exact=True)
    compare(lambda xp, i, c: xp.choose(i, c, mode=mode), np.array(a[0, 0] > 0), [np.array(2.5), np.array(1.0)],
            device=device, exact=True)
    compare(lambda xp, i, c: xp.choose(i, c, mode=mode), np.zeros((0, 4), np.int64), choices, device=device)
    # choices as one array: its rows.
    stacked = rng.integers(-5, 5, size=(3, 4))
    compare(lambda xp, i, c: xp.choose(i, c, mode=mode), a, stacked, device=device, exact=True)


def test_choose_out_and_errors(device, rng):
    a = rng.integers(0, 2, size=5)
    c = [rng.standard_normal(5), rng.standard_normal(5)]
    out = loom.empty((5,), dtype="float64", device=device)
    assert loom.choose(L(a, device), [L(x, device) for x in c], out=out) is out
    assert_matches(out, np.choose(a, c), device=device, exact=True)
    with pytest.raises(ValueError, match=r"\[choose\] invalid entry in choice array"):
        loom.choose(L(np.array([0, 2]), device), [L(x[:2], device) for x in c])
    with pytest.raises(ValueError, match=r"\[choose\] invalid entry in choice array"):
        loom.choose(L(np.array([-1, 0]), device), [L(x[:2], device) for x in c])
    with pytest.raises(TypeError, match=r"\[choose\]"):
        loom.choose(L(np.array([0.0]), device), [L(x[:1], device) for x in c])
    with pytest.raises(ValueError, match=r"\[choose\]"):
        loom.choose(L(np.array([0]), device), [])
    with pytest.raises(ValueError, match=r"\[choose\]"):
        loom.choose(L(np.array([0, 1, 0]), device), [L(x[:2], device) for x in c])


@pytest.mark.parametrize("axis,start", [(0, 0), (3, 0), (1, 3), (-1, 1), (2, 4), (0, -1), (-2, -4), (1, 2)])
def test_rollaxis(device, rng, axis, start):
    a = rng.standard_normal((2, 3, 4, 5))
    compare(lambda xp, x: xp.rollaxis(x, axis, start), a, device=device, exact=True)
    compare(lambda xp, x: xp.rollaxis(x, axis, start), a[:, ::-1, 1:], device=device, exact=True)


def test_rollaxis_is_a_view_and_errors(device):
    a = L(np.zeros((2, 3, 4)), device)
    r = loom.rollaxis(a, 2)
    r[1, 0, 2] = 5.0
    assert a.numpy()[0, 2, 1] == 5.0
    with pytest.raises(np.exceptions.AxisError, match=r"\[rollaxis\] 'start' arg requires -3 <= start < 4"):
        loom.rollaxis(a, 0, 4)
    with pytest.raises(np.exceptions.AxisError, match=r"\[rollaxis\]"):
        loom.rollaxis(a, 3)


def test_row_stack(device, rng):
    parts = [rng.standard_normal(4), rng.integers(-5, 5, (2, 4)), rng.standard_normal((1, 4)).astype(np.float32)]
    compare(lambda xp, p: xp.vstack(p) if xp is np else xp.row_stack(p), parts, device=device, exact=True)
    got = loom.row_stack([L(p, device) for p in parts], dtype="float32")
    assert_matches(got, np.vstack(parts, dtype=np.float32), device=device, exact=True)
    with pytest.raises(ValueError):
        loom.row_stack([L(np.ones(3), device), L(np.ones(4), device)])
