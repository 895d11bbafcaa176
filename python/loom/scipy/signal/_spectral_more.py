"""csd, coherence, istft and the inversion conditions check_COLA, check_NOLA (scipy.signal):
the cross spectrum over the Welch machinery of _spectral.py, and the inverse STFT as one
overlap-add gather on the signal's device."""
import warnings

import numpy as np

import loom

from .. import _util
from ._spectral import _helper, _median_bias, welch
from .windows import get_window


def _outer_shape(shape, axis):
    outer = list(shape)
    outer.pop(axis)
    return tuple(outer)


def csd(x, y, fs=1.0, window="hann", nperseg=None, noverlap=None, nfft=None, detrend="constant",
        return_onesided=True, scaling="density", axis=-1, average="mean"):
    """(f, Pxy): the cross power spectral density of x and y by Welch's method
    (scipy.signal.csd); real when y is x, complex otherwise."""
    if y is x:
        return welch(x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis, average)
    x, y, axis = _util.asarray(x), _util.asarray(y), int(axis)
    try:
        outer = np.broadcast_shapes(_outer_shape(x.shape, axis), _outer_shape(y.shape, axis))
    except ValueError as e:
        raise ValueError("x and y cannot be broadcast together.") from e
    if x.size == 0 or y.size == 0:
        empty = loom.empty(outer + (min(x.shape[axis], y.shape[axis]),), dtype=loom.float64, device=x.device)
        empty = loom.moveaxis(empty, -1, axis)
        return empty, empty
    out_dtype = loom.result_type(x.dtype, y.dtype, loom.complex64)
    # the shorter signal is zero-padded at its end to the longer one's length
    longest = max(x.shape[axis], y.shape[axis])
    x, y = (_zero_pad_to(v, longest, axis) for v in (x, y))
    freqs, _, p, _ = _helper(x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis,
                             "csd", y=y)
    if p.shape[-1] == 1:
        p = p[..., 0]
    elif average == "median":
        # the median of the real and imaginary parts apart, as SciPy takes it
        bias = _median_bias(p.shape[-1])
        p = (loom.median(p.real, axis=-1) + 1j * loom.median(p.imag, axis=-1)) / bias
    elif average == "mean":
        p = loom.mean(p, axis=-1)
    else:
        raise ValueError(f"Parameter average={average!r} must be 'median' or 'mean'!")
    if p.ndim > 1:
        # the frequencies go where `axis` was, counted in the broadcast result's dimensions
        p = loom.moveaxis(p, -1, _util.normalize_axis(axis, p.ndim))
    return freqs, p.astype(out_dtype)


def _zero_pad_to(v, length, axis):
    if v.ndim == 0 or v.shape[axis] == length:
        return v
    pad = [(0, 0)] * v.ndim
    pad[axis] = (0, length - v.shape[axis])
    return loom.pad(v, pad)


def coherence(x, y, fs=1.0, window="hann", nperseg=None, noverlap=None, nfft=None, detrend="constant", axis=-1):
    """(f, Cxy): the magnitude squared coherence |Pxy|**2 / (Pxx Pyy) of x and y
    (scipy.signal.coherence)."""
    kw = dict(fs=fs, window=window, nperseg=nperseg, noverlap=noverlap, nfft=nfft, detrend=detrend, axis=axis)
    freqs, pxx = welch(x, **kw)
    _, pyy = welch(y, **kw)
    _, pxy = csd(x, y, **kw)
    return freqs, loom.abs(pxy) ** 2 / pxx / pyy


def _window_of_length(window, nperseg, device):
    if isinstance(window, str) or type(window) is tuple:
        return get_window(window, nperseg, device=device)
    # a host window goes to the signal's device (the default device may be another)
    win = window if isinstance(window, loom.ndarray) or device is None else loom.asarray(window, device=device)
    win = _util.asarray(win)
    if win.ndim != 1:
        raise ValueError("window must be 1-D")
    if win.shape[0] != nperseg:
        raise ValueError(f"window must have length of {nperseg}")
    return win


def _check_overlap(nperseg, noverlap, nonnegative=False):
    nperseg = int(nperseg)
    if nperseg < 1:
        raise ValueError("nperseg must be a positive integer")
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    if nonnegative and noverlap < 0:
        raise ValueError("noverlap must be a nonnegative integer")
    return nperseg, int(noverlap)


def _bin_sums(win, nperseg, noverlap):
    """The sums of the window's values over the samples a hop apart: what overlap-adding
    every segment puts on one output sample in the steady state."""
    step = nperseg - noverlap
    whole = (nperseg // step) * step
    sums = loom.sum(win[:whole].reshape(nperseg // step, step), axis=0)
    rest = nperseg % step
    if rest:
        sums = sums + loom.pad(win[whole:], [(0, step - rest)])
    return sums


def check_COLA(window, nperseg, noverlap, tol=1e-10):
    """Whether the window overlap-adds to a constant at this overlap (scipy.signal.check_COLA)."""
    nperseg, noverlap = _check_overlap(nperseg, noverlap)
    win = _window_of_length(window, nperseg, None)
    sums = _bin_sums(win, nperseg, noverlap)
    return bool(loom.max(loom.abs(sums - loom.median(sums))) < tol)


def check_NOLA(window, nperseg, noverlap, tol=1e-10):
    """Whether the squared window overlap-adds to nowhere zero, so that the STFT can be
    inverted (scipy.signal.check_NOLA)."""
    nperseg, noverlap = _check_overlap(nperseg, noverlap, nonnegative=True)
    win = _window_of_length(window, nperseg, None)
    return bool(loom.min(_bin_sums(win * win, nperseg, noverlap)) > tol)


def _overlap_add_index(nseg, nperseg, nstep, device):
    """For each output sample t and each of the k segments that may cover it, the index of its
    value in the segments laid end to end (nseg * nperseg values), or nseg * nperseg (a zero
    appended there) where fewer segments cover t; and the offset within the segment, or
    nperseg where none."""
    length = nperseg + (nseg - 1) * nstep
    covers = -(-nperseg // nstep)
    t = loom.arange(length, dtype=loom.int64, device=device).reshape(length, 1)
    seg = loom.minimum(t // nstep, nseg - 1) - loom.arange(covers, dtype=loom.int64, device=device)
    offset = t - seg * nstep
    valid = (seg >= 0) & (offset < nperseg)
    return (loom.where(valid, seg * nperseg + offset, nseg * nperseg).reshape(-1),
            loom.where(valid, offset, nperseg).reshape(-1), covers)


def istft(Zxx, fs=1.0, window="hann", nperseg=None, noverlap=None, nfft=None, input_onesided=True, boundary=True,
          time_axis=-1, freq_axis=-2, scaling="spectrum"):
    """(t, x): the inverse short-time Fourier transform by weighted overlap-add
    (scipy.signal.istft)."""
    z = _util.asarray(Zxx) + 0j
    freq_axis, time_axis = int(freq_axis), int(time_axis)
    if z.ndim < 2:
        raise ValueError("Input stft must be at least 2d!")
    if freq_axis == time_axis:
        raise ValueError("Must specify differing time and frequency axes!")
    nseg = z.shape[time_axis]
    n_default = 2 * (z.shape[freq_axis] - 1) if input_onesided else z.shape[freq_axis]
    if nperseg is None:
        nperseg = n_default
    else:
        nperseg = int(nperseg)
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
    if nfft is None:
        nfft = nperseg if input_onesided and nperseg == n_default + 1 else n_default
    elif nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    else:
        nfft = int(nfft)
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    nstep = nperseg - noverlap
    freq_axis = freq_axis + z.ndim if freq_axis < 0 else freq_axis
    time_axis = time_axis + z.ndim if time_axis < 0 else time_axis
    outer = [d for d in range(z.ndim) if d not in (freq_axis, time_axis)]
    z = loom.permute_dims(z, outer + [freq_axis, time_axis])
    ifft = loom.fft.irfft if input_onesided else loom.fft.ifft
    xsubs = ifft(z, n=nfft, axis=-2)[..., :nperseg, :]
    realdtype = loom.float32 if xsubs.dtype in (loom.float32, loom.complex64) else loom.float64
    win = _window_of_length(window, nperseg, z.device).astype(realdtype)
    if scaling == "spectrum":
        xsubs = xsubs * loom.sum(win)
    elif scaling == "psd":
        xsubs = xsubs * loom.sqrt(fs * loom.sum(win * win))
    else:
        raise ValueError(f"Parameter scaling={scaling!r} not in ['spectrum', 'psd']!")
    # every output sample sums the windowed values of the (at most `covers`) segments over it
    index, offset, covers = _overlap_add_index(nseg, nperseg, nstep, z.device)
    frames = loom.moveaxis(xsubs * win.reshape(nperseg, 1), -1, -2).reshape(xsubs.shape[:-2] + (nseg * nperseg,))
    frames = loom.pad(frames, [(0, 0)] * (frames.ndim - 1) + [(0, 1)])
    length = nperseg + (nseg - 1) * nstep
    x = loom.sum(loom.take(frames, index, axis=-1).reshape(frames.shape[:-1] + (length, covers)), axis=-1)
    norm = loom.sum(loom.take(loom.pad(win * win, [(0, 1)]), offset).reshape(length, covers), axis=-1)
    if boundary:
        x = x[..., nperseg // 2:-(nperseg // 2)]
        norm = norm[nperseg // 2:-(nperseg // 2)]
    nonzero = norm > 1e-10
    if not bool(loom.all(nonzero)):
        warnings.warn("NOLA condition failed, STFT may not be invertible."
                      + (" Possibly due to missing boundary" if not boundary else ""), stacklevel=2)
    x = x / loom.where(nonzero, norm, 1.0)
    if x.ndim > 1 and time_axis != z.ndim - 1:
        x = loom.moveaxis(x, -1, time_axis - 1 if freq_axis < time_axis else time_axis)
    return loom.arange(x.shape[0], dtype=loom.float64, device=x.device) / float(fs), x
