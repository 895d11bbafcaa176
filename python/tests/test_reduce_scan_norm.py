"""cumsum/cumprod and loom.linalg.norm vs NumPy."""
import numpy as np
import pytest

import loom
from conftest import DTYPE_NAMES, NP_DTYPES, RTOL, compare, random_array

FLOATS = ["float16", "bfloat16", "float32", "float64"]


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_cumsum_cumprod_all_dtypes(device, rng, dtype, axis):
    if dtype in FLOATS:
        x = rng.uniform(0.9, 1.1, size=(4, 6, 5)).astype(NP_DTYPES[dtype])
    else:
        x = random_array(rng, (4, 6, 5), NP_DTYPES[dtype], low=0, high=3)
    if dtype in ("float16", "bfloat16"):
        # NumPy rounds half-float running sums and products at every step, so they drift;
        # loom accumulates in float32 and rounds once: compare with exactly that.
        for op in ("cumsum", "cumprod"):
            want = getattr(np, op)(x.astype(np.float32), axis=axis).astype(x.dtype)
            got = getattr(loom.asarray(x, device=device), op)(axis=axis).numpy()
            np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32), rtol=RTOL[dtype])
        return
    rtol = {"float32": 1e-5}.get(dtype)
    compare(lambda xp, a: xp.cumsum(a, axis=axis), x, device=device, rtol=rtol)
    compare(lambda xp, a: a.cumprod(axis=axis), x, device=device, rtol=rtol)


@pytest.mark.parametrize("n", [1, 5, 1023, 1025, 70_000, 300_001])
def test_cumsum_long_rows(device, rng, n):
    x = rng.integers(-100, 100, size=n).astype(np.int32)
    compare(lambda xp, a: xp.cumsum(a), x, device=device)
    f = rng.uniform(0, 1, size=n)
    compare(lambda xp, a: xp.cumsum(a), f, device=device, rtol=1e-9)
    m = rng.integers(-3, 3, size=(3, n)).astype(np.int64)
    compare(lambda xp, a: xp.cumsum(a, axis=1), m, device=device)
    compare(lambda xp, a: xp.cumsum(a.T, axis=0), m, device=device)


def test_cumsum_dtype_out_errors(device, rng):
    x = random_array(rng, (5, 4), np.int8)
    compare(lambda xp, a: xp.cumsum(a, axis=0, dtype=xp.int8), x, device=device)
    compare(lambda xp, a: xp.cumsum(a, dtype=np.float32), x, device=device)
    compare(lambda xp, a: xp.cumprod(a, axis=1, dtype=np.float64), x, device=device)
    compare(lambda xp, a: xp.cumsum(a, axis=2), x, device=device)
    compare(lambda xp, a: xp.cumsum(a, axis=-3), x, device=device)
    compare(lambda xp, a: xp.cumsum(a), np.zeros((0, 3), np.float32), device=device)
    compare(lambda xp, a: xp.cumsum(a, axis=1), np.zeros((2, 0), np.int16), device=device)
    compare(lambda xp, a: xp.cumsum(a), np.array(2.5), device=device)
    compare(lambda xp, a: xp.cumprod(a, axis=0), np.array(7, np.int32), device=device)


def test_cumsum_nan_inf(device):
    x = np.array([1.0, np.nan, 2.0, np.inf, -np.inf], np.float32)
    compare(lambda xp, a: xp.cumsum(a), x, device=device)
    compare(lambda xp, a: xp.cumprod(a), x, device=device)


VECTOR_ORDS = [None, 2, 1, np.inf, -np.inf, 0, 3, 0.5, -1, -2]


@pytest.mark.parametrize("ord", VECTOR_ORDS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int32", "bfloat16", "bool"])
def test_vector_norms(device, rng, ord, dtype):
    x = random_array(rng, (7,), NP_DTYPES[dtype], low=-5, high=5)
    x2 = random_array(rng, (3, 8), NP_DTYPES[dtype], low=-5, high=5)
    rtol = {"float16": 5e-3, "float32": 1e-5}.get(dtype, 1e-9)
    if dtype == "bool" and ord is not None and ord < 0:
        x = np.ones_like(x)
        x2 = np.ones_like(x2)
    if dtype == "float16" and ord is not None and ord < 0:
        # |x|**ord of a tiny float16 overflows to inf in NumPy's float16 arithmetic (norm 0),
        # while loom accumulates in float32: keep the values away from zero.
        x, x2 = np.abs(x) + 0.5, np.abs(x2) + 0.5
    compare(lambda xp, a: xp.linalg.norm(a, ord), x, device=device, rtol=rtol)
    compare(lambda xp, a: xp.linalg.norm(a, ord, axis=1), x2, device=device, rtol=rtol)
    compare(lambda xp, a: xp.linalg.norm(a, ord, axis=0, keepdims=True), x2, device=device, rtol=rtol)


@pytest.mark.parametrize("ord", [None, "fro", 1, -1, np.inf, -np.inf])
def test_matrix_norms(device, rng, ord):
    x = rng.standard_normal((4, 6))
    compare(lambda xp, a: xp.linalg.norm(a, ord), x, device=device, rtol=1e-12)
    compare(lambda xp, a: xp.linalg.norm(a, ord, keepdims=True), x, device=device, rtol=1e-12)
    x3 = rng.standard_normal((2, 3, 5)).astype(np.float32)
    for axis in [(0, 1), (2, 0), (-1, -2), (1, 2)]:
        compare(lambda xp, a: xp.linalg.norm(a, ord, axis=axis), x3, device=device, rtol=1e-5)
        compare(lambda xp, a: xp.linalg.norm(a, ord, axis=axis, keepdims=True), x3, device=device, rtol=1e-5)


def test_norm_errors_and_special_cases(device, rng):
    x = rng.standard_normal((3, 4))
    # Matrix ord 2, -2 and 'nuc' go through the singular values (test_linalg_decomp.py checks
    # them on every device).
    compare(lambda xp, a: xp.linalg.norm(a, 3), x, device=device)  # invalid matrix order
    compare(lambda xp, a: xp.linalg.norm(a, "fro", axis=1), x, device=device)  # invalid vector order
    compare(lambda xp, a: xp.linalg.norm(a, axis=(0, 0)), x, device=device)
    compare(lambda xp, a: xp.linalg.norm(a, axis=(0, 1, 1)), x, device=device)
    compare(lambda xp, a: xp.linalg.norm(a, 1), rng.standard_normal((2, 3, 4)), device=device)
    compare(lambda xp, a: xp.linalg.norm(a), rng.standard_normal((2, 3, 4)), device=device, rtol=1e-12)
    compare(lambda xp, a: xp.linalg.norm(a, axis=2), x, device=device)
    compare(lambda xp, a: xp.linalg.norm(a), np.array(-3.0), device=device)
    for ord in [None, 1, np.inf, 0]:
        compare(lambda xp, a: xp.linalg.norm(a, ord), np.zeros((0,)), device=device)
    compare(lambda xp, a: xp.linalg.norm(a, -np.inf), np.zeros((0,)), device=device)
    compare(lambda xp, a: xp.linalg.norm(a, 1), np.zeros((0, 3)), device=device)
    compare(lambda xp, a: xp.linalg.norm(a, np.inf), np.zeros((0, 3)), device=device)
    v = np.array([3.0, np.nan, -4.0])
    for ord in [None, 1, np.inf, -np.inf]:
        compare(lambda xp, a: xp.linalg.norm(a, ord), v, device=device)


def test_linalg_is_a_submodule():
    import loom.linalg as la

    assert la.norm is loom.linalg.norm
    assert "singular values" in loom.linalg.norm.__doc__


def test_reductions_and_scans_return_out_itself(device, rng):
    """np.sum(a, axis, out=o) is o: every reduction and scan gives back out= when given."""
    a = loom.asarray(rng.standard_normal((4, 5)), device=device)
    row = loom.zeros(5, device=device)
    for name in ("sum", "prod", "mean", "var", "std", "max", "min", "nansum", "nanmax"):
        assert getattr(loom, name)(a, 0, out=row) is row, name
    assert a.sum(0, out=row) is row and a.max(0, out=row) is row
    idx = loom.zeros(5, dtype=loom.int64, device=device)
    assert loom.argmax(a, 0, out=idx) is idx and a.argmin(0, out=idx) is idx
    full = loom.zeros((4, 5), device=device)
    assert loom.cumsum(a, 1, out=full) is full and a.cumprod(0, out=full) is full
    np.testing.assert_allclose(full.numpy(), np.cumprod(a.numpy(), 0), rtol=1e-12)
