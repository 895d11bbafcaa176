"""numpy's nansum, nanprod, nanmean, nanvar, nanstd, nanmax, nanmin, nanargmax, nanargmin,
diff, ptp, average, meshgrid and indices against NumPy on fresh random data, on every
device: axes (None, negative, tuples), keepdims, NaNs (some, whole slices), integer, complex
and bool inputs, and the errors."""
import warnings

import numpy as np
import pytest

import loom


def L(x, device):
    return loom.asarray(x, device=device)


def with_nans(rng, shape, dtype="float64"):
    x = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal(shape)
    x = x.astype(dtype)
    x[rng.random(shape) < 0.2] = np.nan
    x[1, 2] = np.nan  # one whole slice along the last axis
    return x


def np_quiet(fn, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return fn(*a, **k)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2)])
def test_nan_sums_means_and_spreads(device, rng, dtype, axis):
    x = with_nans(rng, (3, 4, 5), dtype)
    x[1, 2, :] = np.nan
    tol = 1e-5 if dtype == "float32" else 1e-12
    for name in ("nansum", "nanprod", "nanmean"):
        for keepdims in (False, True):
            got = getattr(loom, name)(L(x, device), axis=axis, keepdims=keepdims)
            want = np_quiet(getattr(np, name), x, axis=axis, keepdims=keepdims)
            assert got.dtype == want.dtype, name
            np.testing.assert_allclose(got.numpy(), want, rtol=tol, atol=tol)
    for name in ("nanvar", "nanstd"):
        for ddof in (0, 1):
            got = getattr(loom, name)(L(x, device), axis=axis, ddof=ddof)
            want = np_quiet(getattr(np, name), x, axis=axis, ddof=ddof)
            assert got.dtype == want.dtype, name
            np.testing.assert_allclose(got.numpy(), want, rtol=tol * 10, atol=tol * 10)


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_nan_extrema_and_args(device, rng, axis):
    x = with_nans(rng, (4, 6))
    for name in ("nanmax", "nanmin"):
        np.testing.assert_array_equal(getattr(loom, name)(L(x, device), axis=axis).numpy(),
                                      np_quiet(getattr(np, name), x, axis=axis))
    y = x.copy()
    # No all-NaN slice along either axis (NumPy raises there): a number in each row and
    # in each column that the random NaNs happened to cover.
    y[1, 2] = 5.0
    y[np.isnan(y).all(axis=1), 0] = 4.0
    y[2, np.isnan(y).all(axis=0)] = -3.0
    for name in ("nanargmax", "nanargmin"):
        np.testing.assert_array_equal(getattr(loom, name)(L(y, device), axis=axis).numpy(),
                                      getattr(np, name)(y, axis=axis))
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        loom.nanargmax(L(np.full((2, 3), np.nan), device), axis=1)


def test_nan_reductions_of_integers_reduce_plainly(device, rng):
    x = rng.integers(-9, 9, size=(3, 5))
    for name in ("nansum", "nanmean", "nanmax", "nanvar"):
        got = getattr(loom, name)(L(x, device), axis=1)
        want = getattr(np, name)(x, axis=1)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    np.testing.assert_array_equal(loom.nanargmin(L(x, device)).numpy(), np.nanargmin(x))


@pytest.mark.parametrize("n,axis", [(1, -1), (2, 0), (3, 1), (0, 0), (9, -1)])
def test_diff(device, rng, n, axis):
    x = rng.standard_normal((4, 5))
    np.testing.assert_allclose(loom.diff(L(x, device), n=n, axis=axis).numpy(), np.diff(x, n=n, axis=axis),
                               rtol=1e-12, atol=1e-12)
    b = rng.random((4, 5)) > 0.5
    np.testing.assert_array_equal(loom.diff(L(b, device), axis=axis).numpy(), np.diff(b, axis=axis))
    got = loom.diff(L(x, device), axis=axis, prepend=0.5, append=L(x[:1] if axis == 0 else x[:, :1], device))
    want = np.diff(x, axis=axis, prepend=0.5, append=x[:1] if axis == 0 else x[:, :1])
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)


def test_diff_errors(device):
    with pytest.raises(ValueError, match="order must be non-negative"):
        loom.diff(L(np.arange(3.0), device), n=-1)
    with pytest.raises(ValueError, match="at least one dimensional"):
        loom.diff(L(np.array(1.0), device))


@pytest.mark.parametrize("axis", [None, 0, (0, 1)])
def test_ptp(device, rng, axis):
    x = rng.integers(-20, 20, size=(3, 4, 2)).astype(np.int32)
    np.testing.assert_array_equal(loom.ptp(L(x, device), axis=axis).numpy(), np.ptp(x, axis=axis))


def test_average(device, rng):
    a = rng.standard_normal((3, 4))
    w = rng.random((3, 4))
    np.testing.assert_allclose(loom.average(L(a, device)).numpy(), np.average(a), rtol=1e-12)
    np.testing.assert_allclose(loom.average(L(a, device), weights=L(w, device)).numpy(), np.average(a, weights=w),
                               rtol=1e-12)
    w1 = rng.random(4)
    avg, scl = loom.average(L(a, device), axis=1, weights=L(w1, device), returned=True)
    wavg, wscl = np.average(a, axis=1, weights=w1, returned=True)
    np.testing.assert_allclose(avg.numpy(), wavg, rtol=1e-12)
    np.testing.assert_allclose(scl.numpy(), wscl, rtol=1e-12)
    ai = rng.integers(0, 9, size=(3, 4))
    got = loom.average(L(ai, device), axis=0, weights=L(rng.integers(1, 3, size=3), device))
    assert got.dtype == np.float64
    with pytest.raises(ZeroDivisionError):
        loom.average(L(a, device), axis=1, weights=L(np.zeros(4), device))
    with pytest.raises(ValueError, match="axis must be specified"):
        loom.average(L(a, device), weights=L(w1, device))


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
def test_meshgrid(device, rng, indexing, sparse):
    xs = [rng.standard_normal(3), rng.standard_normal(4), rng.standard_normal(2)]
    for k in (0, 1, 2, 3):
        got = loom.meshgrid(*[L(x, device) for x in xs[:k]], indexing=indexing, sparse=sparse)
        want = np.meshgrid(*xs[:k], indexing=indexing, sparse=sparse)
        assert type(got) is type(want) is tuple and len(got) == len(want)  # NumPy 2, CuPy, Array API 2025.12
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.numpy(), w)
    with pytest.raises(ValueError, match="indexing"):
        loom.meshgrid(L(xs[0], device), indexing="xx")


def test_indices(device):
    np.testing.assert_array_equal(loom.indices((2, 3), device=device).numpy(), np.indices((2, 3)))
    for g, w in zip(loom.indices((2, 3, 4), sparse=True, device=device), np.indices((2, 3, 4), sparse=True)):
        np.testing.assert_array_equal(g.numpy(), w)
    assert loom.indices((2, 2), dtype=loom.int32, device=device).dtype == np.int32
