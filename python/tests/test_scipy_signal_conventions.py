"""loom.scipy.signal's conventions beyond the values, against scipy.signal: results are fresh
C-contiguous arrays, the dtypes SciPy keeps or refuses, filters that keep no state."""
import numpy as np
import pytest
import scipy.signal as ss

import loom
from loom.scipy import signal as ls
from scipy_compare import check, same_error


@pytest.mark.parametrize("shapes", [((3, 4, 10), (3, 3, 3)), ((3, 4, 10), (10, 10, 10)), ((10, 7), (11, 11)),
                                    ((5, 10), (2, 2))])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_results_are_c_contiguous(device, rng, shapes, mode):
    a, b = rng.standard_normal(shapes[0]), rng.standard_normal(shapes[1])
    la, lb = loom.asarray(a, device=device), loom.asarray(b, device=device)
    calls = [("convolve", dict(method="direct")), ("correlate", dict(method="direct")),
             ("convolve", dict(method="fft")), ("correlate", dict(method="fft")), ("fftconvolve", {}),
             ("oaconvolve", {})]
    if a.ndim == 2:
        calls += [("convolve2d", dict(boundary="symm")), ("correlate2d", dict(boundary="symm"))]
    for name, kw in calls:
        try:
            want = getattr(ss, name)(a, b, mode, **kw)
        except ValueError:
            same_error(lambda: getattr(ls, name)(la, lb, mode, **kw), lambda: getattr(ss, name)(a, b, mode, **kw))
            continue
        got = getattr(ls, name)(la, lb, mode, **kw)
        check(got, want, device=device)
        assert got.flags.c_contiguous, (name, kw)


@pytest.mark.parametrize("dtype", [np.float16, np.bool_])
@pytest.mark.parametrize("method", ["direct", "fft", "auto"])
def test_float16_and_bool(device, rng, dtype, method):
    """1-d: every method computes in the inputs' type; n-d: the direct method refuses them
    (SciPy's loop has no such form), the FFT casts back to them, auto takes the FFT."""
    for shapes in (((20,), (5,)), ((50, 60), (3, 3)), ((3, 4, 10), (3, 3, 3))):
        a = (rng.uniform(0, 2, shapes[0])).astype(dtype)
        b = (rng.uniform(0, 2, shapes[1])).astype(dtype)
        la, lb = loom.asarray(a, device=device), loom.asarray(b, device=device)
        for name in ("convolve", "correlate"):
            if method == "direct" and a.ndim > 1:
                same_error(lambda: getattr(ls, name)(la, lb, "same", method),
                           lambda: getattr(ss, name)(a, b, "same", method))
                continue
            want = getattr(ss, name)(a, b, "same", "fft" if method == "auto" and a.ndim > 1 else method)
            check(getattr(ls, name)(la, lb, "same", method), want, device=device, rtol=2e-3)
        if a.ndim == 2:
            same_error(lambda: ls.convolve2d(la, lb), lambda: ss.convolve2d(a, b))


def test_lfilter_of_a_gain_keeps_no_state(device, rng):
    x = rng.standard_normal((3, 20))
    lx = loom.asarray(x, device=device)
    for b, a in (([2.0], [1.0]), ([3.0], [4.0])):
        check(ls.lfilter(b, a, lx), ss.lfilter(b, a, x), device=device)
        y, zf = ls.lfilter(b, a, lx, zi=loom.zeros((3, 0), device=device))
        want_y, want_zf = ss.lfilter(b, a, x, zi=np.zeros((3, 0)))
        check(y, want_y)
        check(zf, want_zf)


def test_filters_return_c_contiguous_arrays(device, rng):
    b, a = ss.butter(3, 0.2)
    sos = ss.butter(3, 0.2, output="sos")
    x = rng.standard_normal((14, 30, 15))  # every axis longer than filtfilt's padding (12)
    lx = loom.asarray(x, device=device)
    for axis in (0, 1, -1):
        for got, want in ((ls.lfilter(b, a, lx, axis=axis), ss.lfilter(b, a, x, axis=axis)),
                          (ls.sosfilt(sos, lx, axis=axis), ss.sosfilt(sos, x, axis=axis)),
                          (ls.filtfilt(b, a, lx, axis=axis), ss.filtfilt(b, a, x, axis=axis)),
                          (ls.filtfilt(b, a, lx, axis=axis, method="gust"), ss.filtfilt(b, a, x, axis=axis, method="gust")),
                          (ls.upfirdn([1.0, 0.5, 0.25], lx, 3, 2, axis=axis), ss.upfirdn([1.0, 0.5, 0.25], x, 3, 2, axis=axis))):
            check(got, want, device=device)
            assert got.flags.c_contiguous
