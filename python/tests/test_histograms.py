"""numpy's histogram_bin_edges (counts, edges, estimators), histogram over edges and
estimators, histogramdd and histogram2d (ops/histograms.h) against NumPy on fresh random
data, on every device, and the errors."""
import numpy as np
import pytest

import loom


def L(x, device):
    return loom.asarray(x, device=device)


@pytest.mark.parametrize("bins", [7, "auto", "fd", "doane", "scott", "rice", "sturges", "sqrt", "edges"])
def test_bin_edges_and_histogram(device, rng, bins):
    x = rng.standard_normal(400) * 3
    b = np.sort(rng.uniform(-5, 5, 6)) if bins == "edges" else bins
    lb = L(b, device) if bins == "edges" else b
    np.testing.assert_allclose(loom.histogram_bin_edges(L(x, device), lb).numpy(), np.histogram_bin_edges(x, b),
                               rtol=1e-12)
    for rng_ in (None, (-2.0, 4.0)):
        h, e = loom.histogram(L(x, device), lb, range=rng_)
        hw, ew = np.histogram(x, b, range=rng_)
        assert h.dtype.name == hw.dtype.name and h.device == device
        np.testing.assert_array_equal(h.numpy(), hw)
        np.testing.assert_allclose(e.numpy(), ew, rtol=1e-12)
    w = rng.random(400)
    if isinstance(b, str):  # NumPy: estimators do not take weights
        with pytest.raises(TypeError, match="weighted"):
            loom.histogram(L(x, device), lb, weights=L(w, device))
        return
    h, _ = loom.histogram(L(x, device), lb, weights=L(w, device), density=True)
    np.testing.assert_allclose(h.numpy(), np.histogram(x, b, weights=w, density=True)[0], rtol=1e-10)


def test_histogramdd_and_2d(device, rng):
    s = rng.standard_normal((300, 3))
    w = rng.random(300)
    edges0 = np.linspace(-2, 2, 5)
    for b in (5, (3, 4, 5), [edges0, 4, np.array([-1.0, 0.0, 1.0])]):
        lb = [L(v, device) if isinstance(v, np.ndarray) else v for v in b] if isinstance(b, list) else b
        for kw in ({}, {"density": True}, {"weights": w}):
            lkw = {k: (L(v, device) if isinstance(v, np.ndarray) else v) for k, v in kw.items()}
            h, e = loom.histogramdd(L(s, device), lb, **lkw)
            hw, ew = np.histogramdd(s, b, **kw)
            assert h.dtype.name == hw.dtype.name
            np.testing.assert_allclose(h.numpy(), hw, rtol=1e-10)
            for a, c in zip(e, ew):
                np.testing.assert_allclose(a.numpy(), c, rtol=1e-12)
    h, e = loom.histogramdd(L(s, device), 4, range=[(-1, 1), (-2, 0), (0, 3)])
    np.testing.assert_array_equal(h.numpy(), np.histogramdd(s, 4, range=[(-1, 1), (-2, 0), (0, 3)])[0])
    x, y = s[:, 0], s[:, 1]
    for b in (5, (4, 6), [edges0, np.linspace(-3, 3, 7)]):
        lb = [L(v, device) for v in b] if isinstance(b, list) else b
        h, xe, ye = loom.histogram2d(L(x, device), L(y, device), bins=lb, weights=L(w, device))
        hw, xw, yw = np.histogram2d(x, y, bins=b, weights=w)
        np.testing.assert_allclose(h.numpy(), hw, rtol=1e-10)
        np.testing.assert_allclose(ye.numpy(), yw)


def test_histogram_errors(device):
    x = L(np.arange(5.0), device)
    with pytest.raises(ValueError, match="estimator"):
        loom.histogram_bin_edges(x, "stone-age")
    with pytest.raises(ValueError, match="monotonically"):
        loom.histogram(x, L(np.array([2.0, 1.0, 3.0]), device))
    with pytest.raises(ValueError, match="histogramdd"):
        loom.histogramdd(L(np.ones((4, 2)), device), bins=(2, 3, 4))
    with pytest.raises(ValueError, match="histogram2d"):
        loom.histogram2d(x, L(np.ones(3), device))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int32", "uint8"])
def test_equal_bin_edges_have_numpys_dtype_and_bits(device, rng, dtype):
    """NumPy's bin type: the data's float dtype (float64 for integers); its linspace runs in
    that dtype for the data's range and in float64 for a given range."""
    if np.dtype(dtype).kind == "f":
        x = (rng.standard_normal(300) * 5).astype(dtype)
    else:
        x = rng.integers(0, 200, 300).astype(dtype)
    for bins in (7, "sturges", "fd"):
        for r in (None, (-2.5, 3.25)):
            e = loom.histogram_bin_edges(L(x, device), bins, range=r).numpy()
            want = np.histogram_bin_edges(x, bins, range=r)
            assert e.dtype == want.dtype
            np.testing.assert_array_equal(e, want)
            if isinstance(bins, str):  # an estimator's bins are counted as equal bins
                h, he = loom.histogram(L(x, device), bins, range=r)
                wh, _ = np.histogram(x, bins, range=r)
                np.testing.assert_array_equal(h.numpy(), wh)
                np.testing.assert_array_equal(he.numpy(), want)
    # histogramdd: NumPy's linspace without a dtype (float32 edges from float32 data's range)
    s = np.stack([x, x[::-1]], axis=1)
    for r in (None, [(-2.0, 3.0), (0.0, 4.0)]):
        h, e = loom.histogramdd(L(s, device), (4, 6), range=r)
        wh, we = np.histogramdd(s, (4, 6), range=r)
        np.testing.assert_array_equal(h.numpy(), wh)
        for a, b in zip(e, we):
            assert a.numpy().dtype == b.dtype
            np.testing.assert_array_equal(a.numpy(), b)
        hd, _ = loom.histogramdd(L(s, device), (4, 6), range=r, density=True)
        with np.errstate(invalid="ignore"):  # every value outside the range: 0 / 0
            np.testing.assert_allclose(hd.numpy(), np.histogramdd(s, (4, 6), range=r, density=True)[0], rtol=1e-12)
