"""loom.scipy.signal's resampling, Savitzky-Golay filtering, relative extrema, sweep_poly and
the added windows (resample, resample_poly, decimate, savgol_filter, argrelmin, argrelmax,
argrelextrema, sweep_poly, taylor, lanczos, exponential, chebwin, bohman, barthann) against
scipy.signal on fresh random data, on every device."""
import warnings

import numpy as np
import pytest
import scipy.signal as ss

import loom
from loom.scipy import signal as ls
from scipy_compare import check, same_error


def close(got, want, device=None):
    """check with the tolerance of SciPy's result type: single precision or double."""
    single = np.asarray(want).dtype in (np.float32, np.complex64)
    check(got, want, device=device, rtol=1e-4 if single else 1e-9)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.int32])
def test_resample(device, rng, dtype):
    x = (rng.standard_normal((3, 40)) * 4).astype(dtype)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal((3, 40))
    lx = loom.asarray(x, device=device)
    for num in (40, 17, 64, 80, 2, 1):
        for kw in ({"axis": 1}, {"axis": -1, "window": "hamming"}, {"axis": 1, "window": ("kaiser", 4.0)},
                   {"axis": 1, "window": lambda f: np.exp(-np.asarray(f) ** 2)},
                   {"axis": 1, "window": np.linspace(0.2, 1.0, 40)}):
            got_kw = dict(kw)
            if callable(kw.get("window")):
                got_kw["window"] = lambda f: loom.exp(-f ** 2)
            close(ls.resample(lx, num, **got_kw), ss.resample(x, num, **kw), device)
        close(ls.resample(lx.T, num), ss.resample(x.T, num), device)
    spectrum = np.fft.fft(x[0])
    close(ls.resample(loom.asarray(spectrum, device=device), 25, domain="freq"),
          ss.resample(spectrum, 25, domain="freq"), device)
    t = np.arange(40) * 0.25 + 3.0
    got, got_t = ls.resample(lx[0], 30, t=loom.asarray(t, device=device))
    want, want_t = ss.resample(x[0], 30, t=t)
    close(got, want)
    check(got_t, want_t, device=device)
    for num, kw in ((30, {"window": np.ones(39)}), (30, {"domain": "space"}), (30, {"window": "nope"})):
        same_error(lambda: ls.resample(lx[0], num, **kw), lambda: ss.resample(x[0], num, **kw))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex64, np.int16])
def test_resample_poly(device, rng, dtype):
    x = (rng.standard_normal((4, 61)) * 3).astype(dtype)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal((4, 61)).astype(np.float32)
    lx = loom.asarray(x, device=device)
    for up, down in ((1, 2), (3, 2), (2, 3), (5, 1), (4, 4), (1, 7), (7, 3)):
        for kw in ({"axis": 1}, {"axis": 0, "window": ("kaiser", 8.0)}, {"axis": -1, "padtype": "mean"},
                   {"axis": 1, "window": list(rng.standard_normal(12))}, {"axis": 1, "padtype": "median"},
                   {"axis": 1, "padtype": "maximum", "window": np.hamming(9).astype(np.float32)},
                   {"axis": 1, "padtype": "minimum"}):
            close(ls.resample_poly(lx, up, down, **kw), ss.resample_poly(x, up, down, **kw), device)
    for up, down, kw in ((1, 0, {}), (1.5, 2, {}), ("yo", 1, {}), (2, 1, {"padtype": "nope"}),
                         (2, 1, {"padtype": "mean", "cval": 1.0}), (2, 1, {"window": np.ones((2, 3))})):
        same_error(lambda: ls.resample_poly(lx, up, down, **kw), lambda: ss.resample_poly(x, up, down, **kw))
    with pytest.raises(NotImplementedError):                 # upfirdn's other modes: not in loom
        ls.resample_poly(lx, 2, 1, padtype="wrap")


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.float16])
def test_decimate(device, rng, dtype):
    t = np.arange(600) / 100.0
    x = (np.sin(2 * np.pi * 3 * t)[None, :] + 0.3 * rng.standard_normal((2, 600))).astype(dtype)
    if np.dtype(dtype).kind == "i":
        x = (x * 50).astype(dtype)
    lx = loom.asarray(x, device=device)
    rtol = 2e-3 if np.dtype(dtype) == np.float32 else 1e-7
    for q, kw in ((2, {}), (5, {"zero_phase": False}), (3, {"ftype": "fir"}), (4, {"ftype": "fir", "n": 12}),
                  (6, {"ftype": "fir", "zero_phase": False}), (3, {"n": 4}), (2, {"axis": 0, "ftype": "fir"})):
        check(ls.decimate(lx if kw.get("axis") != 0 else lx.T, q, **kw),
              ss.decimate(x if kw.get("axis") != 0 else x.T, q, **kw), device=device, rtol=rtol)
    system = ss.dlti(*ss.cheby1(6, 0.05, 0.8 / 3))
    check(ls.decimate(lx, 3, ftype=system), ss.decimate(x, 3, ftype=system), rtol=rtol)
    fir = ss.dlti(ss.firwin(21, 1 / 3), [1.0])
    check(ls.decimate(lx, 3, ftype=fir, zero_phase=False), ss.decimate(x, 3, ftype=fir, zero_phase=False), rtol=rtol)
    for q, kw in ((0.5, {}), (2, {"n": 0.5}), (2, {"ftype": "nope"})):
        same_error(lambda: ls.decimate(lx, q, **kw), lambda: ss.decimate(x, q, **kw))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_savgol_filter(device, rng, dtype):
    x = (np.cumsum(rng.standard_normal((3, 50)), axis=1) * 4).astype(dtype)
    lx = loom.asarray(x, device=device)
    rtol = 1e-4 if np.dtype(dtype) == np.float32 else 1e-9
    for window_length, polyorder in ((5, 2), (7, 3), (11, 4), (1, 0), (6, 2), (50, 5)):
        for kw in ({}, {"mode": "mirror"}, {"mode": "constant", "cval": 2.5}, {"mode": "nearest"},
                   {"mode": "wrap"}, {"deriv": 1, "delta": 0.5}, {"deriv": 2, "mode": "interp"},
                   {"deriv": polyorder + 1}):
            check(ls.savgol_filter(lx, window_length, polyorder, **kw),
                  ss.savgol_filter(x, window_length, polyorder, **kw), device=device, rtol=rtol)
        check(ls.savgol_filter(lx.T, window_length, polyorder, axis=0),
              ss.savgol_filter(x.T, window_length, polyorder, axis=0), device=device, rtol=rtol)
    for args, kw in (((5, 5), {}), ((5, 2), {"mode": "reflect"}), ((51, 2), {}), ((7, 2), {"axis": 0})):
        same_error(lambda: ls.savgol_filter(lx, *args, **kw), lambda: ss.savgol_filter(x, *args, **kw))


def test_savgol_filter_interp_is_exact_on_polynomials(device):
    t = np.linspace(-5, 5, 21)
    z = np.array([[t, -t], [t ** 2, 3 * t ** 2 + 5], [t ** 3, 2 * t ** 3 + t ** 2 - 0.5 * t]])
    dz = np.array([[np.ones_like(t), -np.ones_like(t)], [2 * t, 6 * t], [3 * t ** 2, 6 * t ** 2 + 2 * t - 0.5]])
    lz = loom.asarray(z, device=device)
    delta = loom.asarray(t[1] - t[0], device=device)
    check(ls.savgol_filter(lz, 7, 3, delta=delta), z, device=device, rtol=1e-10)
    check(ls.savgol_filter(lz, 7, 3, deriv=1, delta=delta), dz, rtol=1e-10)
    check(ls.savgol_filter(loom.moveaxis(lz, -1, 0), 9, 3, axis=0, deriv=1, delta=delta), np.moveaxis(dz, -1, 0),
          rtol=1e-10)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int16])
def test_argrel(device, rng, dtype):
    x = (rng.standard_normal((6, 40)) * 10).astype(dtype)
    x[2, 10:14] = x[2, 12]                                    # a plateau is no extremum
    lx = loom.asarray(x, device=device)
    for axis in (0, 1, -1):
        for order in (1, 2, 5):
            for mode in ("clip", "wrap"):
                for name in ("argrelmin", "argrelmax"):
                    got = getattr(ls, name)(lx, axis=axis, order=order, mode=mode)
                    want = getattr(ss, name)(x, axis=axis, order=order, mode=mode)
                    assert len(got) == len(want)
                    for g, w in zip(got, want):
                        check(g, w, device=device)
            for comparator in (np.greater_equal, loom.less_equal):
                want = ss.argrelextrema(x, np.less_equal if comparator is loom.less_equal else comparator,
                                        axis=axis, order=order)
                for g, w in zip(ls.argrelextrema(lx, comparator, axis=axis, order=order), want):
                    check(g, w, device=device)
    for g, w in zip(ls.argrelmax(lx[0]), ss.argrelmax(x[0])):
        check(g, w)
    for g, w in zip(ls.argrelmin(loom.zeros((3, 0), device=device), axis=1), ss.argrelmin(np.zeros((3, 0)), axis=1)):
        check(g, w)
    for kw in ({"order": 0}, {"order": 1.5}, {"axis": 2}):
        same_error(lambda: ls.argrelmax(lx, **kw), lambda: ss.argrelmax(x, **kw))


def test_sweep_poly(device, rng):
    for dtype in (np.float64, np.float32, np.int64):
        t = (np.linspace(0, 3.0, 500) * (10 if dtype == np.int64 else 1)).astype(dtype)
        lt = loom.asarray(t, device=device)
        for poly, phi in (([1.0, 0.0, 1.0], 0), (np.poly1d(2.0), 30), (np.array([-1.0, 10.0]), -90.0),
                          (np.poly1d([2.0, 1.0, 0.0, -2.0]), 0), (list(rng.uniform(-1, 1, 4)), 12.5)):
            got_poly = loom.asarray(poly, device=device) if isinstance(poly, np.ndarray) else poly
            check(ls.sweep_poly(lt, got_poly, phi), ss.sweep_poly(t, poly, phi), device=device, rtol=1e-6)


WINDOWS = [("barthann", ()), ("bohman", ()), ("chebwin", (50,)), ("chebwin", (30,)), ("chebwin", (-100,)),
           ("exponential", ()), ("exponential", (None, 3.0)), ("taylor", ()), ("taylor", (5, 35, False)),
           ("taylor", (2, 15)), ("lanczos", ())]


@pytest.mark.parametrize("name, params", WINDOWS)
def test_added_windows(device, name, params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")                        # chebwin's warning for small attenuations
        for M in (0, 1, 2, 5, 8, 9, 54, 101):
            for sym in (True, False):
                check(getattr(ls.windows, name)(M, *params, sym=sym, device=device),
                      getattr(ss.windows, name)(M, *params, sym=sym), device=device, rtol=1e-12)
        for fftbins in (True, False):
            spec = (name, *params) if params else name
            check(ls.get_window(spec, 16, fftbins=fftbins, device=device), ss.get_window(spec, 16, fftbins=fftbins),
                  device=device, rtol=1e-12)
        for bad in (5.5, -7):
            same_error(lambda: getattr(ls.windows, name)(bad, *params),
                       lambda: getattr(ss.windows, name)(bad, *params))


def test_exponential_center_and_get_window_names(device):
    check(ls.windows.exponential(7, 2, 0.5, False), ss.windows.exponential(7, 2, 0.5, False))
    same_error(lambda: ls.windows.exponential(7, 2, 0.5, True), lambda: ss.windows.exponential(7, 2, 0.5, True))
    for spec in ("bth", "bmn", ("cheb", 60), "poisson", ("poisson", None, 2.0), "sinc", "taylorwin",
                 ("general_cosine", [0.5, 0.3, 0.2]), ("general hamming", 0.7), "hann_periodic", "hann_symmetric",
                 ("tukey_symmetric", 0.3), ("kaiser", 8.0), 7.2):
        for fftbins in (True, False):
            check(ls.get_window(spec, 12, fftbins=fftbins, device=device), ss.get_window(spec, 12, fftbins=fftbins),
                  device=device, rtol=1e-12)
    for spec, n, kw in (("chebwin", 7, {}), (("hann", 3), 7, {}), ("broken", 4, {}), ({"hann"}, 8, {}),
                        ((3, "hann"), 8, {}), ("hann", 0, {}), ("hann", 8, {"fftbins": 1}), ("general_cosine", 7, {})):
        same_error(lambda: ls.get_window(spec, n, **kw), lambda: ss.get_window(spec, n, **kw))
