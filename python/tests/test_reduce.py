"""Reductions vs NumPy: sum prod mean var std min max argmin argmax any all over every
dtype, axes (None, ints, negative, tuples), keepdims, dtype=, ddof, NaN/inf, empty and
0-d inputs, strided views, out= and errors."""
import ml_dtypes
import numpy as np
import pytest

import loom
from conftest import DTYPE_NAMES, NP_DTYPES, RTOL, compare, random_array

FLOATS = ["float16", "bfloat16", "float32", "float64"]
# Looser tolerances for results that went through many roundings (sums of 16-bit floats).
SUM_RTOL = {"float16": 2e-2, "bfloat16": 5e-2, "float32": 1e-4, "float64": 1e-10}

AXES = [None, 0, 1, -1, -2, (0, 2), (2, 0), (0, 1, 2), ()]


def _pos(rng, shape, dtype):
    """Values away from cancellation: sums of them compare with a relative tolerance."""
    if np.dtype(NP_DTYPES[dtype]).kind == "f" or dtype == "bfloat16":
        return rng.uniform(0.5, 2.0, size=shape).astype(NP_DTYPES[dtype])
    return random_array(rng, shape, NP_DTYPES[dtype], low=0, high=4)


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_sum_prod_mean_all_dtypes(device, rng, dtype, axis, keepdims):
    x = _pos(rng, (3, 4, 5), dtype)
    rtol = SUM_RTOL.get(dtype)
    compare(lambda xp, a: xp.sum(a, axis=axis, keepdims=keepdims), x, device=device, rtol=rtol)
    compare(lambda xp, a: a.sum(axis=axis, keepdims=keepdims), x, device=device, rtol=rtol)
    small = random_array(rng, (3, 4, 5), NP_DTYPES[dtype], low=0, high=3) if dtype not in FLOATS else \
        rng.uniform(0.8, 1.25, size=(3, 4, 5)).astype(NP_DTYPES[dtype])
    compare(lambda xp, a: xp.prod(a, axis=axis, keepdims=keepdims), small, device=device, rtol=rtol)
    compare(lambda xp, a: xp.mean(a, axis=axis, keepdims=keepdims), x, device=device, rtol=rtol)


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2)])
def test_min_max_any_all_all_dtypes(device, rng, dtype, axis):
    x = random_array(rng, (4, 3, 6), NP_DTYPES[dtype])
    for name in ["min", "max", "amin", "amax", "any", "all"]:
        compare(lambda xp, a: getattr(xp, name)(a, axis=axis), x, device=device, exact=True)
    compare(lambda xp, a: a.max(axis=axis, keepdims=True), x, device=device, exact=True)
    compare(lambda xp, a: a.all(axis=axis, keepdims=True), x, device=device)


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_argmin_argmax_first_occurrence(device, rng, dtype, axis):
    # Few distinct values: ties everywhere, the first occurrence must win.
    x = random_array(rng, (5, 7, 3), NP_DTYPES[dtype], low=0, high=3) if dtype not in FLOATS else \
        rng.integers(0, 3, size=(5, 7, 3)).astype(NP_DTYPES[dtype])
    compare(lambda xp, a: xp.argmin(a, axis=axis), x, device=device)
    compare(lambda xp, a: xp.argmax(a, axis=axis), x, device=device)
    compare(lambda xp, a: a.argmax(axis=axis, keepdims=True), x, device=device)


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
@pytest.mark.parametrize("ddof", [0, 1])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 1)])
def test_var_std(device, rng, dtype, ddof, axis):
    lim = 5 if dtype == "float16" else 50  # NumPy's float16 sum of squares overflows sooner
    x = random_array(rng, (6, 5, 4), NP_DTYPES[dtype], low=-lim, high=lim)
    # NumPy computes float16 variance in float16 steps; loom in float32 (more accurate).
    rtol = {"float16": 2e-2, "bfloat16": 5e-2}.get(dtype, 1e-6 if dtype != "float64" else 1e-10)
    compare(lambda xp, a: xp.var(a, axis=axis, ddof=ddof), x, device=device, rtol=rtol)
    compare(lambda xp, a: a.std(axis=axis, ddof=ddof, keepdims=True), x, device=device, rtol=rtol)


def test_var_is_two_pass_accurate(device, rng):
    # A large offset breaks the one-pass formula E[x^2] - E[x]^2 in float32.
    x = (1e4 + rng.standard_normal(10000)).astype(np.float32)
    got = loom.var(loom.asarray(x, device=device)).item()
    ref = np.var(x.astype(np.float64))
    assert abs(got - ref) / ref < 1e-3


@pytest.mark.parametrize("dtype,result", [("int8", "float32"), ("float32", "float64"), ("float64", "float32"),
                                          ("int32", "int8"), ("uint8", "uint16"), ("bool", "bool"),
                                          ("float16", "float32"), ("int16", "float16")])
def test_dtype_argument(device, rng, dtype, result):
    x = random_array(rng, (4, 9), NP_DTYPES[dtype], low=0, high=30)
    rd = NP_DTYPES[result]
    compare(lambda xp, a: xp.sum(a, axis=1, dtype=rd), x, device=device, rtol=1e-2)
    compare(lambda xp, a: xp.prod(a, axis=0, dtype=rd), x, device=device, rtol=1e-2)
    if np.dtype(rd).kind == "f":
        compare(lambda xp, a: xp.mean(a, axis=0, dtype=rd), x, device=device, rtol=1e-2)
        compare(lambda xp, a: xp.var(a, dtype=rd), x, device=device, rtol=1e-2)


def test_integer_sums_wrap_like_numpy(device, rng):
    x = random_array(rng, (50, 30), np.int8)
    compare(lambda xp, a: xp.sum(a, axis=0, dtype=xp.int8), x, device=device)
    compare(lambda xp, a: xp.prod(a, axis=1), x, device=device)  # int64 wraparound
    u = random_array(rng, (40,), np.uint64)
    compare(lambda xp, a: xp.sum(a), u, device=device)


def test_result_dtypes(device):
    for name in DTYPE_NAMES:
        x = np.ones((2, 3), NP_DTYPES[name])
        for fn in ["sum", "prod", "mean", "var", "std", "min", "max", "argmin", "argmax", "any", "all"]:
            compare(lambda xp, a: getattr(xp, fn)(a), x, device=device)


@pytest.mark.parametrize("dtype", FLOATS)
def test_nan_and_inf(device, rng, dtype):
    x = rng.uniform(0.5, 2.0, size=(6, 40)).astype(NP_DTYPES[dtype])  # sums without cancellation
    x[1, 5] = np.nan
    x[1, 9] = np.nan
    x[2, 3] = np.inf
    x[3, 7] = -np.inf
    x[4, :] = np.nan
    for axis in [None, 0, 1]:
        for fn in ["min", "max", "argmin", "argmax", "sum", "mean", "any", "all"]:
            compare(lambda xp, a: getattr(xp, fn)(a, axis=axis), x, device=device, rtol=SUM_RTOL[dtype])


def test_nan_in_long_rows(device, rng):
    # NaN inside the vectorized blocks and the parallel chunks of long rows.
    x = rng.standard_normal(300_000).astype(np.float32)
    x[123_457] = np.nan
    for fn in ["min", "max", "argmin", "argmax"]:
        compare(lambda xp, a: getattr(xp, fn)(a), x, device=device)
    y = rng.standard_normal((3, 100_000)).astype(np.float64)
    y[1, 77_777] = np.nan
    for fn in ["min", "max", "argmax"]:
        compare(lambda xp, a: getattr(xp, fn)(a, axis=1), y, device=device)
        compare(lambda xp, a: getattr(xp, fn)(a.T, axis=0), y, device=device)


def test_empty(device):
    e = np.zeros((0, 3), np.float32)
    for axis in [None, 0, 1]:
        compare(lambda xp, a: xp.sum(a, axis=axis), e, device=device)
        compare(lambda xp, a: xp.prod(a, axis=axis), e, device=device)
        compare(lambda xp, a: xp.any(a, axis=axis), e, device=device)
        compare(lambda xp, a: xp.all(a, axis=axis), e, device=device)
        compare(lambda xp, a: xp.max(a, axis=axis), e, device=device)  # ValueError except axis=1
        compare(lambda xp, a: xp.argmin(a, axis=axis), e, device=device)
    with pytest.warns(RuntimeWarning):
        r = loom.mean(loom.asarray(e, device=device))
    assert np.isnan(r.item())
    with pytest.warns(RuntimeWarning):
        assert np.isnan(loom.var(loom.asarray(e, device=device), axis=0).numpy()).all()
    compare(lambda xp, a: xp.argmax(a, axis=0), np.zeros((3, 0)), device=device)


def test_zero_d(device):
    x = np.array(3.5, np.float32)
    for fn in ["sum", "prod", "mean", "min", "max", "argmin", "argmax", "any", "all", "var"]:
        compare(lambda xp, a: getattr(xp, fn)(a), x, device=device)
    compare(lambda xp, a: xp.sum(a, axis=()), x, device=device)
    compare(lambda xp, a: xp.sum(a, axis=0), x, device=device)  # AxisError
    compare(lambda xp, a: xp.sum(a, axis=(), keepdims=True), x, device=device)


def test_full_reduction_is_a_0d_array(device):
    r = loom.sum(loom.asarray(np.arange(10, dtype=np.int32), device=device))
    assert isinstance(r, loom.ndarray) and r.shape == () and r.device == device
    assert r.item() == 45


@pytest.mark.parametrize("fn", ["sum", "mean", "min", "max", "var", "argmax", "prod", "any"])
def test_non_contiguous_views(device, rng, fn):
    x = rng.uniform(0.5, 1.5, size=(5, 6, 7)).astype(np.float32)
    compare(lambda xp, a: getattr(xp, fn)(a.T, axis=0), x, device=device, rtol=1e-5)
    compare(lambda xp, a: getattr(xp, fn)(a.T, axis=1), x, device=device, rtol=1e-5)
    compare(lambda xp, a: getattr(xp, fn)(a.T), x, device=device, rtol=1e-5)
    compare(lambda xp, a: getattr(xp, fn)(a.T, axis=-1), x, device=device, rtol=1e-5)
    if fn not in ("argmax",):
        compare(lambda xp, a: getattr(xp, fn)(a.T, axis=(0, 2)), x, device=device, rtol=1e-5)
    # NumPy non-contiguous and negative-stride inputs (copied by asarray)
    compare(lambda xp, a: getattr(xp, fn)(a, axis=1), x[:, ::-2, 1:], device=device, rtol=1e-5)


def test_axis_errors(device, rng):
    x = rng.standard_normal((3, 4)).astype(np.float32)
    compare(lambda xp, a: xp.sum(a, axis=2), x, device=device)
    compare(lambda xp, a: xp.sum(a, axis=-3), x, device=device)
    compare(lambda xp, a: xp.sum(a, axis=(0, 0)), x, device=device)
    compare(lambda xp, a: xp.max(a, axis=(1, -1)), x, device=device)
    compare(lambda xp, a: xp.argmax(a, axis=5), x, device=device)
    with pytest.raises(TypeError):
        loom.argmax(loom.asarray(x, device=device), axis=(0, 1))
    with pytest.raises(loom.AxisError if hasattr(loom, "AxisError") else IndexError):
        loom.mean(loom.asarray(x, device=device), axis=3)


def test_out(device, rng):
    x = rng.uniform(1, 2, size=(4, 5)).astype(np.float32)
    a = loom.asarray(x, device=device)
    out = loom.empty((5,), dtype=loom.float64, device=device)
    r = loom.sum(a, axis=0, out=out)
    assert r is out or r.shape == out.shape
    np.testing.assert_allclose(out.numpy(), x.astype(np.float64).sum(0), rtol=1e-6)
    o2 = loom.empty((4,), dtype=loom.int64, device=device)
    loom.argmax(a, axis=1, out=o2)
    np.testing.assert_array_equal(o2.numpy(), x.argmax(1))
    with pytest.raises(ValueError):
        loom.max(a, axis=0, out=loom.empty((4,), dtype=loom.float32, device=device))
    o3 = loom.empty((4, 5), dtype=loom.float32, device=device)
    loom.cumsum(a, axis=1, out=o3)
    np.testing.assert_allclose(o3.numpy(), np.cumsum(x, axis=1), rtol=1e-6)


def test_accepts_numpy_and_lists():
    assert loom.sum([1, 2, 3]).item() == 6
    assert loom.max(np.array([1.5, -2.0])).item() == 1.5


@pytest.mark.parametrize("n", [1, 17, 1000, 4099, 100_003, 1_000_003])
def test_float32_sum_accuracy_vs_numpy(device, rng, n):
    # As accurate as NumPy's pairwise summation or better (against a float64 reference).
    x = rng.uniform(0, 1, size=n).astype(np.float32)
    ref = np.sum(x.astype(np.float64))
    np_err = abs(float(np.sum(x)) - ref)
    got = loom.sum(loom.asarray(x, device=device)).item()
    # Both errors are random draws of one distribution (n = 1000 on cpu(), 20,000 draws: median
    # 0.36 ulp each, largest 1.98 ulp loom's, 2.00 NumPy's): beside one draw of NumPy's error,
    # loom's own needs 2.5 ulp of room (one ulp failed 1 run in 1,200). A sequential float32
    # sum errs by about ten ulp from n = 1000 on, so that still fails here.
    assert abs(got - ref) <= 2 * np_err + 2.5 * np.spacing(np.float32(ref))


def test_float32_sum_accuracy_long(device, rng):
    x = rng.uniform(0, 1, size=1 << 24).astype(np.float32)
    ref = np.sum(x.astype(np.float64))
    np_err = abs(float(np.sum(x)) - ref)
    got = loom.sum(loom.asarray(x, device=device)).item()
    assert abs(got - ref) <= 1.5 * np_err + np.spacing(np.float32(ref)), (got, ref, np_err)
    # And along the outer axis of a tall matrix, where NumPy adds rows one at a time.
    y = x.reshape(1 << 14, 1 << 10)
    ref_cols = y.astype(np.float64).sum(0)
    err = np.abs(loom.sum(loom.asarray(y, device=device), axis=0).numpy() - ref_cols).max()
    assert err <= np.abs(y.sum(0) - ref_cols).max() + 1e-3


@pytest.mark.parametrize("shape,axis", [((1000, 3), 0), ((3, 100_000), 1), ((7, 5000, 3), 1), ((2, 70_000), None),
                                        ((200_000, 2), 0), ((40, 50, 60), (0, 2))])
def test_large_shapes(device, rng, shape, axis):
    x = rng.uniform(-1, 1, size=shape)
    compare(lambda xp, a: xp.sum(a, axis=axis), x, device=device, rtol=1e-9)
    compare(lambda xp, a: xp.max(a, axis=axis), x, device=device)
    compare(lambda xp, a: xp.std(a, axis=axis), x, device=device, rtol=1e-9)
    i = rng.integers(-5, 5, size=shape).astype(np.int32)
    compare(lambda xp, a: xp.sum(a, axis=axis), i, device=device)
    compare(lambda xp, a: xp.argmin(a, axis=axis if not isinstance(axis, tuple) else None), i, device=device)
