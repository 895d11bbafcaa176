"""resample (Fourier method), resample_poly (polyphase, over upfirdn) and decimate
(scipy.signal), on the signal's device; the anti-aliasing filters (firwin, cheby1) are designed
by SciPy on the host, a few coefficients."""
import math
import operator

import numpy as np

import loom

from .. import _util
from ._design import _scipy_signal
from ._filtfilt import filtfilt, sosfiltfilt
from ._lfilter import lfilter, sosfilt
from ._upfirdn import upfirdn
from .windows import get_window

_UPFIRDN_MODES = ("constant", "wrap", "edge", "smooth", "symmetric", "reflect", "antisymmetric", "antireflect",
                  "line")


def _spectral_window(window, n, device):
    """resample's weights of the n FFT bins, in the FFT's order (zero frequency first)."""
    if window is None:
        return None
    if callable(window):
        return _util.asarray(window(loom.fft.fftfreq(n, device=device)))
    if hasattr(window, "shape"):
        if tuple(window.shape) != (n,):
            raise ValueError(f"window.shape={tuple(window.shape)} != ({n},), i.e., window length is not equal to "
                             "number of frequency bins!")
        return window if isinstance(window, loom.ndarray) else loom.asarray(np.asarray(window), device=device)
    return loom.fft.fftshift(get_window(window, n, device=device))


def _resample_real(x, num, weights):
    """The rfft route for a real signal along the last axis."""
    n_x = x.shape[-1]
    m = min(num, n_x)
    X = loom.fft.rfft(x)
    if weights is not None:
        # a real signal's spectrum is Hermitian: weigh bin l by the mean of W[l] and W[-l]
        n_X = X.shape[-1]
        folded = weights[:n_X]
        if n_X > 1:
            folded = loom.concatenate([weights[:1], (weights[1:n_X] + loom.flip(weights[n_x - n_X + 1:])) / 2])
        X = (X * folded).astype(X.dtype)
    X = X[..., :m // 2 + 1]
    if m % 2 == 0 and num != n_x:
        # the unpaired bin at m // 2 stands for two bins of the longer signal
        factor = np.ones(m // 2 + 1)
        factor[m // 2] = 2.0 if num < n_x else 0.5
        X = X * loom.asarray(factor, device=x.device).astype(X.real.dtype)
    return loom.fft.irfft(X / (n_x / num), n=num)


def _resample_complex(X, num, n_x, weights):
    """The two-sided route from the spectrum X along the last axis."""
    if weights is not None:
        X = X * weights
    m = min(num, n_x)
    m2 = m // 2 + 1
    Y = loom.zeros(X.shape[:-1] + (num,), dtype=X.dtype, device=X.device)
    Y[..., :m2] = X[..., :m2]
    if m2 < m:
        Y[..., num + m2 - m:] = X[..., n_x + m2 - m:]
    if m % 2 == 0:
        if num < n_x:      # down: the bin pair of the longer spectrum becomes one unpaired bin
            Y[..., num - m // 2] = Y[..., num - m // 2] + X[..., n_x - m // 2]
        elif n_x < num:    # up: the unpaired bin splits into a pair
            Y[..., m // 2] = Y[..., m // 2] / 2
            Y[..., num - m // 2] = Y[..., m // 2]
    return loom.fft.ifft(Y / (n_x / num), n=num)


def resample(x, num, t=None, axis=0, window=None, domain="time"):
    """x resampled to num samples along axis by the Fourier method, the signal taken as
    periodic (scipy.signal.resample); with t (the sample positions) also the new positions."""
    if domain not in ("time", "freq"):
        raise ValueError(f"Parameter domain={domain!r} not in ('time', 'freq')!")
    x = _util.asarray(x)
    if x.ndim > 1:
        x = loom.moveaxis(x, axis, -1)
    n_x = x.shape[-1]
    weights = _spectral_window(window, n_x, x.device)
    if domain == "time" and x.dtype.kind != "c":
        y = _resample_real(_util.inexact(x), num, weights)
    else:
        X = loom.fft.fft(x) if domain == "time" else _util.inexact(x)
        y = _resample_complex(X, num, n_x, weights)
    if y.ndim > 1:
        y = loom.moveaxis(y, -1, axis)
    if t is None:
        return y
    t = t if isinstance(t, loom.ndarray) else loom.asarray(np.asarray(t), device=y.device)
    return y, t[0] + (t[1] - t[0]) * (n_x / num) * loom.arange(num, device=t.device)


def _output_len(len_h, n_in, up, down):
    return ((n_in - 1) * up + len_h - 1) // down + 1


def _as_numpy_dtype(dtype):
    try:
        return np.dtype(dtype.name)
    except TypeError:
        return np.dtype(np.float32)


def resample_poly(x, up, down, axis=0, window=("kaiser", 5.0), padtype="constant", cval=None):
    """x resampled by up / down along axis: zero-stuffed by up, low-pass FIR filtered, kept
    every down-th sample (scipy.signal.resample_poly). window: the FIR taps, or the window
    designing them (firwin). loom's upfirdn has padtype 'constant' with cval 0 and the
    background padtypes ('mean', 'median', 'minimum', 'maximum')."""
    x = _util.asarray(x)
    if up != int(up):
        raise ValueError("up must be an integer")
    if down != int(down):
        raise ValueError("down must be an integer")
    up, down = int(up), int(down)
    if up < 1 or down < 1:
        raise ValueError("up and down must be >= 1")
    if cval is not None and padtype != "constant":
        raise ValueError("cval has no effect when padtype is ", padtype)
    common = math.gcd(up, down)
    up, down = up // common, down // common
    if up == down == 1:
        return loom.copy(x)
    n_in = x.shape[axis]
    n_out = n_in * up
    n_out = n_out // down + bool(n_out % down)
    if isinstance(window, (list, np.ndarray, loom.ndarray)):
        h = np.array(window.numpy() if isinstance(window, loom.ndarray) else window)
        if h.ndim > 1:
            raise ValueError("window must be 1-D")
        half_len = (h.size - 1) // 2
    else:
        half_len = 10 * max(up, down)       # a sinc-like filter's reasonable cut
        h = _scipy_signal("resample_poly").firwin(2 * half_len + 1, 1.0 / max(up, down), window=window)
        if x.dtype.kind in "fc":
            h = h.astype(_as_numpy_dtype(x.dtype))
    h = h * up
    # pad the taps so that the output starts at the first input sample and has n_out samples
    n_pre_pad = down - half_len % down
    n_post_pad = 0
    n_pre_remove = (half_len + n_pre_pad) // down
    while _output_len(h.shape[0] + n_pre_pad + n_post_pad, n_in, up, down) < n_out + n_pre_remove:
        n_post_pad += 1
    h = np.concatenate([np.zeros(n_pre_pad, h.dtype), h, np.zeros(n_post_pad, h.dtype)])
    backgrounds = {"mean": loom.mean, "median": loom.median, "minimum": loom.min, "maximum": loom.max}
    if padtype in backgrounds:
        background = backgrounds[padtype](x, axis=axis, keepdims=True)
        y = upfirdn(h, x - background, up, down, axis=axis)
    elif padtype in _UPFIRDN_MODES:
        y = upfirdn(h, x, up, down, axis=axis, mode=padtype, cval=0 if cval is None else cval)
        background = None
    else:
        raise ValueError("padtype must be one of: maximum, mean, median, minimum, " + ", ".join(_UPFIRDN_MODES))
    index = [slice(None)] * y.ndim
    index[_util.normalize_axis(axis, y.ndim)] = slice(n_pre_remove, n_pre_remove + n_out)
    y = y[tuple(index)]
    if background is not None:
        y = y + background
    return loom.ascontiguousarray(y)


def _dlti_filter(system, result_type):
    """decimate's filter from a scipy.signal.dlti: ('fir', b, a), ('sos', sos) or ('ba', b, a)."""
    zpk = system._as_zpk()
    if zpk.poles.shape[0] == 0:
        tf = system._as_tf()
        return "fir", tf.num, tf.den
    if np.any(np.iscomplex(zpk.poles)) or np.iscomplex(zpk.gain):
        tf = system._as_tf()
        return "ba", tf.num, tf.den
    sos = _scipy_signal("decimate").zpk2sos(zpk.zeros, zpk.poles, zpk.gain)
    return "sos", np.asarray(sos, dtype=result_type)


def decimate(x, q, n=None, ftype="iir", axis=-1, zero_phase=True):
    """x downsampled by the integer q along axis after an anti-aliasing filter: an order-8
    Chebyshev I ('iir'), a Hamming-windowed FIR ('fir') or a scipy.signal.dlti
    (scipy.signal.decimate)."""
    x = _util.asarray(x)
    q = operator.index(q)
    if n is not None:
        n = operator.index(n)
    result_type = np.float64
    if x.dtype.kind in "fc" and x.dtype not in (loom.float16, loom.bfloat16):
        result_type = _as_numpy_dtype(x.dtype)
    signal = _scipy_signal("decimate")
    if isinstance(ftype, str) and ftype == "fir":
        taps = signal.firwin((20 * q if n is None else n) + 1, 1.0 / q, window="hamming")
        design = ("fir", taps.astype(result_type), np.ones(1, result_type))
    elif isinstance(ftype, str) and ftype == "iir":
        sos = signal.cheby1(8 if n is None else n, 0.05, 0.8 / q, output="sos")
        design = ("sos", np.asarray(sos, dtype=result_type))
    elif hasattr(ftype, "_as_zpk"):
        design = _dlti_filter(ftype, result_type)
    else:
        raise ValueError("invalid ftype")
    axis = _util.normalize_axis(axis, x.ndim)
    index = [slice(None)] * x.ndim
    if design[0] == "fir":
        b = design[1] / design[2]
        if zero_phase:
            return resample_poly(x, 1, q, axis=axis, window=b)
        y = upfirdn(b, x, up=1, down=q, axis=axis)
        index[axis] = slice(None, x.shape[axis] // q + bool(x.shape[axis] % q))
    else:
        if design[0] == "sos":
            y = (sosfiltfilt if zero_phase else sosfilt)(design[1], x, axis=axis)
        else:
            y = filtfilt(design[1], design[2], x, axis=axis) if zero_phase else lfilter(design[1], design[2], x,
                                                                                          axis=axis)
        index[axis] = slice(None, None, q)
    return loom.ascontiguousarray(y[tuple(index)])
