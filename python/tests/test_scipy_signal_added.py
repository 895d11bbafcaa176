"""loom.scipy.signal's chirp z-transform, cross spectra, inverse STFT and the periodicity
measures (czt, zoom_fft, czt_points, CZT, ZoomFFT, csd, coherence, istft, check_COLA,
check_NOLA, lombscargle, vectorstrength) against scipy.signal on fresh random data, on every
device."""
import warnings

import numpy as np
import pytest
import scipy.signal as ss

import loom
from loom.scipy import signal as ls
from scipy_compare import check, same_error


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.int32])
def test_czt(device, rng, dtype):
    for shape, axis in (((37,), -1), ((3, 50), -1), ((20, 4), 0), ((2, 3, 16), 1)):
        x = (rng.standard_normal(shape) * 5).astype(dtype)
        if np.dtype(dtype).kind == "c":
            x = x + 1j * rng.standard_normal(shape)
        lx = loom.asarray(x, device=device)
        n = shape[axis]
        for kw in ({}, {"m": 3 * n + 1}, {"m": 7, "w": 0.98534 + 0.17055j, "a": 1.1},
                   {"w": np.exp(-0.07j), "a": rng.uniform(0.8, 1.2) * np.exp(0.3j)}, {"m": n + 5, "a": 2}):
            check(ls.czt(lx, axis=axis, **kw), ss.czt(x, axis=axis, **kw), device=device, rtol=1e-9)
        for fn, kw in (([0.1, 0.7], {}), (1.3, {"endpoint": True}), ([2.0, 9.0], {"m": 40, "fs": 20}),
                       ([-0.5, 0.5], {"m": n + 3, "endpoint": True})):
            check(ls.zoom_fft(lx, fn, axis=axis, **kw), ss.zoom_fft(x, fn, axis=axis, **kw), device=device,
                  rtol=1e-9)


def test_czt_equals_the_fft_and_plans_are_reusable(device, rng):
    x = rng.standard_normal((4, 257))
    lx = loom.asarray(x, device=device)
    check(ls.czt(lx), np.fft.fft(x), device=device, rtol=1e-10)
    kw = dict(m=40, w=np.exp(-0.01j), a=np.exp(0.2j))
    plan, want = ls.CZT(257, **kw), ss.CZT(257, **kw)
    for _ in range(2):
        check(plan(lx), want(x), device=device, rtol=1e-10)
        check(plan(lx.T, axis=0), want(x.T, axis=0), device=device, rtol=1e-10)
    check(plan.points(), want.points())
    zoom, zoom_want = ls.ZoomFFT(257, [0.2, 0.4], m=33, fs=2), ss.ZoomFFT(257, [0.2, 0.4], m=33, fs=2)
    check(zoom(lx), zoom_want(x), device=device, rtol=1e-10)
    check(zoom.points(), zoom_want.points())


def test_czt_points(rng):
    for args in ((1,), (7,), (11, 2), (11, 2, 1), (10, None, 0.5 + 0.5j), (9, rng.uniform(0.9, 1.1) * np.exp(0.1j))):
        check(ls.czt_points(*args), ss.czt_points(*args), rtol=1e-14)


def test_czt_errors(device):
    lx = loom.asarray([1.0, 2.0, 3.0], device=device)
    for size in (0, -5, 3.5, 4.0):
        for call in (lambda m: m.CZT(size, 3), lambda m: m.CZT(3, size), lambda m: m.ZoomFFT(size, 0.2, 3),
                     lambda m: m.ZoomFFT(3, 0.2, size), lambda m: m.czt_points(size)):
            assert "Invalid number of CZT" in str(same_error(lambda: call(ls), lambda: call(ss)))
        assert "Invalid number of CZT" in str(same_error(lambda: ls.czt(lx, size), lambda: ss.czt([1.0, 2, 3], size)))
    same_error(lambda: ls.ZoomFFT(100, [1, 2, 3]), lambda: ss.ZoomFFT(100, [1, 2, 3]))
    same_error(lambda: ls.czt(loom.asarray(5.0, device=device)), lambda: ss.czt(5.0))
    same_error(lambda: ls.czt(loom.zeros(0, device=device)), lambda: ss.czt([]))
    same_error(lambda: ls.CZT(4)(lx), lambda: ss.CZT(4)([1.0, 2, 3]))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex64, np.int16])
def test_csd_and_coherence(device, rng, dtype):
    x = (rng.standard_normal((3, 300)) * 4).astype(dtype)
    y = (rng.standard_normal((3, 300)) * 4).astype(dtype)
    lx, ly = loom.asarray(x, device=device), loom.asarray(y, device=device)
    rtol = 1e-4 if np.dtype(dtype) in (np.float32, np.complex64, np.int16) else 1e-9   # int16: float32 results
    for kw in ({}, {"nperseg": 64}, {"nperseg": 50, "noverlap": 10, "nfft": 80, "scaling": "spectrum"},
               {"nperseg": 32, "average": "median", "detrend": "linear"}, {"nperseg": 40, "return_onesided": False},
               {"window": ("tukey", 0.3), "nperseg": 60, "fs": 10.0, "detrend": False}):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            f, p = ls.csd(lx, ly, **kw)
            want_f, want_p = ss.csd(x, y, **kw)
        check(f, want_f, device=device)
        check(p, want_p, device=device, rtol=rtol)
    f, p = ls.csd(lx, lx, nperseg=64)                 # y is x: the real power spectrum
    check(p, ss.csd(x, x, nperseg=64)[1], device=device, rtol=rtol)
    if np.dtype(dtype).kind != "c":
        f, c = ls.coherence(lx, ly, nperseg=32)
        check(c, ss.coherence(x, y, nperseg=32)[1], device=device, rtol=rtol)
        check(ls.coherence(lx[0], ly, nperseg=20, axis=-1)[1], ss.coherence(x[0], y, nperseg=20)[1], rtol=rtol)


def test_csd_shapes_and_errors(device, rng):
    x, y = rng.standard_normal((2, 100)), rng.standard_normal((2, 70))
    lx, ly = loom.asarray(x, device=device), loom.asarray(y, device=device)
    check(ls.csd(lx, ly, nperseg=32)[1], ss.csd(x, y, nperseg=32)[1], device=device)   # y zero-padded
    check(ls.csd(lx.T, ly.T, nperseg=32, axis=0)[1], ss.csd(x.T, y.T, nperseg=32, axis=0)[1])
    for a, b in (((0,), (0,)), ((10,), (5, 0)), ((5, 0), (10,)), ((3, 0), (3, 0))):
        got = ls.csd(loom.ones(a, device=device), loom.ones(b, device=device))
        want = ss.csd(np.ones(a), np.ones(b))
        for g, w in zip(got, want):
            check(g, w, device=device)
    z = loom.zeros(4, device=device)
    for kw in ({"scaling": "foo", "nperseg": 4}, {"window": "hann", "nperseg": 2, "noverlap": 7},
               {"nfft": 3, "nperseg": 4}, {"window": np.arange(6.0).reshape(2, 3)}, {"nperseg": 2, "average": "max"}):
        same_error(lambda: ls.csd(z, loom.ones(4, device=device) + 0, **kw),
                   lambda: ss.csd(np.zeros(4), np.ones(4), **kw))
    same_error(lambda: ls.csd(loom.ones((3, 8), device=device), loom.ones((4, 8), device=device)),
               lambda: ss.csd(np.ones((3, 8)), np.ones((4, 8))))


@pytest.mark.parametrize("settings", [("boxcar", 100, 10, 0), ("boxcar", 100, 10, 9), ("bartlett", 101, 51, 26),
                                      ("hann", 1024, 256, 128), (("tukey", 0.5), 1152, 256, 64),
                                      ("hann", 300, 64, 63)])
@pytest.mark.parametrize("scaling", ["spectrum", "psd"])
def test_istft_roundtrip(device, rng, settings, scaling):
    window, n, nperseg, noverlap = settings
    x = rng.standard_normal(n)
    kw = dict(nperseg=nperseg, noverlap=noverlap, window=window, scaling=scaling)
    _, _, z = ss.stft(x, detrend=None, padded=False, **kw)
    lz = loom.asarray(z, device=device)
    t, xr = ls.istft(lz, **kw)
    want_t, want_x = ss.istft(z, **kw)
    check(t, want_t, device=device)
    check(xr, want_x, device=device, rtol=1e-10)
    xc = x + 1j * rng.standard_normal(n)
    _, _, zc = ss.stft(xc, return_onesided=False, **kw)
    check(ls.istft(loom.asarray(zc, device=device), input_onesided=False, **kw)[1],
          ss.istft(zc, input_onesided=False, **kw)[1], device=device, rtol=1e-10)
    # loom's own stft inverts too
    _, _, lz = ls.stft(loom.asarray(x, device=device), **kw)
    check(ls.istft(lz, **kw)[1], ss.istft(ss.stft(x, **kw)[2], **kw)[1], rtol=1e-10)


def test_istft_axes_dtypes_and_options(device, rng):
    x = rng.standard_normal((2, 3, 400))
    _, _, z = ss.stft(x, nperseg=64)                           # (2, 3, 33, segments)
    for zz, kw in ((z, {}), (np.moveaxis(z, -1, 0), {"time_axis": 0, "freq_axis": -1}),
                   (np.moveaxis(z, 2, 0), {"freq_axis": 0}), (z, {"boundary": False}),
                   (z.astype(np.complex64), {}), (z, {"nfft": 70, "nperseg": 64, "window": "hamming"}),
                   (z, {"fs": 8.0, "noverlap": 16})):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got_t, got_x = ls.istft(loom.asarray(zz, device=device), **kw)
            want_t, want_x = ss.istft(zz, **kw)
        check(got_t, want_t, device=device)
        check(got_x, want_x, device=device, rtol=1e-4 if zz.dtype == np.complex64 else 1e-10)
    _, _, z1 = ss.stft(rng.standard_normal(200), nperseg=31, nfft=40)
    check(ls.istft(loom.asarray(z1, device=device), nperseg=31, nfft=40)[1], ss.istft(z1, nperseg=31, nfft=40)[1])
    lz = loom.asarray(z, device=device)
    for kw in ({"nperseg": 0}, {"noverlap": 64}, {"nfft": 10, "nperseg": 64}, {"time_axis": 1, "freq_axis": 1},
               {"window": np.ones((2, 32))}, {"window": np.ones(10)}, {"scaling": "power"}):
        same_error(lambda: ls.istft(lz, **kw), lambda: ss.istft(z, **kw))
    same_error(lambda: ls.istft(lz[0, 0, 0]), lambda: ss.istft(z[0, 0, 0]))
    with pytest.warns(UserWarning, match="NOLA"):                 # a window with zeros at the overlap
        ls.istft(lz, window=np.r_[np.ones(32), np.zeros(32)], noverlap=0)


def test_check_cola_nola(device):
    settings = [("boxcar", 10, 0), ("boxcar", 10, 9), ("boxcar", 10, 7), ("bartlett", 51, 26), ("bartlett", 51, 10),
                ("hann", 256, 128), ("hann", 256, 192), ("hann", 256, 37), ("blackman", 300, 200),
                (("tukey", 0.5), 256, 64), (("tukey", 0.5), 256, 38), ("hann", 256, 255), ("hann", 64, 0)]
    for setting in settings:
        assert ls.check_COLA(*setting) == ss.check_COLA(*setting), setting
        assert ls.check_NOLA(*setting) == ss.check_NOLA(*setting), setting
    w = np.ones(16)
    w[::2] = 0
    assert ls.check_NOLA(loom.asarray(w, device=device), 16, 8) == ss.check_NOLA(w, 16, 8)
    for args in (("hann", 0, 0), ("hann", 8, 8), ("hann", 8, -1), (np.ones(7), 8, 2), (np.ones((2, 4)), 8, 2)):
        same_error(lambda: ls.check_NOLA(*args), lambda: ss.check_NOLA(*args))
        if args[2] >= 0:
            same_error(lambda: ls.check_COLA(*args), lambda: ss.check_COLA(*args))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_lombscargle(device, rng, dtype):
    t = np.sort(rng.uniform(0, 10 * np.pi, 70)).astype(dtype)
    y = (2 * np.sin(1.3 * t + 0.5) + 0.3 + 0.2 * rng.standard_normal(70)).astype(dtype)
    f = np.linspace(0.01, 10, 300).astype(dtype)
    weights = rng.uniform(0.1, 2.0, 70)
    lt, ly, lf = (loom.asarray(v, device=device) for v in (t, y, f))
    for kw in ({}, {"normalize": True}, {"normalize": "amplitude"}, {"floating_mean": True},
               {"weights": weights, "floating_mean": True, "normalize": "normalize"}):
        check(ls.lombscargle(lt, ly, lf, **kw), ss.lombscargle(t, y, f, **kw), device=device, rtol=1e-8)
    with pytest.warns(DeprecationWarning):
        got = ls.lombscargle(lt, ly, lf, precenter=True)
    with pytest.warns(DeprecationWarning):
        want = ss.lombscargle(t, y, f, precenter=True)
    check(got, want, rtol=1e-8)
    check(ls.lombscargle(lt, ly, lf[:1]), ss.lombscargle(t, y, f[:1]), rtol=1e-8)    # one frequency: 0-d
    for args, kw in (((t[:5], y, f), {}), ((t, y, f.reshape(2, -1)), {}), ((t, y, f[:0]), {}),
                     ((t, y, f), {"normalize": "both"}), ((t, y, f), {"weights": -weights})):
        same_error(lambda: ls.lombscargle(*(loom.asarray(a, device=device) for a in args), **kw),
                   lambda: ss.lombscargle(*args, **kw))


def test_vectorstrength(device, rng):
    events = rng.uniform(0, 20, 50)
    le = loom.asarray(events, device=device)
    for period in (1.0, 3, [1.0, 2.5, 0.7], rng.uniform(0.5, 4, 6), np.float32(2.0)):
        got, want = ls.vectorstrength(le, period), ss.vectorstrength(events, period)
        for g, w in zip(got, want):
            check(g, w, device=device, rtol=1e-4 if np.asarray(w).dtype == np.float32 else 1e-9)
    check(ls.vectorstrength(le, loom.asarray(np.array([1.5, 2.0], np.float32), device=device))[0],
          ss.vectorstrength(events, np.array([1.5, 2.0], np.float32))[0], rtol=1e-4)
    for ev, period in (([[1.0, 2.0]], 1.0), (1.0, [[1.0]]), (1.0, 0), (1.0, -1), (events, [1.0, -2.0])):
        same_error(lambda: ls.vectorstrength(loom.asarray(ev, device=device), period),
                   lambda: ss.vectorstrength(ev, period))
