"""loom.scipy.signal's analytic signals, detrending, polynomial helpers and rank filters
against scipy.signal on fresh random data, on every device."""
import warnings

import numpy as np
import pytest
import scipy.signal as ss

import loom
from loom.scipy import signal as ls
from scipy_compare import check, same_error


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_hilbert_and_hilbert2(device, rng, dtype):
    for shape in ((4, 9), (6, 8), (3, 4, 5)):
        x = (rng.standard_normal(shape) * 5).astype(dtype)
        lx = loom.asarray(x, device=device)
        for kw in ({}, {"N": 12}, {"axis": 0}, {"N": 7, "axis": 1}):
            check(ls.hilbert(lx, **kw), ss.hilbert(x, **kw), device=device, rtol=1e-5)
        for kw in ({}, {"N": 10}, {"N": (5, 11)}, {"axes": (0, -1)}):
            check(ls.hilbert2(lx, **kw), ss.hilbert2(x, **kw), device=device, rtol=1e-5)
    x = rng.standard_normal(8)
    lx = loom.asarray(x, device=device)
    check(ls.hilbert2(lx), ss.hilbert2(x))
    for bad in (lambda m, v: m.hilbert(v + 1j), lambda m, v: m.hilbert(v, N=0), lambda m, v: m.hilbert2(v, N=0),
                lambda m, v: m.hilbert2(v, N=(3, 4, 5)), lambda m, v: m.hilbert2(v, axes=(0, 0))):
        same_error(lambda: bad(ls, lx), lambda: bad(ss, x))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int16, np.complex64])
def test_detrend(device, rng, dtype):
    x = (rng.standard_normal((5, 40)) * 5 + np.arange(40)).astype(dtype)
    lx = loom.asarray(x, device=device)
    for kw in ({}, {"type": "constant"}, {"axis": 0}, {"bp": [10, 25]}, {"bp": 7, "type": "l"}, {"bp": [0, 40]}):
        check(ls.detrend(lx, **kw), ss.detrend(x, **kw), device=device, rtol=1e-4)
    for kw in ({"type": "quadratic"}, {"bp": 50}):
        same_error(lambda: ls.detrend(lx, **kw), lambda: ss.detrend(x, **kw))


def test_lfiltic_deconvolve_correlation_lags(device, rng):
    for b, a in (([1.0, 2.0, 0.5], [2.0, -0.3, 0.1]), ([1.0], [1.0, 0.5, 0.2, 0.1]), ([0.5, 0.5, 0.5, 0.1], [1.0])):
        for y, x in (([1.0, 2.0, 3.0], None), ([1.0], [0.5, 0.25, 1.0, 2.0]), (list(rng.standard_normal(5)), [1.0])):
            check(ls.lfiltic(b, a, loom.asarray(y, device=device), x), ss.lfiltic(b, a, y, x), device=device)
    # the state continues a filtering: lfilter from it equals the tail of one long run
    b, a = ss.butter(3, 0.3)
    sig = rng.standard_normal(60)
    whole = ss.lfilter(b, a, sig)
    zi = ls.lfiltic(b, a, loom.asarray(whole[29::-1].copy(), device=device), sig[29::-1])
    check(ls.lfilter(b, a, loom.asarray(sig[30:], device=device), zi=zi)[0], whole[30:])
    for s, d in ((rng.standard_normal(20), [2.0, 1.0, 0.5]), ([1.0, 2.0, 3.0, 4.0, 5.0], [1.0, 0.5]), ([3.0], [1.5])):
        q, r = ls.deconvolve(loom.asarray(s, device=device), loom.asarray(d, device=device))
        want_q, want_r = ss.deconvolve(s, d)
        check(q, want_q, device=device)
        check(r, want_r)
    q, r = ls.deconvolve(loom.asarray([1.0, 2.0], device=device), loom.asarray([1.0, 2.0, 3.0], device=device))
    assert q.shape == (0,) and r.numpy().tolist() == [1.0, 2.0]
    for n1, n2 in ((10, 3), (3, 10), (7, 7), (8, 5), (1, 1)):
        for mode in ("full", "same", "valid"):
            check(ls.correlation_lags(n1, n2, mode), ss.correlation_lags(n1, n2, mode))
    same_error(lambda: ls.correlation_lags(3, 4, "bad"), lambda: ss.correlation_lags(3, 4, "bad"))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.uint8])
def test_rank_filters_and_wiener(device, rng, dtype):
    x = (rng.random((7, 9)) * 100).astype(dtype)
    lx = loom.asarray(x, device=device)
    for ks in (None, 5, [3, 5], 9):
        with warnings.catch_warnings(record=True) as got_w:
            warnings.simplefilter("always")
            got = ls.medfilt(lx, ks)
        with warnings.catch_warnings(record=True) as want_w:
            warnings.simplefilter("always")
            want = ss.medfilt(x, ks)
        check(got, want, device=device)
        assert [str(w.message) for w in got_w] == [str(w.message) for w in want_w]
    check(ls.medfilt2d(lx, 3), ss.medfilt2d(x, 3), device=device)
    for domain, rank in ((np.ones((3, 3)), 4), (np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]]), 0), (np.ones((1, 5)), 4)):
        check(ls.order_filter(lx, domain, rank), ss.order_filter(x, domain, rank), device=device)
    for size, noise in ((None, None), (5, None), ([3, 5], 0.5)):
        with np.errstate(all="ignore"):
            want = ss.wiener(x, size, noise)
        check(ls.wiener(lx, size, noise), want, device=device)
    for call in (lambda m, v: m.medfilt(v, [3, 4]), lambda m, v: m.medfilt(v, [3, 3, 3]),
                 lambda m, v: m.order_filter(v, np.ones((2, 3)), 1), lambda m, v: m.order_filter(v, np.ones((3, 3)), 9),
                 lambda m, v: m.medfilt(v.astype(np.float16)), lambda m, v: m.medfilt2d(v.astype(np.complex64))):
        same_error(lambda: call(ls, lx), lambda: call(ss, x))
