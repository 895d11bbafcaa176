"""savgol_filter (scipy.signal): the Savitzky-Golay smoothing (or derivative) filter, one
convolution along the axis on the signal's device; mode='interp' replaces each end's half
window by the polynomial fitted to the end's window, one small matrix product per end."""
import math

import numpy as np

import loom

from .. import _util
from ..ndimage import convolve1d
from ._design import _scipy_signal

_MODES = ("mirror", "constant", "nearest", "interp", "wrap")


def _scalar(v):
    return float(v.numpy()) if isinstance(v, loom.ndarray) else v


def _edge_fit(window_length, polyorder, deriv, delta, at):
    """The (len(at), window_length) matrix taking a window of samples to the deriv-th
    derivative, at the window positions `at`, of its least-squares polynomial of degree
    polyorder. Positions are centred and scaled to [-1, 1] so that the fit stays well
    conditioned for long windows."""
    centre = (window_length - 1) / 2.0
    scale = max(centre, 1.0)
    u = (np.arange(window_length) - centre) / scale
    fit = np.linalg.pinv(u[:, None] ** np.arange(polyorder + 1)[None, :])
    v = (np.asarray(at, dtype=np.float64) - centre) / scale
    powers = np.arange(polyorder + 1)
    falling = np.array([math.perm(int(k), deriv) for k in powers], dtype=np.float64)
    derivative = np.where(powers >= deriv, falling * v[:, None] ** np.maximum(powers - deriv, 0), 0.0)
    return derivative @ fit / (scale * delta) ** deriv


def savgol_filter(x, window_length, polyorder, deriv=0, delta=1.0, axis=-1, mode="interp", cval=0.0):
    """x smoothed (or differentiated, deriv > 0, sample spacing delta) by a Savitzky-Golay
    filter of window_length and polyorder along axis (scipy.signal.savgol_filter)."""
    if mode not in _MODES:
        raise ValueError("mode must be 'mirror', 'constant', 'nearest' 'wrap' or 'interp'.")
    x = _util.asarray(x)
    if x.dtype not in (loom.float32, loom.float64):
        x = x.astype(loom.float64)
    delta = _scalar(delta)
    coeffs = _scipy_signal("savgol_filter").savgol_coeffs(window_length, polyorder, deriv=deriv, delta=delta)
    if mode != "interp":
        return convolve1d(x, coeffs, axis=axis, mode=mode, cval=cval)
    if window_length > x.shape[axis]:
        raise ValueError("If mode is 'interp', window_length must be less than or equal to the size of x.")
    y = convolve1d(x, coeffs, axis=axis, mode="constant")
    half = window_length // 2
    if half == 0:
        return y
    n = x.shape[axis]
    xs, ys = loom.moveaxis(x, axis, -1), loom.moveaxis(y, axis, -1)
    dtype = np.float32 if x.dtype == loom.float32 else np.float64
    ends = []
    for window, at in ((xs[..., :window_length], np.arange(half)),
                       (xs[..., n - window_length:], np.arange(window_length - half, window_length))):
        fit = _edge_fit(window_length, polyorder, deriv, delta, at).astype(dtype)
        ends.append(loom.matmul(window, loom.asarray(np.ascontiguousarray(fit.T), device=x.device)))
    ys = loom.concatenate([ends[0], ys[..., half:n - half], ends[1]], axis=-1)
    return loom.ascontiguousarray(loom.moveaxis(ys, -1, axis))
