"""lombscargle and vectorstrength (scipy.signal): the periodicity of unevenly timed data, the
Lomb-Scargle periodogram of samples at arbitrary times and the vector strength of event
times, as products of (times x frequencies) tables on the data's device."""
import math
import warnings

import numpy as np

import loom

from .. import _util

_NO_VALUE = object()   # tells an omitted `precenter` from one given as False (SciPy deprecates it)


def _float64(v, device):
    if isinstance(v, loom.ndarray):
        return v.astype(loom.float64)
    return loom.asarray(np.asarray(v, dtype=np.float64), device=device)


def lombscargle(x, y, freqs, *, precenter=_NO_VALUE, normalize=False, weights=None, floating_mean=False):
    """The (generalized, weighted) Lomb-Scargle periodogram of samples y at times x, at the
    angular frequencies freqs (scipy.signal.lombscargle); normalize: False ('power'), True
    ('normalize') or 'amplitude' (the complex amplitude of the fitted sinusoid)."""
    device = _util.device_of(x, y, freqs, weights)
    x, y, freqs = (_float64(v, device) for v in (x, y, freqs))
    weights = loom.ones(y.shape, dtype=loom.float64, device=device) if weights is None else _float64(weights, device)
    if not (x.ndim == 1 and x.size > 0 and x.shape == y.shape == weights.shape):
        raise ValueError("Parameters x, y, weights must be 1-D arrays of equal non-zero length!")
    if not (freqs.ndim == 1 and freqs.size > 0):
        raise ValueError("Parameter freqs must be a 1-D array of non-zero length!")
    if not (bool(loom.all(weights >= 0)) and float(loom.sum(weights)) > 0):
        raise ValueError("Parameter weights must have only non-negative entries which sum to a positive value!")
    if isinstance(normalize, bool):
        normalize = "normalize" if normalize else "power"
    if normalize not in ("power", "normalize", "amplitude"):
        raise ValueError("Normalize must be: False (or 'power'), True (or 'normalize'), or 'amplitude'.")
    weights = weights * (1.0 / loom.sum(weights))
    if precenter is not _NO_VALUE:
        warnings.warn("Use of parameter 'precenter' is deprecated as of SciPy 1.17.0 and will be removed in "
                      "1.19.0. Please leave 'precenter' unspecified. Passing True to 'precenter' can be exactly "
                      "substituted by passing 'y = (y - y.mean())' into the input. Consider setting "
                      "`floating_mean` to True instead.", DeprecationWarning, stacklevel=2)
        if precenter:
            y = y - loom.mean(y)
    weights_y = weights * y
    phase = x.reshape(-1, 1) * freqs.reshape(1, -1)          # (times, frequencies)
    cos, sin = loom.cos(phase), loom.sin(phase)
    mean_y = loom.sum(weights_y)
    cc = loom.matmul(weights, cos * cos)
    ss = 1.0 - cc
    cs = loom.matmul(weights, cos * sin)
    if floating_mean:
        c, s = loom.matmul(weights, cos), loom.matmul(weights, sin)
        cc, ss, cs = cc - c * c, ss - s * s, cs - c * s
    # the time offset tau that makes the fitted cosine and sine orthogonal
    tau = 0.5 * loom.arctan2(2.0 * cs, cc - ss)
    shifted = phase - tau
    cos, sin = loom.cos(shifted), loom.sin(shifted)
    yc, ys = loom.matmul(weights_y, cos), loom.matmul(weights_y, sin)
    cc = loom.matmul(weights, cos * cos)
    ss = 1.0 - cc
    if floating_mean:
        c, s = loom.matmul(weights, cos), loom.matmul(weights, sin)
        yc, ys, cc, ss = yc - mean_y * c, ys - mean_y * s, cc - c * c, ss - s * s
    epsneg = float(np.finfo(np.float64).epsneg)   # keeps the divisions finite where cc or ss vanish
    cc = loom.where(cc < epsneg, epsneg, cc)
    ss = loom.where(ss < epsneg, epsneg, ss)
    a, b = yc / cc, ys / ss
    if normalize == "amplitude":
        return loom.squeeze((a + 1j * b) * loom.exp(1j * tau))
    pgram = 2.0 * (a * yc + b * ys)
    if normalize == "power":
        return loom.squeeze(pgram * (float(x.shape[0]) / 4.0))
    yy = loom.sum(weights_y * y)
    if floating_mean:
        yy = yy - mean_y * mean_y
    return loom.squeeze(pgram * (0.5 / yy))


def vectorstrength(events, period):
    """(strength, phase): how well the event times synchronize to the period(s): the modulus
    and angle of the mean of exp(2j pi events / period) (scipy.signal.vectorstrength)."""
    events = _util.asarray(events)
    period = period if isinstance(period, loom.ndarray) else loom.asarray(np.asarray(period), device=events.device)
    if period.dtype.kind in "biu":
        period = period.astype(loom.float64)
    if events.ndim > 1:
        raise ValueError("events cannot have dimensions more than 1")
    if period.ndim > 1:
        raise ValueError("period cannot have dimensions more than 1")
    scalar_period = period.ndim == 0
    events, period = events.reshape(1, -1), period.reshape(1, -1)
    if bool(loom.any(period <= 0)):
        raise ValueError("periods must be positive")
    angles = loom.matmul(math.pi / period.T, events.astype(period.dtype))   # (periods, events)
    mean = loom.mean(loom.exp(2j * angles), axis=1)
    strength, phase = loom.abs(mean), loom.arctan2(mean.imag, mean.real)
    if scalar_period:
        return strength[0], phase[0]
    return strength, phase
