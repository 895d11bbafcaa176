"""Filters as polynomials: scipy.signal.deconvolve (division by lfilter's impulse response),
lfiltic (the direct form II transposed state for given past outputs and inputs), and
correlation_lags (the lag of each output of correlate)."""
import numpy as np

import loom

from .. import _util
from ._convolve import convolve
from ._lfilter import lfilter


def deconvolve(signal, divisor):
    """(quotient, remainder) with signal = convolve(divisor, quotient) + remainder."""
    num, den = _util.asarray(signal), _util.asarray(divisor)
    if num.ndim == 0:
        num = num.reshape((1,))
    if den.ndim == 0:
        den = den.reshape((1,))
    if num.ndim != 1 or den.ndim != 1:
        raise ValueError("signal must be 1-D.") if num.ndim != 1 else ValueError("divisor must be 1-D.")
    n, d = num.shape[0], den.shape[0]
    if d > n:
        return loom.zeros((0,), dtype=loom.result_type(num.dtype, den.dtype, loom.float64), device=num.device), num
    impulse = np.zeros(n - d + 1)
    impulse[0] = 1
    quot = lfilter(num, den, loom.asarray(impulse, device=num.device))
    return quot, num - convolve(den, quot, mode="full")


def lfiltic(b, a, y, x=None):
    """The initial state of lfilter (direct form II transposed) for past outputs y and past
    inputs x, both most recent first (y[0] = y[-1] of the past)."""
    b = np.atleast_1d(_util.host_table(b, None))
    a = np.atleast_1d(_util.host_table(a, None))
    yd = _util.asarray(y)
    device = yd.device
    yh = yd.numpy()
    xh = np.zeros(0) if x is None else np.atleast_1d(_util.host_table(x, None))
    n, m = len(a) - 1, len(b) - 1
    b, a = b / a[0], a / a[0]  # lfilter's normalisation: its state is that of a[0] = 1
    dt = np.result_type(b, a, yh, xh, np.float64)
    ys = np.zeros(n, dt)
    ys[:min(n, len(yh))] = yh[:n]
    xs = np.zeros(m, dt)
    xs[:min(m, len(xh))] = xh[:m]
    zi = np.zeros(max(m, n), dt)
    # state k holds what the future outputs still owe the past: b's tail on past inputs less
    # a's tail on past outputs
    for k in range(m):
        zi[k] = np.sum(b[k + 1:] * xs[:m - k])
    for k in range(n):
        zi[k] -= np.sum(a[k + 1:] * ys[:n - k])
    return loom.asarray(zi, device=device)


def correlation_lags(in1_len, in2_len, mode="full"):
    """The lag of each element of correlate(in1, in2, mode), as an int array."""
    if mode == "full":
        return loom.arange(-in2_len + 1, in1_len)
    if mode == "same":
        lags = np.arange(-in2_len + 1, in1_len)
        mid, half = lags.size // 2, in1_len // 2
        return loom.asarray(lags[mid - half:mid + half + in1_len % 2])
    if mode == "valid":
        bound = in1_len - in2_len
        return loom.arange(bound + 1) if bound >= 0 else loom.arange(bound, 1)
    raise ValueError(f"Mode {mode} is invalid")
