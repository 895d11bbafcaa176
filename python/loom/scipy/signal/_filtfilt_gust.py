"""scipy.signal.filtfilt(method='gust'): Gustafsson's choice of the forward and the backward
pass's initial states (F. Gustafsson, "Determining the initial states in forward-backward
filtering", IEEE Trans. Signal Processing 44, 1996), so that filtering forward then backward
gives the same signal as backward then forward, in the least-squares sense.

Both passes' outputs are linear in their initial states: a unit state k of direct form II
transposed reaches the output after k samples and then rings as the impulse response of 1/a,
so the zero-input responses O (m x order) are shifts of one column. The backward pass of a
forward transient is S = filter(O reversed). With d = (backward-forward) - (forward-backward)
of the zero-state passes, the optimal states solve M s = d in least squares, M = [S^R - O,
O^R - S] (^R: rows reversed), and the result is the forward-backward output plus W s,
W = [S^R, O^R]. M and W are small (m x 2 order, m the signal length or 2 irlen) and are
built on the host; the filtering and the two products with pinv(M) and W run on x's device.
With irlen, only the first and last irlen samples are corrected (the transients' reach)."""
import warnings

import numpy as np

import loom

from ._lfilter import lfilter

_ComplexWarning = getattr(getattr(np, "exceptions", np), "ComplexWarning")


def _flip_filter(bb, aa, x, axis):
    return loom.flip(lfilter(bb, aa, loom.flip(x, axis=axis), axis=axis), axis=axis)


def _responses(bb, aa, m, order, dtype):
    """O (zero-input responses of the unit states over m samples) and S (each of O's columns
    reversed, then filtered from rest), on the host.

    SciPy builds O as a float64 array, so complex coefficients lose O's imaginary part with
    NumPy's ComplexWarning; cupyx.scipy does the same. loom follows them, warning included,
    so that a program gets the reference's numbers (and its warning) here too."""
    impulse = np.zeros(m, dtype)
    impulse[0] = aa[0]  # 1/a's impulse response with a normalised to a[0] = 1
    ring = lfilter([1.0], aa, loom.asarray(impulse, device=loom.cpu())).numpy()
    if np.iscomplexobj(ring):
        warnings.warn("Casting complex values to real discards the imaginary part", _ComplexWarning, stacklevel=4)
        ring = ring.real
    o = np.zeros((m, order), ring.dtype)
    for k in range(order):
        o[k:, k] = ring[:m - k]
    s = lfilter(bb, aa, loom.asarray(np.ascontiguousarray(o[::-1]), device=loom.cpu()), axis=0).numpy()
    return o, s


def _blocks(top, bottom, whole):
    """[top, bottom] side by side (the whole signal) or block-diagonal (its two ends). SciPy
    makes the block-diagonal one a float64 array, so complex blocks keep only their real part
    there (_responses has already warned)."""
    if whole:
        return np.hstack([top, bottom])
    out = np.zeros((top.shape[0] + bottom.shape[0], top.shape[1] + bottom.shape[1]))
    out[:top.shape[0], :top.shape[1]] = top.real
    out[top.shape[0]:, top.shape[1]:] = bottom.real
    return out


def filtfilt_gust(bb, aa, x, axis, irlen):
    """The forward-backward filtered x along axis with Gustafsson's initial states."""
    order = max(len(bb), len(aa)) - 1
    if order == 0:  # a gain: no state, applied twice
        scale = (bb[0] / aa[0]) ** 2
        return x * (complex(scale) if np.iscomplexobj(scale) else float(scale))
    n = x.shape[axis]
    m = n if irlen is None or n <= 2 * irlen else int(irlen)
    whole = m == n
    o, s = _responses(bb, aa, m, order, np.result_type(bb, aa, np.float64))
    o_r, s_r = o[::-1], s[::-1]
    solve = np.linalg.pinv(_blocks(s_r - o, o_r - s, whole))  # (2 order, m or 2m): least squares
    spread = _blocks(s_r, o_r, whole)                            # (m or 2m, 2 order)

    y_fb = _flip_filter(bb, aa, lfilter(bb, aa, x, axis=axis), axis)
    y_bf = lfilter(bb, aa, _flip_filter(bb, aa, x, axis), axis=axis)
    delta = loom.moveaxis(y_bf - y_fb, axis, -1)
    if not whole:
        delta = loom.concatenate([delta[..., :m], delta[..., n - m:]], axis=-1)
    dev, dt = x.device, delta.dtype
    if np.iscomplexobj(solve) or np.iscomplexobj(spread):
        dt = loom.result_type(dt, loom.complex128)
        delta = delta.astype(dt)
    states = delta @ loom.asarray(solve.T, device=dev).astype(dt)
    correction = states @ loom.asarray(spread.T, device=dev).astype(dt)
    y = loom.moveaxis(y_fb, axis, -1).astype(dt)
    if whole:
        y = y + correction
    else:
        y = loom.concatenate([y[..., :m] + correction[..., :m], y[..., m:n - m], y[..., n - m:] + correction[..., m:]],
                             axis=-1)
    return loom.ascontiguousarray(loom.moveaxis(y, -1, axis))
