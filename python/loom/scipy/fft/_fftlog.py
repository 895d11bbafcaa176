"""scipy.fft.fht, ifht and fhtoffset: the fast Hankel transform of a logarithmically spaced
signal (Hamilton's FFTLog, "Uncorrelated modes of the non-linear power spectrum", MNRAS 312,
2000, appendix B). The transform is a convolution in log space: a real FFT, a product with
the coefficients u_m = 2^q (2 / (k r))^(2 i y_m) Gamma((mu + 1 + q)/2 + i y_m) /
Gamma((mu + 1 - q)/2 - i y_m), y_m = pi m / (n dln), an inverse FFT and a reversal. The n/2 + 1
coefficients are computed on the host; the signal stays on its device."""
import numpy as np

import loom

from .. import _util

_LN2 = np.log(2.0)


def _log_gamma(z):
    """log Gamma(z) for complex z, on some branch: every use here is under exp() or taken
    modulo 2 pi. Recurrence up to Re z >= 10, then Stirling's series."""
    z = np.asarray(z, dtype=complex)
    w = z.copy()
    shift = np.zeros(z.shape, dtype=complex)
    with np.errstate(divide="ignore", invalid="ignore"):
        while np.any(w.real < 10):
            low = w.real < 10
            shift[low] += np.log(w[low])
            w[low] += 1
        inv = 1.0 / w
        inv2 = inv * inv
        series = inv * (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 * (1 / 1680 - inv2 / 1188))))
        return (w - 0.5) * np.log(w) - w + 0.5 * np.log(2 * np.pi) + series - shift


def _coefficients(n, dln, mu, offset, bias):
    """u_m for m = 0 .. n // 2 (for an even n the last one made real, as the half spectrum's
    Nyquist bin must be)."""
    xp, xm = (mu + 1 + bias) / 2, (mu + 1 - bias) / 2
    y = np.linspace(0, np.pi * (n // 2) / (n * dln), n // 2 + 1)
    with np.errstate(over="ignore", invalid="ignore"):
        u = np.exp(_log_gamma(xp + 1j * y) - _log_gamma(xm - 1j * y) + _LN2 * bias + 2j * y * (_LN2 - offset))
    if n % 2 == 0:
        u.imag[-1] = 0
    if not np.isfinite(u[0]):  # a pole at y = 0: the real ratio Gamma(xp) / Gamma(xm) by its limit
        from math import gamma, inf
        try:
            u[0] = 2.0 ** bias * gamma(xp) / gamma(xm)
        except (ValueError, OverflowError):
            u[0] = 0.0 if _is_pole(xm) and not _is_pole(xp) else inf
    return u


def _is_pole(x):
    return x <= 0 and float(x).is_integer()


def _transform(a, dln, mu, offset, bias, inverse):
    x = _util.asarray(a)
    if x.dtype.kind in "biu":
        x = x.astype(loom.float64)
    elif x.dtype == loom.float16:
        x = x.astype(loom.float32)
    n = x.shape[-1]
    j = np.arange(n) - (n - 1) / 2
    dev = x.device
    sign = 1.0 if inverse else -1.0
    if bias:  # a float64 factor: SciPy's float32 input with a bias comes out float64
        x = x * loom.asarray(np.exp(sign * bias * j * dln), device=dev)
    u = _coefficients(n, dln, mu, offset, bias)
    with np.errstate(divide="ignore", invalid="ignore"):
        factor = 1.0 / np.conj(u) if inverse else u
    spectrum = loom.fft.rfft(x, axis=-1)
    spectrum = spectrum * loom.asarray(factor, device=dev).astype(spectrum.dtype)
    out = loom.flip(loom.fft.irfft(spectrum, n, axis=-1), axis=-1)
    if bias:
        out = out * loom.asarray(np.exp(sign * bias * (j * dln + offset)), device=dev)
    return out


def fht(a, dln, mu, offset=0.0, bias=0.0):
    """The fast Hankel transform of a, logarithmically spaced along its last axis with
    spacing dln (scipy.fft.fht)."""
    return _transform(a, float(dln), mu, offset, bias, False)


def ifht(A, dln, mu, offset=0.0, bias=0.0):
    """The inverse of fht (scipy.fft.ifht)."""
    return _transform(A, float(dln), mu, offset, bias, True)


def fhtoffset(dln, mu, initial=0.0, bias=0.0):
    """The offset nearest `initial` for which the transform's coefficients are real at the
    highest frequency (low ringing) (scipy.fft.fhtoffset)."""
    xp, xm = (mu + 1 + bias) / 2, (mu + 1 - bias) / 2
    y = np.pi / (2 * dln)
    arg = (_LN2 - initial) / dln + (_log_gamma(xp + 1j * y).imag + _log_gamma(xm + 1j * y).imag) / np.pi
    return initial + (arg - np.round(arg)) * dln
