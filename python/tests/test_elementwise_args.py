"""Elementwise ops' arguments: NEP 50 weak scalars, broadcasting, out= (strided views,
same_kind casting), where=, operators and in-place operators, bad input; hypothesis over
shapes (0-d, empty, broadcast, transposed and negative-stride views) and values."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import loom
from conftest import DTYPE_NAMES, NP_DTYPES, assert_matches, compare, random_array

NUMERIC = [d for d in DTYPE_NAMES if d != "bfloat16"]
SCALARS = [True, 3, -3, 300, 1.5, -0.0, 2**40, float("nan")]


@pytest.mark.parametrize("dtype", NUMERIC)
@pytest.mark.parametrize("scalar", SCALARS, ids=repr)
def test_weak_scalar_promotion(device, rng, dtype, scalar):
    x = random_array(rng, (5,), NP_DTYPES[dtype], 1, 20)
    with np.errstate(all="ignore"):
        compare(lambda m, a: m.add(a, scalar), x, device=device)
        compare(lambda m, a: scalar * a, x, device=device)
        compare(lambda m, a: a < scalar, x, device=device)  # comparisons never overflow
        compare(lambda m, a: m.maximum(scalar, a), x, device=device)


def test_weak_scalar_overflow_error(device):
    x = loom.asarray(np.array([1, 2], np.uint8), device=device)
    with pytest.raises(OverflowError):
        x + 300
    with pytest.raises(OverflowError):
        x - (-1)
    assert_matches(x == 300, np.array([False, False]))
    assert_matches(x > -1, np.array([True, True]))


@pytest.mark.parametrize("op", ["__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__",
                                "__pow__", "__and__", "__or__", "__xor__", "__lshift__", "__rshift__",
                                "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"])
def test_operators_and_reflected(device, rng, op):
    x = random_array(rng, (3, 4), np.int32, 1, 9)
    y = random_array(rng, (4,), np.int32, 1, 9)
    compare(lambda m, a, b: getattr(a, op)(b), x, y, device=device)
    compare(lambda m, a: getattr(a, op)(3), x, device=device)
    rop = op.replace("__", "__r", 1) if op[2:-2] not in ("eq", "ne", "lt", "le", "gt", "ge") else None
    if rop:
        compare(lambda m, a: getattr(a, rop)(2), x, device=device)


def test_reflected_scalar_expressions(device, rng):
    x = random_array(rng, (6,), np.float32, 1, 5)
    compare(lambda m, a: 2 - a, x, device=device)
    compare(lambda m, a: 1.5 / a, x, device=device)
    compare(lambda m, a: 2 ** a, x, device=device)
    compare(lambda m, a: -a + abs(a) - (+a), x, device=device)
    xi = random_array(rng, (6,), np.int16)
    compare(lambda m, a: ~a, xi, device=device)
    compare(lambda m, a: 7 // (a | 1), xi, device=device)


@pytest.mark.parametrize("op", ["__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__", "__imod__",
                                "__ipow__", "__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__"])
def test_inplace_operators(device, rng, op):
    x = random_array(rng, (3, 4), np.int64, 1, 9)
    y = random_array(rng, (4,), np.int64, 1, 4)
    a = loom.asarray(x, device=device)
    b = loom.asarray(y, device=device)
    want = x.copy()
    try:
        getattr(want, op)(y)
    except TypeError:
        with pytest.raises(TypeError):
            getattr(a, op)(b)
        return
    r = getattr(a, op)(b)
    assert r is a
    assert_matches(a, want)


def test_inplace_keeps_dtype_and_same_kind_error(device):
    x = loom.asarray(np.array([1, 2, 3], np.int8), device=device)
    x += 1
    assert x.dtype == loom.int8
    assert_matches(x, np.array([2, 3, 4], np.int8))
    with pytest.raises(TypeError):
        x += 1.5
    f = loom.asarray(np.array([1.0, 2.0], np.float32), device=device)
    f *= 2  # a Python int with float32 stays float32
    assert_matches(f, np.array([2.0, 4.0], np.float32))


def test_out_and_where(device, rng):
    x = random_array(rng, (4, 5), np.float32)
    y = random_array(rng, (5,), np.float32)
    mask = random_array(rng, (4, 5), np.bool_)
    base = random_array(rng, (4, 5), np.float64)

    def fn(m, a, b, mk, o):
        out = o.copy() if m is np else m.asarray(np.asarray(o), device=device)
        r = m.add(a, b, out=out, where=mk)
        assert r is out
        return out
    compare(fn, x, y, mask, base, device=device)
    # out= of a larger broadcast shape, and a transposed (strided) out=.
    o = loom.zeros((3, 4, 5), dtype=loom.float64, device=device)
    loom.multiply(loom.asarray(x, device=device), 2, out=o)
    assert_matches(o, np.broadcast_to(x * np.float32(2), (3, 4, 5)).astype(np.float64))
    t = loom.zeros((5, 4), dtype=loom.float32, device=device)
    loom.subtract(loom.asarray(x.T, device=device), 1, out=t.T.T)
    ot = loom.zeros((5, 4), dtype=loom.float32, device=device).T
    loom.sin(loom.asarray(x, device=device), out=ot)
    assert_matches(ot, np.sin(x), rtol=1e-5)


def test_dtype_argument(device, rng):
    x = random_array(rng, (6,), np.int8, -5, 5)
    compare(lambda m, a: m.add(a, a, dtype=m.float32), x, device=device)
    compare(lambda m, a: m.sqrt(a, dtype=m.float64), x, device=device)
    with pytest.raises(TypeError):
        loom.add(loom.asarray(np.ones(2), device=device), 1, dtype=loom.int32)


def test_bad_inputs(device):
    a = loom.asarray(np.ones((2, 3), np.float32), device=device)
    b = loom.asarray(np.ones((4,), np.float32), device=device)
    with pytest.raises(ValueError, match=r"\[add\]"):
        a + b
    with pytest.raises(TypeError, match=r"\[bitwise_and\]"):
        a & a
    with pytest.raises(TypeError):
        loom.left_shift(a, 1)
    with pytest.raises(TypeError):
        loom.negative(loom.asarray(np.array([True]), device=device))
    with pytest.raises(ValueError):
        loom.add(a, a, out=loom.zeros((3,), device=device))
    with pytest.raises(TypeError):
        loom.add(a, a, out=loom.zeros((2, 3), dtype=loom.int32, device=device))
    with pytest.raises(TypeError):
        loom.add(a, a, where=loom.asarray(np.ones((2, 3)), device=device))
    assert a.__add__("text") is NotImplemented
    with pytest.raises(TypeError):
        a + "text"


@pytest.mark.gpu
def test_device_mismatch(gpu):
    a = loom.ones((3,), device=loom.cpu())
    b = loom.ones((3,), device=gpu)
    with pytest.raises(loom.DeviceMismatchError, match=r"\[add\]"):
        a + b
    with pytest.raises(loom.DeviceMismatchError):
        loom.add(b, b, out=loom.zeros((3,), device=loom.cpu()))


def test_size_one_conversions(device):
    a = loom.asarray(np.array([2.5]), device=device)
    assert float(a) == 2.5 and int(a) == 2 and bool(a)
    assert int(loom.asarray(np.array(7), device=device).__index__()) == 7


def test_copyto_strided_destination(device, rng):
    x = random_array(rng, (4, 6), np.float64)
    d = loom.zeros((6, 4), dtype=loom.int32, device=device).T
    loom.copyto(d, loom.asarray(x, device=device), casting="unsafe")  # NumPy's same_kind refuses it
    assert_matches(d, x.astype(np.int32))
    with pytest.raises(TypeError, match="same_kind"):
        loom.copyto(d, loom.asarray(x, device=device))


# ---- hypothesis ------------------------------------------------------------------------

def _view(arr, kind):
    """A strided NumPy view of arr: transposed or negative-stride (kept on host)."""
    if kind == "T":
        return np.ascontiguousarray(arr.T).T
    if kind == "rev" and arr.ndim:
        return np.ascontiguousarray(arr[::-1])[::-1]
    return arr


shapes = st.lists(st.integers(0, 4), min_size=0, max_size=4).map(tuple)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=shapes, bdims=st.integers(0, 2), op=st.sampled_from(["add", "multiply", "maximum", "fmin",
                                                                   "arctan2", "less", "copysign", "floor_divide"]),
       dtype=st.sampled_from(["float32", "float64", "int32", "uint8", "float16"]),
       kinds=st.tuples(st.sampled_from(["c", "T", "rev"]), st.sampled_from(["c", "T", "rev"])),
       seed=st.integers(0, 2**32 - 1))
def test_hypothesis_binary_shapes(device, shape, bdims, op, dtype, kinds, seed):
    rng = np.random.default_rng(seed)
    x = random_array(rng, shape, NP_DTYPES[dtype])
    y = random_array(rng, shape[bdims:], NP_DTYPES[dtype])  # broadcasts against x
    if dtype.startswith("float") and x.size:
        x.reshape(-1)[0] = np.nan
    xv, yv = _view(x, kinds[0]), _view(y, kinds[1])
    with np.errstate(all="ignore"):
        want = getattr(np, op)(xv, yv)
    if loom.cpu() == device:
        lx, ly = loom.asarray(xv, device=device), loom.asarray(yv, device=device)
    else:  # strided device views via .T of a transposed copy
        lx = loom.asarray(np.ascontiguousarray(xv.T), device=device).T if kinds[0] == "T" else loom.asarray(xv, device=device)
        ly = loom.asarray(yv, device=device)
    got = getattr(loom, op)(lx, ly)
    rtol = {"float16": 1e-3, "float32": 1e-6, "float64": 1e-12}.get(want.dtype.name)
    assert_matches(got, want, rtol=rtol * 8 if (rtol and op == "arctan2") else rtol)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=shapes, op=st.sampled_from(["sqrt", "exp", "log1p", "floor", "rint", "isfinite", "sign", "absolute",
                                         "negative", "square"]),
       dtype=st.sampled_from(["float32", "float64", "int16", "int8"]), seed=st.integers(0, 2**32 - 1))
def test_hypothesis_unary_shapes(device, shape, op, dtype, seed):
    rng = np.random.default_rng(seed)
    x = random_array(rng, shape, NP_DTYPES[dtype])
    if dtype.startswith("float") and x.size > 2:
        x.reshape(-1)[:3] = [np.inf, -0.0, np.nan]
    with np.errstate(all="ignore"):
        want = getattr(np, op)(x)
    got = getattr(loom, op)(loom.asarray(x, device=device).T.T)
    assert_matches(got, want, rtol=None if want.dtype.kind != "f" else 8e-6 if want.dtype == np.float32 else 1e-3 if want.dtype == np.float16 else 1e-13)


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
def test_ufunc_casting_rules(device, rng, casting):
    """casting= as NumPy's ufuncs take it: dtype= and the inputs' casts to the loop by the
    rule ('no' and 'equiv' refuse promotion's casts too), the result to out= by the rule;
    the same results, or a TypeError where NumPy raises its own (a TypeError), on fresh
    random data."""
    names = ["bool", "int8", "uint8", "int16", "int32", "float32", "float64", "complex64"]
    for _ in range(40):
        a, b, d = (names[i] for i in rng.integers(0, len(names), 3))
        x, y = random_array(rng, (2, 3), a, 0, 5), random_array(rng, (2, 3), b, 1, 5)
        compare(lambda xp, u, v: xp.add(u, v, dtype=d, casting=casting), x, y, device=device, exact=True,
                raises=TypeError)
        compare(lambda xp, u, v: xp.multiply(u, v, out=xp.zeros((2, 3), dtype=d), casting=casting), x, y,
                device=device, exact=True, raises=TypeError)
        compare(lambda xp, u: xp.negative(u, dtype=d, casting=casting), x, device=device, exact=True,
                raises=TypeError)
    with pytest.raises(ValueError, match="casting must be one of"):
        loom.add(loom.ones(2, device=device), 1, casting="sideways")
