"""Property-based reductions (the `device` fixture is an immutable value, so sharing it
across hypothesis examples is safe): random shapes (0-d, empty, size-1 dims), axes, dtypes,
strided views (transposes, negative strides) and values with NaN/inf, against NumPy."""
import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import loom
from conftest import DTYPE_NAMES, NP_DTYPES, assert_matches, compare, random_array

shapes = st.lists(st.integers(0, 6), min_size=0, max_size=4).map(tuple)


@st.composite
def shape_and_axis(draw):
    shape = draw(shapes)
    nd = len(shape)
    kind = draw(st.sampled_from(["none", "int", "tuple"]))
    if kind == "none" or nd == 0:
        return shape, None
    if kind == "int":
        return shape, draw(st.integers(-nd, nd - 1))
    axes = draw(st.lists(st.integers(-nd, nd - 1), min_size=0, max_size=nd, unique_by=lambda a: a % nd))
    return shape, tuple(axes)


def _data(seed, shape, dtype, special):
    rng = np.random.default_rng(seed)
    if dtype in ("float16", "bfloat16", "float32", "float64"):
        x = rng.uniform(0.5, 2.0, size=shape).astype(NP_DTYPES[dtype])
        if special and x.size:
            flat = x.reshape(-1)
            flat[rng.integers(0, x.size)] = rng.choice([np.nan, np.inf, -np.inf])
        return x
    return random_array(rng, shape, NP_DTYPES[dtype], low=0, high=5)


SUM_RTOL = {"float16": 2e-2, "bfloat16": 5e-2, "float32": 1e-5, "float64": 1e-12}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sa=shape_and_axis(), dtype=st.sampled_from(DTYPE_NAMES), keepdims=st.booleans(),
       fn=st.sampled_from(["sum", "prod", "mean", "min", "max", "any", "all", "var", "std"]),
       special=st.booleans(), transpose=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_reductions_property(device, sa, dtype, keepdims, fn, special, transpose, seed):
    shape, axis = sa
    x = _data(seed, shape, dtype, special)
    if fn == "prod" and dtype in ("float16", "bfloat16", "float32", "float64"):
        x = (x ** 0.01).astype(x.dtype)  # keep products in range
    rtol = SUM_RTOL.get(dtype)
    if dtype in ("float16", "bfloat16") and fn in ("sum", "prod", "mean", "var", "std"):
        # NumPy rounds ml_dtypes' bfloat16 (and float16 var) at every step; loom accumulates
        # in float32, so the reference is the float64 result rounded to the dtype.
        with np.errstate(all="ignore"):
            want = np.asarray(getattr(np, fn)(x.T if transpose else x, axis=axis, keepdims=keepdims,
                                              dtype=np.float64)).astype(x.dtype)
        a = loom.asarray(x, device=device)
        got = getattr(loom, fn)(a.T if transpose else a, axis=axis, keepdims=keepdims)
        assert_matches(got, want, device=device, rtol=2e-2)
        return
    compare(lambda xp, a: getattr(xp, fn)(a.T if transpose else a,  # a.T: a strided loom view
                                          axis=axis, keepdims=keepdims),
            x, device=device, rtol=rtol)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=shapes, dtype=st.sampled_from(DTYPE_NAMES), fn=st.sampled_from(["argmin", "argmax"]),
       keepdims=st.booleans(), special=st.booleans(), data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_arg_property(device, shape, dtype, fn, keepdims, special, data, seed):
    x = _data(seed, shape, dtype, special)
    nd = len(shape)
    axis = data.draw(st.one_of(st.none(), st.integers(-nd, nd - 1))) if nd else None
    compare(lambda xp, a: getattr(xp, fn)(a, axis=axis, keepdims=keepdims), x, device=device)
    if nd >= 2:
        compare(lambda xp, a: getattr(xp, fn)(a.T, axis=axis), x, device=device)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=shapes, dtype=st.sampled_from(DTYPE_NAMES), fn=st.sampled_from(["cumsum", "cumprod"]),
       data=st.data(), seed=st.integers(0, 2**32 - 1), step=st.sampled_from([1, -1, 2]))
def test_scan_property(device, shape, dtype, fn, data, seed, step):
    x = _data(seed, shape, dtype, False)
    if x.ndim:
        x = x[::step]  # negative-stride and strided NumPy inputs (asarray copies them)
    nd = x.ndim
    axis = data.draw(st.one_of(st.none(), st.integers(-nd, nd - 1))) if nd else None
    if fn == "cumprod" and x.dtype.kind == "f":
        x = (x ** 0.01).astype(x.dtype)
    if dtype in ("float16", "bfloat16"):
        # NumPy rounds every partial result to 16 bits; loom accumulates in float32, so the
        # reference is the float64 scan rounded once.
        want64 = getattr(np, fn)(x.astype(np.float64), axis=axis)
        want = want64.astype(x.dtype)
        got = getattr(loom, fn)(loom.asarray(x, device=device), axis=axis)
        rtol = SUM_RTOL.get(dtype)
        # Within rtol of the type's largest value the rounded reference may overflow where the
        # float32 accumulation does not (or the other way): there either answer is right.
        edge = np.abs(want64) > float(ml_dtypes.finfo(x.dtype).max) * (1 - rtol)
        if edge.any():
            g = np.asarray(got).astype(np.float64)
            assert (np.isinf(g[edge]) | (np.abs(g[edge]) > float(ml_dtypes.finfo(x.dtype).max) * (1 - 2 * rtol))).all()
            want = np.where(edge, np.asarray(got), want)
        assert_matches(got, want, device=device, rtol=rtol)
        return
    compare(lambda xp, a: getattr(xp, fn)(a, axis=axis), x, device=device, rtol=SUM_RTOL.get(dtype))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.lists(st.integers(0, 5), min_size=1, max_size=3).map(tuple),
       ord=st.sampled_from([None, 1, 2, np.inf, -np.inf, 0, 3]), seed=st.integers(0, 2**32 - 1),
       dtype=st.sampled_from(["float32", "float64", "int16"]))
def test_norm_property(device, shape, ord, seed, dtype):
    x = random_array(np.random.default_rng(seed), shape, NP_DTYPES[dtype], low=-4, high=4)
    compare(lambda xp, a: xp.linalg.norm(a, ord, axis=-1), x, device=device,
            rtol=1e-5 if dtype == "float32" else 1e-12)
