"""numpy's quantile, percentile and median against NumPy on fresh random data, on every
device: scalar and array q, every method, axes (None, one, several), keepdims, NaNs, integer
inputs, even and odd counts, and the errors."""
import numpy as np
import pytest

import loom


def L(x, device):
    return loom.asarray(x, device=device)


@pytest.mark.parametrize("method", ["linear", "lower", "higher", "nearest", "midpoint"])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2)])
def test_quantile_and_percentile(device, rng, method, axis):
    x = rng.standard_normal((4, 5, 3))
    for q in (0.0, 0.3, 0.5, 1.0, [0.1, 0.25, 0.9], [[0.2], [0.75]]):
        for keepdims in (False, True):
            got = loom.quantile(L(x, device), q, axis=axis, method=method, keepdims=keepdims)
            want = np.quantile(x, q, axis=axis, method=method, keepdims=keepdims)
            assert got.shape == want.shape and got.dtype == want.dtype
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-14)
    got = loom.percentile(L(x, device), [10, 50, 95], axis=axis, method=method)
    np.testing.assert_allclose(got.numpy(), np.percentile(x, [10, 50, 95], axis=axis, method=method), rtol=1e-12)


def test_quantile_dtypes_nans_and_errors(device, rng):
    xi = rng.integers(-50, 50, size=(6, 7))
    for method in ("linear", "lower", "nearest"):
        got = loom.quantile(L(xi, device), 0.4, axis=1, method=method)
        want = np.quantile(xi, 0.4, axis=1, method=method)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    x32 = rng.standard_normal((5, 8)).astype(np.float32)
    assert loom.quantile(L(x32, device), 0.5, axis=0).dtype == np.float32
    xn = rng.standard_normal((3, 4))
    xn[1, 2] = np.nan
    np.testing.assert_array_equal(np.isnan(loom.quantile(L(xn, device), 0.5, axis=1).numpy()),
                                  np.isnan(np.quantile(xn, 0.5, axis=1)))
    with pytest.raises(ValueError, match="range"):
        loom.quantile(L(xn, device), 1.5)
    with pytest.raises(ValueError, match="range"):
        loom.percentile(L(xn, device), -1)
    with pytest.raises(ValueError, match="not a valid method"):
        loom.quantile(L(xn, device), 0.5, method="bad")


@pytest.mark.parametrize("shape,axis", [((7,), None), ((6,), None), ((4, 6), 1), ((4, 5), 0), ((2, 3, 4), (0, 2))])
def test_median(device, rng, shape, axis):
    x = rng.standard_normal(shape)
    for keepdims in (False, True):
        got = loom.median(L(x, device), axis=axis, keepdims=keepdims)
        want = np.median(x, axis=axis, keepdims=keepdims)
        assert got.shape == np.shape(want)
        np.testing.assert_array_equal(got.numpy(), want)
    xi = rng.integers(0, 9, size=shape)
    np.testing.assert_array_equal(loom.median(L(xi, device), axis=axis).numpy(), np.median(xi, axis=axis))


@pytest.mark.parametrize("method", ["linear", "lower", "higher", "nearest", "midpoint"])
@pytest.mark.parametrize("axis", [None, 1, (0, 2)])
def test_nanquantile_nanpercentile_nanmedian(device, rng, method, axis):
    import warnings
    x = rng.standard_normal((4, 6, 5)).astype("float32")
    x[rng.random(x.shape) < 0.3] = np.nan
    x[1, :, 2] = np.nan  # an all-NaN slice along axis 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for q in (0.0, 0.5, [0.1, 0.77, 1.0]):
            for keepdims in (False, True):
                got = loom.nanquantile(L(x, device), q, axis=axis, method=method, keepdims=keepdims)
                want = np.nanquantile(x, q, axis=axis, method=method, keepdims=keepdims)
                assert got.shape == want.shape and got.dtype == want.dtype
                np.testing.assert_allclose(got.numpy(), want, rtol=1e-6, atol=1e-6)  # a float32 lerp across 0
        got = loom.nanpercentile(L(x, device), [5, 60], axis=axis, method=method)
        np.testing.assert_allclose(got.numpy(), np.nanpercentile(x, [5, 60], axis=axis, method=method), rtol=1e-6, atol=1e-6)
        for keepdims in (False, True):
            got = loom.nanmedian(L(x, device), axis=axis, keepdims=keepdims)
            want = np.nanmedian(x, axis=axis, keepdims=keepdims)
            assert got.shape == want.shape and got.dtype == want.dtype
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-6, atol=1e-6)
    xi = rng.integers(-9, 9, size=(3, 4))
    np.testing.assert_allclose(loom.nanmedian(L(xi, device), axis=0).numpy(), np.nanmedian(xi, axis=0))
    with pytest.raises(ValueError, match="nanquantile"):
        loom.nanquantile(L(x, device), 1.5)
    with pytest.raises(ValueError, match="nanpercentile"):
        loom.nanpercentile(L(x, device), -1)


# ---- one slice: the order statistics come from select_ranks (radix selection on a GPU) ----

METHODS = ["linear", "lower", "higher", "nearest", "midpoint"]
QS = [0.0, 0.5, 1.0, [0.1, 0.25, 0.5, 0.75, 0.9], [0.999, 0.001, 1 / 3]]


def _one_slice_data(rng, dtype, n, kind):
    """n fresh random elements of dtype: 'spread' (distinct), 'ties' (integers in [0, 5)),
    'signs' (+-inf, -0.0 and 0.0 among numbers), 'nan' (a NaN or several among them)."""
    if dtype == np.bool_:
        return rng.integers(0, 2, n).astype(bool)
    if kind == "ties":
        return rng.integers(0, 5, n).astype(dtype)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -10**6), min(info.max, 10**6), n, endpoint=True).astype(dtype)
    x = (rng.standard_normal(n) * 100).astype(dtype)
    if kind in ("signs", "nan"):
        pick = rng.random(n) < 0.3
        x[pick] = np.array([np.inf, -np.inf, -0.0, 0.0], dtype)[rng.integers(0, 4, pick.sum())]
    if kind == "nan":
        x[rng.integers(0, n, max(1, n // 50))] = np.nan
    return x


def _exact(method):
    # lower/higher/nearest pick elements; the interpolating methods compute like NumPy but
    # not always in the same precision (float32/float16 gammas, midpoint's (a + b) / 2)
    return method in ("lower", "higher", "nearest")


def _compare(got, want, x, q, method, fn, what):
    if _exact(method):
        np.testing.assert_array_equal(got.numpy(), want, err_msg=what)
        return
    if method == "midpoint" and np.isinf(x).any():
        return  # at t = 0 NumPy lerps an inf to NaN (inf - inf); loom's midpoint keeps it
    if x.dtype == np.float16:
        # NumPy computes float16 gammas: past n = 65504 its virtual index overflows to inf.
        # Reference: float32 data, rounded to the result's dtype.
        want = fn(x.astype(np.float32), q, method=method).astype(want.dtype)
    tol = 4e-3 if x.dtype == np.float16 else 1e-6 if x.dtype == np.float32 else 1e-12
    finite = np.abs(x[np.isfinite(x)].astype(np.float64))
    scale = max(1.0, finite.max()) if finite.size else 1.0  # b - a cancels to the data's ulp
    np.testing.assert_allclose(got.numpy(), want, rtol=tol, atol=tol * scale, err_msg=what)


ONE_SLICE_DTYPES = [np.float16, np.float32, np.float64, np.int32, np.int64, np.uint8, np.bool_]


@pytest.mark.parametrize("dtype", ONE_SLICE_DTYPES)
@pytest.mark.parametrize("n", [1, 2, 3, 1000, 1001, 1 << 20])
def test_one_slice_quantile_and_median_match_numpy(device, rng, dtype, n):
    import warnings
    kinds = ["spread", "ties"] + (["signs", "nan"] if np.issubdtype(dtype, np.floating) else [])
    for kind in kinds:
        x = _one_slice_data(rng, dtype, n, kind)
        xl = L(x, device)
        what = f"{np.dtype(dtype).name} n={n} {kind}"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # inf - inf in NumPy's lerp
            want = np.median(x)
            got = loom.median(xl)
            assert got.dtype == want.dtype, what
            if dtype == np.float16:
                np.testing.assert_allclose(got.numpy(), want, rtol=1e-3, err_msg=what)
            else:
                np.testing.assert_array_equal(got.numpy(), want, err_msg=what)
            for method in METHODS if n < 4096 else ["linear", "nearest"]:
                for q in QS:
                    if dtype == np.bool_ and not _exact(method):
                        continue  # NumPy subtracts booleans there (a TypeError)
                    want = np.quantile(x, q, method=method)
                    got = loom.quantile(xl, q, method=method)
                    assert got.shape == want.shape and got.dtype == want.dtype, (what, method, q)
                    _compare(got, want, x, q, method, np.quantile, f"{what} {method} {q}")
            got = loom.percentile(xl, [5, 50, 95], method="lower")
            np.testing.assert_array_equal(got.numpy(), np.percentile(x, [5, 50, 95], method="lower"), err_msg=what)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("n", [1, 2, 3, 1000, 1001, 1 << 20])
def test_one_slice_nan_forms_match_numpy(device, rng, dtype, n):
    import warnings
    for kind in ["spread", "nan", "signs", "all-nan"]:
        x = _one_slice_data(rng, dtype, n, "nan" if kind == "all-nan" else kind)
        if kind == "all-nan":
            x[:] = np.nan
        xl = L(x, device)
        what = f"{np.dtype(dtype).name} n={n} {kind}"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            got, want = loom.nanmedian(xl), np.nanmedian(x)
            assert got.dtype == want.dtype, what
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-3 if dtype == np.float16 else 1e-7, err_msg=what)
            for method in METHODS if n < 4096 else ["linear", "higher"]:
                for q in QS:
                    want = np.nanquantile(x, q, method=method)
                    got = loom.nanquantile(xl, q, method=method)
                    assert got.shape == want.shape, (what, method, q)
                    # NumPy gives an all-NaN slice its own dtype, not q's promotion
                    assert got.dtype == want.dtype or kind == "all-nan" or n == 1, (what, method, q)
                    _compare(got, want, x, q, method, np.nanquantile, f"{what} {method} {q}")
            got = loom.nanpercentile(xl, [5, 60], method="nearest")
            np.testing.assert_array_equal(got.numpy(), np.nanpercentile(x, [5, 60], method="nearest"), err_msg=what)


def _bits(a):
    a = np.asarray(a)
    return a.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int64, np.uint8])
def test_one_slice_equals_the_sort_path_bit_for_bit(device, rng, dtype):
    # A single slice selects; the same row among others sorts. Every formula runs on the
    # same elements, so the bits agree, -0.0 and all.
    import warnings
    for n in (1, 2, 5, 6, 3000):
        for kind in ("spread", "ties", "signs", "nan") if np.issubdtype(dtype, np.floating) else ("spread", "ties"):
            x = _one_slice_data(rng, dtype, n, kind)
            rows = L(np.stack([x, x[::-1].copy(), x]), device)  # 3 slices: the sort path
            one = L(x, device)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                pairs = [(loom.median(one), loom.median(rows, axis=1)[2])]
                for method in METHODS:
                    q = [0.0, 0.37, 0.5, 1.0]
                    pairs.append((loom.quantile(one, q, method=method), loom.quantile(rows, q, axis=1, method=method)[:, 0]))
                    if np.issubdtype(dtype, np.floating):
                        pairs.append((loom.nanquantile(one, q, method=method),
                                      loom.nanquantile(rows, q, axis=1, method=method)[:, 2]))
            for got, want in pairs:
                np.testing.assert_array_equal(_bits(got.numpy()), _bits(want.numpy()),
                                              err_msg=f"{np.dtype(dtype).name} n={n} {kind}")


def test_one_slice_from_axes_and_layouts(device, rng):
    # axis reductions that leave one slice (the kept axes all of length 1), keepdims, a
    # strided input, a 0-d input, and many q (more ranks than one selection takes: a sort)
    x = rng.standard_normal((1, 40, 1, 25))
    for axis in (None, (1, 3), (0, 1, 3), (1, 2, 3)):
        for keepdims in (False, True):
            got = loom.quantile(L(x, device), [0.2, 0.5], axis=axis, keepdims=keepdims)
            want = np.quantile(x, [0.2, 0.5], axis=axis, keepdims=keepdims)
            assert got.shape == want.shape
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
            got = loom.median(L(x, device), axis=axis, keepdims=keepdims)
            np.testing.assert_array_equal(got.numpy(), np.median(x, axis=axis, keepdims=keepdims))
    y = rng.standard_normal((30, 20))
    yl = L(y, device)[::2, ::-3]
    np.testing.assert_array_equal(loom.median(yl).numpy(), np.median(y[::2, ::-3]))
    np.testing.assert_array_equal(loom.quantile(yl.T, 0.3, method="nearest").numpy(),
                                  np.quantile(y[::2, ::-3].T, 0.3, method="nearest"))
    assert loom.median(L(np.array(2.5), device)).numpy() == 2.5
    q = np.linspace(0, 1, 41)
    np.testing.assert_allclose(loom.quantile(L(y, device), q).numpy(), np.quantile(y, q), rtol=1e-12)
    np.testing.assert_array_equal(loom.quantile(L(y, device), q, method="higher").numpy(),
                                  np.quantile(y, q, method="higher"))


def test_one_slice_under_transforms(device, rng):
    # traced (jit, grad, vmap), quantile and median take the sort path: same values
    x = rng.standard_normal(9)
    xl = L(x, device)
    assert loom.jit(loom.median)(xl).numpy() == np.median(x)
    np.testing.assert_allclose(loom.jit(lambda a: loom.quantile(a, [0.1, 0.6]))(xl).numpy(),
                               np.quantile(x, [0.1, 0.6]), rtol=1e-12)
    g = loom.grad(lambda a: loom.median(a))(xl).numpy()
    want = np.zeros(9)
    want[np.argsort(x)[4]] = 1.0
    np.testing.assert_array_equal(g, want)
    g = loom.grad(lambda a: loom.nanquantile(a, 0.3))(xl).numpy()
    order = np.argsort(x)
    want = np.zeros(9)
    want[order[2]] += 0.6
    want[order[3]] += 0.4
    np.testing.assert_allclose(g, want, rtol=1e-12, atol=1e-15)
    xs = rng.standard_normal((4, 10))
    np.testing.assert_array_equal(loom.vmap(loom.median)(L(xs, device)).numpy(), np.median(xs, axis=1))
    np.testing.assert_allclose(loom.vmap(lambda a: loom.nanpercentile(a, [10, 90]))(L(xs, device)).numpy(),
                               np.nanpercentile(xs, [10, 90], axis=1).T, rtol=1e-12)
