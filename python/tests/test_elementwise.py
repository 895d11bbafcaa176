"""Elementwise ufuncs against NumPy: every op x every dtype on every device, with NaN,
inf, -0.0 and zero divisors; NumPy 2 result dtypes; errors as NumPy raises them."""
import math

import ml_dtypes
import numpy as np
import pytest

import loom
from conftest import DTYPE_NAMES, NP_DTYPES, RTOL, assert_matches, compare, random_array

BF16 = np.dtype(ml_dtypes.bfloat16)

# Every ufunc loom binds, aliases included, from the op table (loom/graph/op_table.h): an op
# added there is tested here without an edit. clip and where (the table's `custom` rows) have
# their own tests below.
UFUNCS = [(name, arity) for name, arity, api, *_ in loom._loom._elementwise_op_table() if api in ("ufunc", "alias")]
UNARY = [name for name, arity in UFUNCS if arity == 1]
BINARY = [name for name, arity in UFUNCS if arity == 2]
# Ops computed by libm/CUDA math functions: a few ulps apart between implementations.
TRANSCENDENTAL = set("sqrt cbrt exp exp2 expm1 log log2 log10 log1p sin cos tan arcsin arccos arctan sinh "
                     "cosh tanh arcsinh arccosh arctanh arctan2 hypot power erf divide true_divide".split())


def np_op(name):
    if name == "erf":
        return np.vectorize(math.erf, otypes=[np.float64])
    return getattr(np, name)


def with_specials(rng, arr):
    """Float arrays get NaN, +-inf and -0.0 sprinkled in; others stay as they are."""
    if arr.dtype.kind != "f" and arr.dtype != BF16:
        return arr
    out = arr.copy()
    flat = out.reshape(-1)
    for v in (np.nan, np.inf, -np.inf, -0.0, 0.0):
        if flat.size > 8:
            flat[rng.integers(flat.size)] = v
    return out


def reference(name, *xs):
    """NumPy's answer; bfloat16 computes in float32 and rounds (what loom does too)."""
    with np.errstate(all="ignore"):
        if any(x.dtype == BF16 for x in xs if isinstance(x, np.ndarray)):
            ys = [x.astype(np.float32) if isinstance(x, np.ndarray) and x.dtype == BF16 else x for x in xs]
            r = np_op(name)(*ys)
            return r.astype(BF16) if r.dtype.kind == "f" else r
        r = np_op(name)(*xs)
        if name == "erf":
            r = r.astype(np.result_type(np.sin(xs[0][:0])))
        return r


def tol(name, dtype):
    base = RTOL.get(np.dtype(dtype).name if dtype != BF16 else "bfloat16")
    if base is None:
        return None
    return base * (8 if name in TRANSCENDENTAL else 1)


# Loops loom leaves out, where it raises TypeError instead: nextafter in a 16-bit float
# (its loop computes in float, whose ulp is not the dtype's).
MISSING_LOOPS = {"nextafter": {"float16", "bfloat16"}}


def check(name, inputs, device, rtol=None):
    try:
        want = reference(name, *inputs)
        if want.dtype.name in MISSING_LOOPS.get(name, ()) or (want.dtype == BF16 and "bfloat16" in MISSING_LOOPS.get(name, ())):
            raise TypeError(f"loom has no {want.dtype} loop for {name}")
    except Exception as e:  # noqa: BLE001 - loom must raise the same type
        want_type = next(t for t in type(e).__mro__ if t.__module__ == "builtins")
        with pytest.raises(want_type):
            getattr(loom, name)(*[loom.asarray(x, device=device) for x in inputs])
        return
    got = getattr(loom, name)(*[loom.asarray(x, device=device) for x in inputs])
    assert got.device == device
    assert got.dtype.name == (want.dtype.name if want.dtype != BF16 else "bfloat16"), (got.dtype, want.dtype)
    assert_matches(got, want, rtol=rtol if rtol is not None else tol(name, want.dtype))


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
@pytest.mark.parametrize("name", UNARY)
def test_unary_every_dtype(device, rng, name, dtype):
    x = with_specials(rng, random_array(rng, (7, 9), NP_DTYPES[dtype]))
    check(name, [x], device)


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
@pytest.mark.parametrize("name", BINARY)
def test_binary_every_dtype(device, rng, name, dtype):
    dt = NP_DTYPES[dtype]
    x = with_specials(rng, random_array(rng, (5, 8), dt))
    y = with_specials(rng, random_array(rng, (5, 8), dt))
    if dt.kind in "iu":
        if name in ("left_shift", "right_shift"):
            y = random_array(rng, (5, 8), dt, 0, dt.itemsize * 8 + 3)
        elif name == "power":
            y = random_array(rng, (5, 8), dt, 0, 9)
        else:
            y.reshape(-1)[::5] = 0  # integer division/modulo by zero gives 0, as NumPy
    check(name, [x, y], device)


@pytest.mark.parametrize("name", ["add", "multiply", "divide", "less", "maximum", "floor_divide", "arctan2"])
def test_mixed_dtype_promotion(device, rng, name):
    for a in DTYPE_NAMES:
        for b in DTYPE_NAMES:
            if "bfloat16" in (a, b) and a != b:
                continue  # NumPy has no promotion rules for ml_dtypes.bfloat16 with others
            x = random_array(rng, (6,), NP_DTYPES[a], 1, 50)
            y = random_array(rng, (6,), NP_DTYPES[b], 1, 50)
            check(name, [x, y], device)


def test_integer_division_edges(device):
    for dt in ("int8", "int16", "int32", "int64"):
        info = np.iinfo(dt)
        x = np.array([info.min, info.min, -7, 7, -7, 7, 0, 5], dt)
        y = np.array([-1, 0, 2, -2, -2, 2, 0, 0], dt)
        for name in ("floor_divide", "remainder"):
            check(name, [x, y], device)
    check("reciprocal", [np.array([0, 1, -1, 2, -2], np.int32)], device)
    check("reciprocal", [np.array([0, 1, 2], np.uint8)], device)


def test_float_division_edges(device):
    x = np.array([7.0, -7.0, 7.0, 0.0, -0.0, np.inf, 1.0, -1.0, -1e-300, np.nan])
    y = np.array([0.0, 2.0, -2.0, 0.0, 3.0, 1.0, np.inf, np.inf, np.inf, 1.0])
    for name in ("floor_divide", "remainder", "divide"):
        check(name, [x, y], device, rtol=0)
        check(name, [x.astype(np.float32), y.astype(np.float32)], device, rtol=0)


def test_power_negative_integer_exponent(device):
    x = loom.asarray(np.array([2, 3], np.int64), device=device)
    with pytest.raises(ValueError):
        loom.power(x, loom.asarray(np.array([1, -1]), device=device))
    with pytest.raises(ValueError):
        x ** -1
    assert_matches(x ** 2, np.array([4, 9]))
    assert_matches(loom.power(x, 0.5), np.power(np.array([2, 3]), 0.5))


def test_nan_propagation(device):
    x = np.array([np.nan, 1.0, np.nan, -np.inf, 2.0])
    y = np.array([1.0, np.nan, np.nan, 3.0, -0.0])
    for name in ("maximum", "minimum", "fmax", "fmin"):
        check(name, [x, y], device, rtol=0)


@pytest.mark.parametrize("decimals", [-2, -1, 0, 1, 3])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int32", "int64", "uint8", "bool"])
def test_round(device, rng, dtype, decimals):
    x = random_array(rng, (20,), NP_DTYPES[dtype])
    if dtype.startswith("float"):
        x[:4] = [2.5, 3.5, -0.5, 1.25]
    compare(lambda m, a: m.round(a, decimals), x, device=device, raises=TypeError)
    compare(lambda m, a: m.around(a, decimals), x, device=device, raises=TypeError)
    if dtype != "bool":
        compare(lambda m, a: a.round(decimals), x, device=device)


def test_round_builtin(device):
    x = loom.asarray(np.array([0.5, 1.5, 2.567]), device=device)
    assert_matches(round(x, 1), np.round(np.array([0.5, 1.5, 2.567]), 1))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "float16", "float32", "float64"])
def test_clip(device, rng, dtype):
    x = with_specials(rng, random_array(rng, (4, 5), NP_DTYPES[dtype]))
    compare(lambda m, a: m.clip(a, 1, 5), x, device=device)
    compare(lambda m, a: m.clip(a, None, 3), x, device=device)
    compare(lambda m, a: m.clip(a, -2, None), x, device=device)
    compare(lambda m, a: a.clip(1, 5), x, device=device)
    lo = random_array(rng, (5,), NP_DTYPES[dtype])
    compare(lambda m, a, b: m.clip(a, b, 100), x, lo, device=device)
    if dtype.startswith("float"):
        compare(lambda m, a: m.clip(a, np.nan, 1.0), x, device=device)
    if dtype == "uint8":  # NumPy 2 accepts out-of-range Python int bounds in clip
        compare(lambda m, a: m.clip(a, -1, 300), x, device=device)


def test_where(device, rng):
    c = random_array(rng, (3, 4), np.bool_)
    x = random_array(rng, (3, 4), np.int8)
    y = random_array(rng, (4,), np.float32)
    compare(lambda m, c, x, y: m.where(c, x, y), c, x, y, device=device)
    compare(lambda m, c, x: m.where(c, x, 5), c, x, device=device)
    compare(lambda m, c: m.where(c, 1, 2.5), c, device=device)
    cf = random_array(rng, (3, 4), np.float32)  # a non-bool condition is cast to bool
    compare(lambda m, c, x: m.where(c, x, -x), cf, x, device=device)
    # condition alone: nonzero(condition); one of x and y alone: NumPy's ValueError
    compare(lambda m, c: m.where(c), cf, device=device)
    compare(lambda m, c: m.where(c), c[0], device=device)
    compare(lambda m, c, x: m.where(c, x), c, x, device=device)


def test_erf_values(device):
    x = np.array([-3.0, -0.5, 0.0, 0.25, 1.0, 5.0, np.inf, np.nan])
    got = loom.erf(loom.asarray(x, device=device))
    want = np.array([math.erf(v) for v in x])
    assert_matches(got, want)
    assert loom.erf(loom.asarray(np.array([1, 2], np.int8), device=device)).dtype == loom.float16


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float16", "float32", "float64"])
def test_power_of_two_is_square(device, rng, dtype):
    # NumPy computes x ** 2 as x * x: the same bits and dtypes, for int and float exponents.
    x = random_array(rng, (33,), NP_DTYPES[dtype], low=-100, high=100)
    compare(lambda xp, a: a ** 2, x, device=device, exact=True)
    compare(lambda xp, a: xp.power(a, 2.0), x, device=device, exact=True)
    compare(lambda xp, a: xp.power(a, 2, dtype=xp.float64), x, device=device, exact=True)
