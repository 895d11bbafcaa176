"""welch, periodogram, stft (scipy.signal) and the segment machinery csd shares
(_spectral_more.py): overlapping segments gathered with one index table (from the shapes),
detrended, windowed and transformed by loom.fft on the signal's device."""
import warnings

import numpy as np

import loom

from .. import _util
from .windows import get_window


def _window(window, nperseg, device):
    if isinstance(window, (str, tuple)):
        return get_window(window, nperseg, device=device)
    win = _util.asarray(window)
    if win.ndim != 1:
        raise ValueError("window must be 1-D")
    if win.shape[0] != nperseg:
        raise ValueError("value specified for nperseg is different from length of window")
    return win


def _detrend(seg, detrend):
    if detrend is False or detrend is None:
        return seg
    if callable(detrend):
        return detrend(seg)
    if detrend == "constant":
        return seg - loom.mean(seg, axis=-1, keepdims=True)
    if detrend == "linear":
        n = seg.shape[-1]
        t = loom.arange(n, dtype=seg.real.dtype, device=seg.device) - (n - 1) / 2.0
        denom = loom.sum(t * t)
        slope = loom.sum(seg * t, axis=-1, keepdims=True) / loom.where(denom == 0, 1.0, denom)
        return seg - loom.mean(seg, axis=-1, keepdims=True) - slope * t
    raise ValueError(f"Unknown value for detrend: {detrend!r}")


def _median_bias(n):
    ii = np.arange(1, (n - 1) // 2 + 1)
    return 1 + np.sum(1.0 / (ii * 2 + 1) - 1.0 / (ii * 2))


def _as_signal(x, axis):
    """x as an inexact loom array with `axis` moved last (a 0-d x as one sample), and the axis.
    Integers become the real type of their promotion with complex64, as in SciPy: float32
    for 8- and 16-bit ones, float64 for wider ones."""
    x = _util.asarray(x)
    if x.dtype.kind in "biu":
        x = x.astype(loom.float32 if loom.result_type(x.dtype, loom.complex64) == loom.complex64 else loom.float64)
    axis = _util.normalize_axis(axis, max(x.ndim, 1))
    return (loom.moveaxis(x, axis, -1) if x.ndim else x.reshape(1)), axis


def _extend_boundary(x, boundary, nperseg):
    ext = nperseg // 2
    pad = [(0, 0)] * (x.ndim - 1) + [(ext, ext)]
    if boundary == "zeros":
        return loom.pad(x, pad)
    if boundary == "constant":
        return loom.pad(x, pad, mode="edge")
    if boundary == "even":
        return loom.pad(x, pad, mode="reflect")
    if boundary == "odd":
        return 2 * loom.pad(x, pad, mode="edge") - loom.pad(x, pad, mode="reflect")
    raise ValueError(f"Unknown boundary option '{boundary}', must be one of: "
                     "['even', 'odd', 'constant', 'zeros', None]")


def _empty_pair(x):
    """SciPy's answer to an empty signal: two empty float64 arrays of its shape."""
    empty = loom.empty(x.shape, dtype=loom.float64, device=x.device)
    return empty, empty


def _helper(x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis, mode,
            boundary=None, padded=False, default_nperseg=256, y=None):
    """(freqs, times, result (..., freqs, segments), axis) as SciPy's _spectral_helper; mode
    "psd" gives |X|**2, "csd" conj(X) * Y of a second signal y (as long as x along axis),
    "stft" the scaled X."""
    if y is not None:
        y, _ = _as_signal(y, axis)      # along the same axis, counted in y's own dimensions
    x, axis = _as_signal(x, axis)
    n = x.shape[-1]
    if nperseg is not None:
        nperseg = int(nperseg)
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
    if not isinstance(window, (str, tuple)):
        win_len = _util.asarray(window).shape[0]
        nperseg = win_len if nperseg is None else nperseg
    elif nperseg is None:
        nperseg = default_nperseg
    if mode != "stft" and nperseg > n:
        if isinstance(window, (str, tuple)):
            warnings.warn(f"nperseg={nperseg} is greater than signal length max(len(x), len(y)) = {n}, "
                          f"using nperseg = {n}", stacklevel=3)
        nperseg = n
    outdtype = loom.result_type(x.dtype, loom.complex64 if y is None else loom.result_type(y.dtype, loom.complex64))
    realdtype = loom.float32 if outdtype == loom.complex64 else loom.float64
    win = _window(window, nperseg, x.device).astype(realdtype)
    if nfft is None:
        nfft = nperseg
    elif nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError(f"noverlap={noverlap} must be less than nperseg={nperseg}!")
    step = nperseg - noverlap
    complex_input = x.dtype.kind == "c" or (y is not None and y.dtype.kind == "c")
    onesided = return_onesided and not complex_input
    if return_onesided and complex_input and mode == "stft":      # SciPy's welch and csd switch silently
        warnings.warn("Input data is complex, switching to return_onesided=False", stacklevel=3)

    def segments_fft(sig):
        """The FFT of sig's windowed, detrended segments: (..., segments, freqs)."""
        if boundary is not None:
            sig = _extend_boundary(sig, boundary, nperseg)
        if padded:
            nadd = (-(sig.shape[-1] - nperseg) % step) % nperseg
            sig = loom.pad(sig, [(0, 0)] * (sig.ndim - 1) + [(0, nadd)])
        length = sig.shape[-1]
        nseg = (length - nperseg) // step + 1 if length >= nperseg else 0
        index = (np.arange(nseg)[:, None] * step + np.arange(nperseg)[None, :]).reshape(-1)
        seg = loom.take(sig, loom.asarray(index, device=sig.device), axis=-1)
        seg = _detrend(seg.reshape(sig.shape[:-1] + (nseg, nperseg)), detrend)
        seg = seg.astype(outdtype if seg.dtype.kind == "c" else realdtype) * win
        fft = loom.fft.rfft if onesided else loom.fft.fft
        return fft(seg, n=nfft, axis=-1), length, nseg

    res, length, nseg = segments_fft(x)
    if scaling == "density":
        scale = 1.0 / (fs * loom.sum(win * win))
    elif scaling == "spectrum":
        scale = 1.0 / loom.sum(win) ** 2
    else:
        raise ValueError(f"Unknown scaling: {scaling!r}")
    if mode == "stft":
        res = (res * loom.sqrt(scale).astype(realdtype)).astype(outdtype)
    else:
        if mode == "csd":
            res = (res.conj() * segments_fft(y)[0]).astype(outdtype) * scale.astype(realdtype)
        else:
            res = (res.conj() * res).real.astype(realdtype) * scale.astype(realdtype)
        if onesided:
            # the power of the negative frequencies, but for DC and an even nfft's Nyquist bin
            w = np.full(res.shape[-1], 2.0)
            w[0] = 1.0
            if nfft % 2 == 0:
                w[-1] = 1.0
            res = res * loom.asarray(w, device=x.device).astype(realdtype)
    freqs = (loom.fft.rfftfreq if onesided else loom.fft.fftfreq)(nfft, 1 / fs, device=x.device)
    times = (np.arange(nperseg / 2, length - nperseg / 2 + 1, step) / fs)[:nseg]
    if boundary is not None:
        times = times - (nperseg / 2) / fs
    # (..., freqs, segments), a view of the (..., segments, freqs) transform: a 1-D signal's
    # STFT is then Fortran-ordered, as SciPy's is
    res = loom.moveaxis(res, -1, -2)
    return freqs, loom.asarray(times, device=x.device), res, axis


def welch(x, fs=1.0, window="hann", nperseg=None, noverlap=None, nfft=None, detrend="constant",
          return_onesided=True, scaling="density", axis=-1, average="mean"):
    """(f, Pxx): the power spectral density by Welch's method (scipy.signal.welch)."""
    x = _util.asarray(x)
    if x.size == 0:
        return _empty_pair(x)
    freqs, _, p, axis = _helper(x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis, "psd")
    if p.shape[-1] == 1:
        p = p[..., 0]                          # one segment: SciPy checks `average` only for more
    elif average not in ("mean", "median"):
        raise ValueError(f'average must be "median" or "mean", got {average}')
    elif average == "median":
        p = loom.median(p, axis=-1) / _median_bias(p.shape[-1])
    else:
        p = loom.mean(p, axis=-1)
    if p.ndim > 1:
        p = loom.moveaxis(p, -1, axis)
    return freqs, p


def periodogram(x, fs=1.0, window="boxcar", nfft=None, detrend="constant", return_onesided=True,
                scaling="density", axis=-1):
    """(f, Pxx): the periodogram, one segment over the whole signal (scipy.signal.periodogram)."""
    x = _util.asarray(x)
    if x.size == 0:
        return _empty_pair(x)
    n = x.shape[axis] if x.ndim else 1
    if window is None:
        window = "boxcar"
    if nfft is not None and nfft < n:
        x = loom.take(x, loom.arange(nfft, device=x.device), axis=axis)
        n = nfft
    return welch(x, fs, window, n, 0, nfft, detrend, return_onesided, scaling, axis)


def stft(x, fs=1.0, window="hann", nperseg=256, noverlap=None, nfft=None, detrend=False,
         return_onesided=True, boundary="zeros", padded=True, axis=-1, scaling="spectrum"):
    """(f, t, Zxx): the short-time Fourier transform (scipy.signal.stft); Zxx has the
    frequencies where `axis` was and the segments last."""
    if scaling not in ("spectrum", "psd"):
        raise ValueError(f"Parameter scaling={scaling!r} not in ['spectrum', 'psd']!")
    scaling = "density" if scaling == "psd" else "spectrum"
    freqs, times, z, axis = _helper(x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided,
                                    scaling, axis, "stft", boundary=boundary, padded=padded)
    z = loom.moveaxis(z, -2, axis) if z.ndim > 2 else z
    return freqs, times, z
