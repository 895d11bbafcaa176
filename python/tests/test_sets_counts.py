"""numpy's isin, intersect1d, union1d, setdiff1d, setxor1d, digitize, bincount, histogram,
cov and corrcoef against NumPy on fresh random data, on every device, with the errors.
bincount's counts and histogram's counts and edges (dtype and bits) equal NumPy's exactly,
on both of the GPU's paths (shared-memory sums for few bins, global atomics for many)."""
import warnings

import numpy as np
import pytest

import loom
from conftest import compare


def L(x, device):
    return loom.asarray(x, device=device)


def test_isin_and_set_routines(device, rng):
    a, b = rng.integers(0, 12, size=(3, 5)), rng.integers(5, 20, size=9)
    for invert in (False, True):
        np.testing.assert_array_equal(loom.isin(L(a, device), L(b, device), invert=invert).numpy(),
                                      np.isin(a, b, invert=invert))
    np.testing.assert_array_equal(loom.isin(L(a, device), L(np.array([], np.int64), device)).numpy(), np.isin(a, []))
    f = np.array([1.5, np.nan, 2.0])
    np.testing.assert_array_equal(loom.isin(L(f, device), L(np.array([2.0, np.nan]), device)).numpy(),
                                  np.isin(f, [2.0, np.nan]))
    for name in ("intersect1d", "union1d", "setdiff1d", "setxor1d"):
        np.testing.assert_array_equal(getattr(loom, name)(L(a, device), L(b, device)).numpy(), getattr(np, name)(a, b))
    np.testing.assert_array_equal(loom.setxor1d(L(a[:0], device), L(b[:0], device)).numpy(), np.setxor1d(a[:0], b[:0]))


@pytest.mark.parametrize("right", [False, True])
def test_digitize(device, rng, right):
    x = rng.uniform(-1, 11, size=(4, 6))
    x[0, 0] = 3.0  # on an edge
    inc = np.array([0.0, 1.0, 3.0, 3.0, 7.0, 10.0])
    for bins in (inc, inc[::-1].copy()):
        np.testing.assert_array_equal(loom.digitize(L(x, device), L(bins, device), right=right).numpy(),
                                      np.digitize(x, bins, right=right))
    with pytest.raises(ValueError, match="monoton"):
        loom.digitize(L(x, device), L(np.array([0.0, 2.0, 1.0]), device))


@pytest.mark.parametrize("right", [False, True])
def test_digitize_with_nan_and_equal_edges(device, rng, right):
    """NumPy's monotonicity rule: the first edge unlike bins[0] sets the direction (equal
    edges rise); NaN edges compare false and never break it; NaN values go past the end."""
    nan = np.nan
    x = rng.uniform(-1, 14, 20).astype(np.float32)
    x[[3, 7]] = [nan, 5.0]
    for edges in ([1, 3, 5, 8, nan], [1, 3, 5, 8, nan, nan], [nan, 8, 5, 3, 1], [nan, nan, nan, 5, 3, 1],
                  [nan, nan], [2, 2, 2], [3, 3, 1, 1], [1, 1, 3, 3], [nan, 1, 3, 2], [1, 3, 2, nan]):
        bins = np.array(edges, np.float32)
        compare(lambda xp, a, b: xp.digitize(a, b, right=right), x, bins, device=device)


def test_bincount(device, rng):
    x = rng.integers(0, 7, size=30)
    np.testing.assert_array_equal(loom.bincount(L(x, device)).numpy(), np.bincount(x))
    np.testing.assert_array_equal(loom.bincount(L(x, device), minlength=12).numpy(), np.bincount(x, minlength=12))
    w = rng.standard_normal(30)
    np.testing.assert_allclose(loom.bincount(L(x, device), weights=L(w, device)).numpy(), np.bincount(x, weights=w),
                               rtol=1e-12, atol=1e-12)
    assert loom.bincount(L(np.array([], np.int64), device)).shape == (0,)
    with pytest.raises(ValueError, match="negative"):
        loom.bincount(L(np.array([1, -1]), device))
    with pytest.raises(TypeError):
        loom.bincount(L(np.array([1.0]), device))


@pytest.mark.parametrize("bins", [1, 5, 10])
def test_histogram(device, rng, bins):
    a = rng.standard_normal(200)
    h, e = loom.histogram(L(a, device), bins=bins)
    wh, we = np.histogram(a, bins=bins)
    np.testing.assert_array_equal(h.numpy(), wh)
    np.testing.assert_allclose(e.numpy(), we, rtol=1e-15)
    h, e = loom.histogram(L(a, device), bins=bins, range=(-1, 1), weights=L(np.abs(a), device), density=True)
    wh, we = np.histogram(a, bins=bins, range=(-1, 1), weights=np.abs(a), density=True)
    np.testing.assert_allclose(h.numpy(), wh, rtol=1e-12)
    g = np.arange(11.0)  # every value on an edge
    np.testing.assert_array_equal(loom.histogram(L(g, device), bins=5)[0].numpy(), np.histogram(g, bins=5)[0])


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int16", "int32", "uint32", "int64"])
def test_bincount_exact(device, rng, dtype):
    # Few bins (each GPU block sums in shared memory) and 100001 (global atomics).
    for hi in (1, 9, 1000, 100001):
        top = 2 if dtype == "bool" else min(hi, np.iinfo(dtype).max + 1)
        x = rng.integers(0, top, size=int(rng.integers(1, 5000))).astype(dtype)
        x[0] = top - 1
        got = loom.bincount(L(x, device))
        assert got.dtype == loom.int64 and got.device == device
        np.testing.assert_array_equal(got.numpy(), np.bincount(x))
        w = rng.standard_normal(x.size)
        np.testing.assert_allclose(loom.bincount(L(x, device), weights=L(w, device)).numpy(), np.bincount(x, weights=w),
                                   rtol=1e-12, atol=1e-12)
        iw = rng.integers(-3, 4, x.size).astype(np.float64)  # integer weights: exact sums
        np.testing.assert_array_equal(loom.bincount(L(x, device), weights=L(iw, device)).numpy(),
                                      np.bincount(x, weights=iw))
    big = np.concatenate([rng.integers(0, 7, 100), [100000]])  # many empty bins
    np.testing.assert_array_equal(loom.bincount(L(big, device), minlength=3).numpy(), np.bincount(big, minlength=3))
    z = rng.standard_normal(big.size) + 1j * rng.standard_normal(big.size)
    np.testing.assert_allclose(loom.bincount(L(big, device), weights=L(z, device)).numpy(),
                               np.bincount(big, weights=z.real) + 1j * np.bincount(big, weights=z.imag), rtol=1e-12)
    m = rng.integers(0, 50, size=(40, 3)).astype(dtype if dtype != "bool" else "int8")  # strided views
    np.testing.assert_array_equal(loom.bincount(L(m, device)[:, 1]).numpy(), np.bincount(m[:, 1]))
    np.testing.assert_array_equal(loom.bincount(L(m, device)[::-3, 2]).numpy(), np.bincount(m[::-3, 2]))
    np.testing.assert_array_equal(loom.bincount(L(np.array([], np.int32), device), minlength=4).numpy(), np.zeros(4))


def _histogram_input(rng, dtype, n):
    if dtype == "bool":
        return rng.random(n) < 0.4
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -300), min(info.max, 300), n).astype(dtype)
    scale = rng.choice([1e-3, 1.0, 300.0])
    return (rng.standard_normal(n) * scale).astype(dtype)


def _check_histogram(device, a, **kw):
    """loom.histogram equals numpy.histogram: counts exactly (weighted: closely), edges to the bit."""
    lkw = {k: (L(v, device) if isinstance(v, np.ndarray) else v) for k, v in kw.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy warns for bool input
        try:
            want_h, want_e = np.histogram(a, **kw)
        except ValueError as err:  # too many bins for a float16 range: the same error
            with pytest.raises(ValueError, match=str(err)):
                loom.histogram(L(a, device), **lkw)
            return
    h, e = loom.histogram(L(a, device), **lkw)
    assert h.device == device and e.device == device
    assert h.dtype.name == want_h.dtype.name and e.dtype.name == want_e.dtype.name, (h.dtype, want_h.dtype, e.dtype)
    np.testing.assert_array_equal(e.numpy().view(np.uint8), want_e.view(np.uint8))
    w = kw.get("weights")
    if kw.get("density") or (w is not None and w.dtype.kind in "fc"):
        np.testing.assert_allclose(h.numpy(), want_h, rtol=1e-5 if w is not None and w.dtype.itemsize <= 4 else 1e-12,
                                   atol=1e-12, equal_nan=True)
    else:
        np.testing.assert_array_equal(h.numpy(), want_h)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int8", "uint8", "int32", "int64", "uint64", "bool"])
def test_histogram_equals_numpy_exactly(device, rng, dtype):
    for bins in (1, 7, 256, 5000):  # 5000: the GPU's global-atomics path
        a = _histogram_input(rng, dtype, int(rng.integers(1, 3000)))
        _check_histogram(device, a, bins=bins)
        lo = float(np.min(a)) - 0.25 if a.dtype != bool else 0.0
        _check_histogram(device, a, bins=bins, range=(lo, lo + float(rng.uniform(0.5, 40))))
        _check_histogram(device, a, bins=bins, density=True)
        _check_histogram(device, a, bins=bins, range=(-1, 1), weights=rng.random(a.size))
    a = _histogram_input(rng, dtype, 500)
    for w in (rng.random(500).astype(np.float32), rng.integers(0, 9, 500), rng.random(500) < 0.5,
              rng.standard_normal(500) + 1j * rng.standard_normal(500)):
        _check_histogram(device, a, bins=9, weights=w)  # NumPy: the weights' dtype
    _check_histogram(device, a, bins=9, range=(0.5, 0.5))  # an empty range widens by 0.5
    _check_histogram(device, np.full(20, a[0]), bins=4)
    _check_histogram(device, a[:0], bins=5)
    _check_histogram(device, a[:0], bins=5, range=(-2, 3))
    _check_histogram(device, np.array(a[3]), bins=3)  # 0-d


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int16"])
def test_histogram_values_on_and_beside_edges(device, rng, dtype):
    """Values exactly on NumPy's edges and one step either side land in NumPy's bins."""
    for bins, rg in ((10, None), (37, (-3.3, 7.1)), (255, None), (3, (0.1, 0.4))):
        base = _histogram_input(rng, dtype, 200)
        _, e = np.histogram(base, bins=bins, range=rg)
        if np.dtype(dtype).kind == "f":
            e = e.astype(dtype)
            pts = np.concatenate([base, e, np.nextafter(e, np.array(-np.inf, dtype)), np.nextafter(e, np.array(np.inf, dtype))])
        else:
            pts = np.concatenate([base, np.round(e).astype(dtype)])
        pts = rng.permutation(pts.astype(dtype))
        _check_histogram(device, pts, bins=bins, range=rg)
        _check_histogram(device, pts, bins=bins, range=rg, weights=rng.integers(1, 4, pts.size))


def test_histogram_views_and_errors(device, rng):
    a = rng.standard_normal((30, 8)).astype(np.float32)
    la = L(a, device)
    for view, ref in ((la[:, ::3], a[:, ::3]), (la.T, a.T), (la[::-2], a[::-2])):
        h, e = loom.histogram(view, bins=11)
        wh, we = np.histogram(ref, bins=11)
        np.testing.assert_array_equal(h.numpy(), wh)
        np.testing.assert_array_equal(e.numpy(), we)
    with pytest.raises(ValueError, match="not finite"):
        loom.histogram(L(np.array([1.0, np.nan]), device))
    with pytest.raises(ValueError, match="not finite"):
        loom.histogram(L(np.array([1.0, np.inf]), device))
    with pytest.raises(ValueError, match="larger than min"):
        loom.histogram(la, range=(1, 0))
    with pytest.raises(ValueError, match="Too many bins"):
        loom.histogram(L(np.array([1.0, 1.0 + 2**-45]), device), bins=1000)
    with pytest.raises(ValueError, match="same shape"):
        loom.histogram(la, weights=L(np.ones(3), device))
    with pytest.raises(ValueError, match="positive"):
        loom.histogram(la, bins=0)
    nan = np.array([np.nan, 0.5, 2.0, -np.inf])  # NaN and values outside a given range are dropped
    np.testing.assert_array_equal(loom.histogram(L(nan, device), bins=2, range=(0, 1))[0].numpy(),
                                  np.histogram(nan, bins=2, range=(0, 1))[0])


def test_histogram_and_bincount_under_transforms(device, rng):
    x = rng.standard_normal(60).astype(np.float32)
    w = rng.random(60)
    f = loom.jit(lambda a, w: loom.histogram(a, bins=7, range=(-1, 1), weights=w))
    h, e = f(L(x, device), L(w, device))
    wh, we = np.histogram(x, 7, range=(-1, 1), weights=w)
    np.testing.assert_allclose(h.numpy(), wh, rtol=1e-12)
    np.testing.assert_array_equal(e.numpy(), we)
    # d/dw sum(hist * k) = the bin k of each value inside the range, 0 outside
    g = loom.grad(lambda w: (loom.histogram(L(x, device), bins=7, range=(-1, 1), weights=w)[0]
                             * loom.arange(7.0, device=device)).sum())(L(w, device))
    inside = (x >= -1) & (x <= 1)
    np.testing.assert_array_equal(g.numpy(), np.where(inside, np.digitize(x, we[1:-1]), 0))
    xs = rng.standard_normal((3, 40))
    v = loom.vmap(lambda a: loom.histogram(a, bins=5, range=(-2, 2))[0])(L(xs, device))
    np.testing.assert_array_equal(v.numpy(), np.stack([np.histogram(r, 5, range=(-2, 2))[0] for r in xs]))
    # The range and bincount's length come from the values: not inside a trace, as before.
    with pytest.raises(TypeError, match="traced"):
        loom.jit(lambda a: loom.histogram(a, bins=5)[0])(L(x, device))
    with pytest.raises(TypeError, match="traced"):
        loom.jit(lambda a: loom.bincount(a))(L(np.array([1, 2]), device))


def test_cov_and_corrcoef(device, rng):
    m = rng.standard_normal((3, 20))
    y = rng.standard_normal((2, 20))
    np.testing.assert_allclose(loom.cov(L(m, device)).numpy(), np.cov(m), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(loom.cov(L(m, device), L(y, device)).numpy(), np.cov(m, y), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(loom.cov(L(m.T, device), rowvar=False, bias=True).numpy(), np.cov(m.T, rowvar=False, bias=True),
                               rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(loom.cov(L(m[0], device), ddof=0).numpy(), np.cov(m[0], ddof=0), rtol=1e-12)
    z = m + 1j * rng.standard_normal((3, 20))
    np.testing.assert_allclose(loom.cov(L(z, device)).numpy(), np.cov(z), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(loom.corrcoef(L(m, device)).numpy(), np.corrcoef(m), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(loom.corrcoef(L(m, device), L(y, device)).numpy(), np.corrcoef(m, y), rtol=1e-12,
                               atol=1e-14)


def test_intersect1d_return_indices(device, rng):
    """The common values with each one's first index in the flattened inputs (NumPy's stable
    order); with assume_unique, the indices of the inputs as they are; empty inputs."""
    for _ in range(20):
        a = rng.integers(0, 12, (int(rng.integers(0, 4)), 3))
        b = rng.integers(0, 12, int(rng.integers(0, 15))).astype(np.float32)
        compare(lambda xp, x, y: xp.intersect1d(x, y, return_indices=True), a, b, device=device, exact=True)
        ua, ub = rng.permutation(np.unique(a)), rng.permutation(np.unique(b))
        compare(lambda xp, x, y: xp.intersect1d(x, y, assume_unique=True, return_indices=True), ua, ub,
                device=device, exact=True)
