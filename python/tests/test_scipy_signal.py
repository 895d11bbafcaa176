"""loom.scipy.signal against scipy.signal on fresh random signals, on every device."""
import warnings

import numpy as np
import pytest
import scipy.signal as ss
from numpy.exceptions import ComplexWarning

import loom
from loom.scipy import signal as ls
from scipy_compare import check, same_error

SHAPES = [((30,), (7,)), ((7,), (30,)), ((9, 8), (3, 4)), ((5, 6, 7), (2, 3, 2)), ((40,), (40,)), ((1,), (1,)),
          ((60,), (45,))]


@pytest.mark.parametrize("shapes", SHAPES)
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("method", ["auto", "direct", "fft"])
def test_convolve_correlate(device, rng, shapes, mode, method):
    a, b = rng.standard_normal(shapes[0]), rng.standard_normal(shapes[1])
    la, lb = loom.asarray(a, device=device), loom.asarray(b, device=device)
    try:
        want = ss.convolve(a, b, mode, method)
    except ValueError:
        same_error(lambda: ls.convolve(la, lb, mode, method), lambda: ss.convolve(a, b, mode, method))
        return
    check(ls.convolve(la, lb, mode, method), want, device=device)
    check(ls.correlate(la, lb, mode, method), ss.correlate(a, b, mode, method), device=device)
    check(ls.fftconvolve(la, lb, mode), ss.fftconvolve(a, b, mode), device=device)
    check(ls.oaconvolve(la, lb, mode), ss.oaconvolve(a, b, mode))


@pytest.mark.parametrize("method", ["auto", "direct", "fft"])
def test_dtypes(device, rng, method):
    ai, bi = rng.integers(-9, 9, 20), rng.integers(-9, 9, 5)
    check(ls.convolve(loom.asarray(ai, device=device), loom.asarray(bi, device=device), method=method),
          ss.convolve(ai, bi, method=method))
    a32, b32 = rng.standard_normal(50).astype(np.float32), rng.standard_normal(9).astype(np.float32)
    check(ls.correlate(loom.asarray(a32, device=device), loom.asarray(b32, device=device), "same", method),
          ss.correlate(a32, b32, "same", method))
    ac = rng.standard_normal(20) + 1j * rng.standard_normal(20)
    bc = rng.standard_normal(6) + 1j * rng.standard_normal(6)
    check(ls.correlate(loom.asarray(ac, device=device), loom.asarray(bc, device=device), method=method),
          ss.correlate(ac, bc, method=method))
    check(ls.fftconvolve(loom.asarray(ai, device=device), loom.asarray(bi, device=device)), ss.fftconvolve(ai, bi))


def test_fftconvolve_axes(device, rng):
    a, b = rng.standard_normal((4, 30)), rng.standard_normal((1, 7))
    for mode in ("full", "same", "valid"):
        check(ls.fftconvolve(loom.asarray(a, device=device), loom.asarray(b, device=device), mode, axes=1),
              ss.fftconvolve(a, b, mode, axes=1))
        check(ls.oaconvolve(loom.asarray(a, device=device), loom.asarray(b, device=device), mode, axes=[1]),
              ss.oaconvolve(a, b, mode, axes=[1]))


@pytest.mark.parametrize("n", [1, 5, 63, 64, 65, 300])
@pytest.mark.parametrize("design", ["butter", "fir", "scaled", "cheby"])
def test_lfilter(device, rng, n, design):
    if design == "butter":
        b, a = ss.butter(4, 0.2)
    elif design == "fir":
        b, a = rng.standard_normal(5), [1.0]
    elif design == "scaled":
        b, a = [1.0, 2.0, 3.0], [2.0, 0.5]
    else:
        b, a = ss.cheby1(3, 1.0, 0.3)
    x = rng.standard_normal((3, n))
    lx = loom.asarray(x, device=device)
    check(ls.lfilter(b, a, lx), ss.lfilter(b, a, x), device=device)
    check(ls.lfilter(b, a, loom.asarray(x.T, device=device), axis=0), ss.lfilter(b, a, x.T, axis=0))
    k = max(len(a), len(b)) - 1
    zi = rng.standard_normal((3, k))
    y, zf = ls.lfilter(b, a, lx, zi=loom.asarray(zi, device=device))
    ry, rzf = ss.lfilter(b, a, x, zi=zi)
    check(y, ry, device=device)
    check(zf, rzf, device=device)


def test_lfilter_dtypes_and_zi(device, rng):
    b, a = ss.butter(3, 0.25)
    x32 = rng.standard_normal(200).astype(np.float32)
    check(ls.lfilter(b, a, loom.asarray(x32, device=device)), ss.lfilter(b, a, x32))
    check(ls.lfilter(b.astype(np.float32), a.astype(np.float32), loom.asarray(x32, device=device)),
          ss.lfilter(b.astype(np.float32), a.astype(np.float32), x32), rtol=1e-4)
    xi = rng.integers(-5, 5, 40)
    check(ls.lfilter(b, a, loom.asarray(xi, device=device)), ss.lfilter(b, a, xi))
    check(ls.lfilter_zi(b, a), ss.lfilter_zi(b, a))
    with pytest.raises(ValueError, match="lfilter_zi"):  # a pure gain has no state (SciPy: ValueError)
        ls.lfilter_zi([2.0], [1.0])
    check(ls.lfilter_zi([1.0, 0.5], [1.0]), ss.lfilter_zi([1.0, 0.5], [1.0]))
    zi = ss.lfilter_zi(b, a) * 0.7
    x = rng.standard_normal((2, 50))
    y, zf = ls.lfilter(b, a, loom.asarray(x, device=device), zi=loom.asarray(zi[None, :] * np.ones((2, 1)), device=device))
    ry, rzf = ss.lfilter(b, a, x, zi=zi[None, :] * np.ones((2, 1)))
    check(y, ry)
    check(zf, rzf)
    # An empty signal leaves the state as it was (SciPy 1.17 returns uninitialized memory as zf).
    y, zf = ls.lfilter(b, a, loom.zeros((2, 0), device=device), zi=loom.ones((2, 3), device=device))
    check(y, np.zeros((2, 0)))
    check(zf, np.ones((2, 3)))


@pytest.mark.parametrize("n", [1, 70, 500])
def test_sosfilt(device, rng, n):
    sos = ss.butter(6, [0.1, 0.4], btype="band", output="sos")
    x = rng.standard_normal((2, n))
    lx = loom.asarray(x, device=device)
    check(ls.sosfilt(sos, lx), ss.sosfilt(sos, x), device=device)
    check(ls.sosfilt(sos, loom.asarray(x.T, device=device), axis=0), ss.sosfilt(sos, x.T, axis=0))
    zi = rng.standard_normal((sos.shape[0], 2, 2))
    y, zf = ls.sosfilt(sos, lx, zi=loom.asarray(zi, device=device))
    ry, rzf = ss.sosfilt(sos, x, zi=zi)
    check(y, ry)
    check(zf, rzf)
    check(ls.sosfilt_zi(sos), ss.sosfilt_zi(sos))


WINDOWS = ["hann", "hamming", "blackman", "boxcar", "triang", "bartlett", ("kaiser", 8.6), ("gaussian", 2.5),
           ("tukey", 0.3), "tukey", ("tukey", 0.0), ("tukey", 1.0), "nuttall", "blackmanharris", "flattop", "cosine",
           "box", "han", 6.0]


@pytest.mark.parametrize("window", WINDOWS, ids=str)
@pytest.mark.parametrize("fftbins", [True, False])
def test_get_window(window, fftbins):
    for n in (1, 2, 7, 16):
        check(ls.get_window(window, n, fftbins=fftbins), ss.get_window(window, n, fftbins=fftbins), rtol=1e-12)


def test_window_functions():
    for name in ("hann", "hamming", "blackman", "boxcar", "triang", "bartlett", "nuttall", "flattop"):
        for m in (0, 1, 6, 9):
            for sym in (True, False):
                check(getattr(ls.windows, name)(m, sym=sym), getattr(ss.windows, name)(m, sym=sym), rtol=1e-12)
    check(ls.windows.kaiser(9, 4.0), ss.windows.kaiser(9, 4.0))
    check(ls.windows.gaussian(10, 1.5, sym=False), ss.windows.gaussian(10, 1.5, sym=False))
    check(ls.windows.general_cosine(8, [0.5, 0.3, 0.2]), ss.windows.general_cosine(8, [0.5, 0.3, 0.2]))


WELCH = [{}, {"nperseg": 100}, {"nperseg": 100, "noverlap": 30, "nfft": 128}, {"average": "median", "nperseg": 64},
         {"scaling": "spectrum", "detrend": "linear", "nperseg": 99}, {"return_onesided": False, "nperseg": 64},
         {"window": "hamming", "nperseg": 50, "fs": 20.0}, {"nperseg": 2000}, {"detrend": False, "nperseg": 33}]


@pytest.mark.parametrize("kw", WELCH, ids=str)
def test_welch(device, rng, kw):
    x = rng.standard_normal((2, 1000))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f, p = ls.welch(loom.asarray(x, device=device), **kw)
        rf, rp = ss.welch(x, **kw)
    check(p, rp, device=device)
    check(f, rf)


def test_welch_axis_dtype_periodogram(device, rng):
    x = rng.standard_normal((300, 3))
    f, p = ls.welch(loom.asarray(x, device=device), axis=0, nperseg=64)
    check(p, ss.welch(x, axis=0, nperseg=64)[1])
    x32 = x.T.astype(np.float32)
    check(ls.welch(loom.asarray(x32, device=device), nperseg=64)[1], ss.welch(x32, nperseg=64)[1])
    check(ls.periodogram(loom.asarray(x.T, device=device))[1], ss.periodogram(x.T)[1])
    check(ls.periodogram(loom.asarray(x.T, device=device), window="hann", scaling="spectrum")[1],
          ss.periodogram(x.T, window="hann", scaling="spectrum")[1])


STFT = [{}, {"nperseg": 100}, {"nperseg": 64, "boundary": "even"}, {"nperseg": 64, "boundary": "odd"},
        {"nperseg": 64, "boundary": "constant"}, {"nperseg": 64, "boundary": None, "padded": False},
        {"nperseg": 50, "scaling": "psd", "noverlap": 10}, {"nperseg": 32, "return_onesided": False},
        {"nperseg": 40, "detrend": "constant", "nfft": 64}]


@pytest.mark.parametrize("kw", STFT, ids=str)
def test_stft(device, rng, kw):
    x = rng.standard_normal((2, 700))
    f, t, z = ls.stft(loom.asarray(x, device=device), **kw)
    rf, rt, rz = ss.stft(x, **kw)
    check(z, rz, device=device)
    check(t, rt)
    check(f, rf)


def test_stft_axis_and_dtype(device, rng):
    x = rng.standard_normal((300, 3))
    check(ls.stft(loom.asarray(x, device=device), axis=0, nperseg=64)[2], ss.stft(x, axis=0, nperseg=64)[2])
    x32 = x.T.astype(np.float32)
    check(ls.stft(loom.asarray(x32, device=device), nperseg=64)[2], ss.stft(x32, nperseg=64)[2])


def test_errors(device):
    one, two = np.ones(2), np.ones(3)
    l1, l2 = loom.asarray(one, device=device), loom.asarray(two, device=device)
    same_error(lambda: ls.convolve(loom.ones((2, 2), device=device), l1), lambda: ss.convolve(np.ones((2, 2)), one))
    assert "mode" in str(same_error(lambda: ls.convolve(l1, l2, mode="bad"), lambda: ss.convolve(one, two, mode="bad")))
    assert "method" in str(same_error(lambda: ls.convolve(l1, l2, method="bad"), lambda: ss.convolve(one, two, method="bad")))
    same_error(lambda: ls.convolve(loom.ones((2, 3), device=device), loom.ones((3, 2), device=device), mode="valid"),
               lambda: ss.convolve(np.ones((2, 3)), np.ones((3, 2)), mode="valid"))
    same_error(lambda: ls.fftconvolve(loom.ones((2, 2), device=device), l1), lambda: ss.fftconvolve(np.ones((2, 2)), one))
    assert "zi" in str(same_error(lambda: ls.lfilter([1, 1], [1], l2, zi=l2), lambda: ss.lfilter([1, 1], [1], two, zi=two)))
    assert "b" in str(same_error(lambda: ls.lfilter([], [1], l2), lambda: ss.lfilter([], [1], two)))
    assert "sos" in str(same_error(lambda: ls.sosfilt(np.ones((2, 5)), l2), lambda: ss.sosfilt(np.ones((2, 5)), two)))
    bad = np.array([[1.0, 2, 3, 2, 4, 5]])
    assert "sos" in str(same_error(lambda: ls.sosfilt(bad, l2), lambda: ss.sosfilt(bad, two)))
    assert "window" in str(same_error(lambda: ls.get_window("kaiser", 5), lambda: ss.get_window("kaiser", 5)))
    assert "foo" in str(same_error(lambda: ls.get_window("foo", 5), lambda: ss.get_window("foo", 5)))
    assert "Nx" in str(same_error(lambda: ls.get_window("hann", 0), lambda: ss.get_window("hann", 0)))
    same_error(lambda: ls.windows.hann(-1), lambda: ss.windows.hann(-1))
    assert "noverlap" in str(same_error(lambda: ls.welch(loom.ones(10, device=device), noverlap=300),
                                        lambda: ss.welch(np.ones(10), noverlap=300)))
    same_error(lambda: ls.welch(loom.ones(100, device=device), nperseg=20, average="max"),
               lambda: ss.welch(np.ones(100), nperseg=20, average="max"))
    same_error(lambda: ls.stft(loom.ones(10, device=device), nperseg=4, boundary="bad"),
               lambda: ss.stft(np.ones(10), nperseg=4, boundary="bad"))


@pytest.mark.parametrize("padtype", ["odd", "even", "constant", None])
@pytest.mark.parametrize("shape, axis", [((100,), -1), ((3, 80), -1), ((60, 4), 0)])
def test_filtfilt_and_sosfiltfilt(device, rng, padtype, shape, axis):
    b, a = ss.butter(4, 0.2)
    sos = ss.butter(4, 0.2, output="sos")
    x = rng.standard_normal(shape)
    lx = loom.asarray(x, device=device)
    check(ls.filtfilt(b, a, lx, axis=axis, padtype=padtype), ss.filtfilt(b, a, x, axis=axis, padtype=padtype),
          device=device)
    check(ls.sosfiltfilt(sos, lx, axis=axis, padtype=padtype), ss.sosfiltfilt(sos, x, axis=axis, padtype=padtype),
          device=device)
    check(ls.filtfilt(b, a, lx, axis=axis, padlen=5), ss.filtfilt(b, a, x, axis=axis, padlen=5), device=device)
    same_error(lambda: ls.filtfilt(b, a, loom.ones(10, device=device)), lambda: ss.filtfilt(b, a, np.ones(10)))
    same_error(lambda: ls.filtfilt(b, a, lx, axis=axis, method="bad"), lambda: ss.filtfilt(b, a, x, axis=axis, method="bad"))


@pytest.mark.parametrize("design", ["butter3", "cheby4", "fir", "gain", "complex"])
@pytest.mark.parametrize("shape, axis", [((250,), -1), ((3, 120), -1), ((40, 3), 0), ((3, 4, 30), 1), ((2,), 0)])
@pytest.mark.parametrize("irlen", [None, 10, 200])
def test_filtfilt_gust(device, rng, design, shape, axis, irlen):
    b, a = {"butter3": ss.butter(3, 0.2), "cheby4": ss.cheby1(4, 1, 0.3), "fir": ([0.5, 0.3, 0.2], [1.0]),
            "gain": ([3.0], [2.0]), "complex": (ss.butter(2, 0.1)[0] * (1 + 0.5j), ss.butter(2, 0.1)[1])}[design]
    x = rng.standard_normal(shape)
    lx = loom.asarray(x, device=device)
    if design == "complex" and shape[axis] > 1:
        # SciPy builds its zero-input responses in a float64 array: complex coefficients lose
        # their imaginary part there, with NumPy's warning; loom gives the same numbers and warning.
        with pytest.warns(ComplexWarning):
            want = ss.filtfilt(b, a, x, axis=axis, method="gust", irlen=irlen)
        with pytest.warns(ComplexWarning, match="discards the imaginary part"):
            got = ls.filtfilt(b, a, lx, axis=axis, method="gust", irlen=irlen)
    else:
        want = ss.filtfilt(b, a, x, axis=axis, method="gust", irlen=irlen)
        got = ls.filtfilt(b, a, lx, axis=axis, method="gust", irlen=irlen)
    check(got, want, device=device, rtol=1e-9)


@pytest.mark.parametrize("n, up, down, nh", [(10, 3, 2, 3), (7, 1, 1, 4), (12, 2, 5, 7), (1, 4, 1, 2), (20, 1, 3, 5)])
def test_upfirdn(device, rng, n, up, down, nh):
    x, h = rng.standard_normal((3, n)), rng.standard_normal(nh)
    check(ls.upfirdn(h, loom.asarray(x, device=device), up, down), ss.upfirdn(h, x, up, down), device=device)
    check(ls.upfirdn(h, loom.asarray(x.T, device=device), up, down, axis=0), ss.upfirdn(h, x.T, up, down, axis=0),
          device=device)
    f32 = x.astype(np.float32)
    assert ls.upfirdn(h.astype(np.float32), loom.asarray(f32, device=device), up, down).dtype == \
        ss.upfirdn(h.astype(np.float32), f32, up, down).dtype
    same_error(lambda: ls.upfirdn(h, loom.asarray(x, device=device), 0), lambda: ss.upfirdn(h, x, 0))
    with pytest.raises(NotImplementedError, match="upfirdn"):
        ls.upfirdn(h, loom.asarray(x, device=device), mode="wrap")


@pytest.mark.parametrize("shapes", [((6, 7), (3, 2)), ((5, 5), (4, 4)), ((3, 4), (5, 6)), ((8, 3), (2, 5))])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("boundary, fillvalue", [("fill", 0), ("fill", 2.5), ("wrap", 0), ("symm", 0)])
def test_convolve2d_correlate2d(device, rng, shapes, mode, boundary, fillvalue):
    a = rng.standard_normal(shapes[0]) + 1j * rng.standard_normal(shapes[0])
    k = rng.standard_normal(shapes[1]) + 0.5j * rng.standard_normal(shapes[1])
    la, lk = loom.asarray(a, device=device), loom.asarray(k, device=device)
    for name in ("convolve2d", "correlate2d"):
        try:
            want = getattr(ss, name)(a, k, mode, boundary, fillvalue)
        except ValueError:
            same_error(lambda: getattr(ls, name)(la, lk, mode, boundary, fillvalue),
                       lambda: getattr(ss, name)(a, k, mode, boundary, fillvalue))
            continue
        check(getattr(ls, name)(la, lk, mode, boundary, fillvalue), want, device=device)
