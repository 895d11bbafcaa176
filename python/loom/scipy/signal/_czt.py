"""The chirp z-transform (scipy.signal's czt, zoom_fft, czt_points and the reusable plans CZT
and ZoomFFT), by Bluestein's algorithm on the signal's device.

The transform X[k] = sum_j x[j] A**-j W**(j k), k < m, takes j k = (j**2 + k**2 - (k - j)**2) / 2,
so that X[k] = W**(k**2/2) * sum_j (x[j] A**-j W**(j**2/2)) W**(-(k - j)**2/2): a weighting, one
linear convolution with the chirp W**(-l**2/2), l = -(n - 1) .. m - 1, done by FFTs of one fast
length >= n + m - 1, and a second weighting. A plan keeps the weights and the chirp's FFT of each
device it ran on, so repeated calls cost three FFTs and two products."""
import cmath
import math
import numbers

import numpy as np

import loom

from .. import _util
from ..fft import next_fast_len


def _validate_sizes(n, m):
    if n < 1 or not isinstance(n, numbers.Integral):
        raise ValueError(f"Invalid number of CZT data points ({n}) specified. n must be positive and integer type.")
    if m is None:
        return n
    if m < 1 or not isinstance(m, numbers.Integral):
        raise ValueError(f"Invalid number of CZT output points ({m}) specified. m must be positive and integer type.")
    return int(m)


def _at_least_float(v):
    """SciPy's `1.0 * v`: a Python, NumPy or 0-d loom number as a float or complex scalar."""
    if isinstance(v, loom.ndarray):
        v = v.numpy()[()]
    v = 1.0 * v
    return complex(v) if np.iscomplexobj(v) else float(v)


def _power(base, exponent):
    """base ** exponent for a float or complex scalar base: real bases give real results
    (NaN for a negative base and a fractional exponent), as NumPy's power does."""
    dtype = loom.complex128 if isinstance(base, complex) else loom.float64
    return loom.power(loom.asarray(base, dtype=dtype, device=exponent.device), exponent)


def _unit_phase(phase):
    """exp(1j * phase) for a float64 phase array. Phases are formed as SciPy's NumPy
    expressions form them (NumPy divides a complex array by a real number as a product with
    its reciprocal), so that long chirps keep SciPy's rounding."""
    return loom.exp(phase * 1j)


def czt_points(m, w=None, a=1 + 0j):
    """The m points z_k = a * w**-k of the z-plane where CZT evaluates the z-transform; the
    default w gives m points equally spaced around the unit circle (scipy.signal.czt_points)."""
    m = _validate_sizes(1, m)
    k = loom.arange(m, dtype=loom.float64)
    a = _at_least_float(a)
    if w is None:
        return a * _unit_phase((2 * math.pi * k) * (1.0 / m))
    return a * _power(_at_least_float(w), -k)


class CZT:
    """The chirp z-transform of length-n signals at the m points a * w**-k
    (scipy.signal.CZT); calling it transforms along `axis`, with a complex128 result."""

    def __init__(self, n, m=None, w=None, a=1 + 0j):
        m = _validate_sizes(n, m)
        self.n, self.m = n, m
        self.w = cmath.exp(-2j * math.pi / m) if w is None else _at_least_float(w)
        self.a = _at_least_float(a)
        self._default_w = w is None
        self._nfft = next_fast_len(n + m - 1)
        self._tables = {}

    def _chirp(self, k):
        """W**(k**2 / 2) for the int64 indices k."""
        if self._default_w:
            # W = exp(-2j pi / m): reduce k**2 modulo 2m exactly, so that the phase stays small
            # and exact for long transforms.
            folded = ((k * k) % (2 * self.m)).astype(loom.float64)
            return _unit_phase(-(math.pi * folded) * (1.0 / self.m))
        kf = k.astype(loom.float64)
        return _power(self.w, kf * kf / 2.0)

    def _input_weights(self, k):
        """A**-k for the int64 indices k < n."""
        return _power(self.a, -k.astype(loom.float64))

    def _on(self, device):
        key = repr(device)
        if key not in self._tables:
            n, m = self.n, self.m
            k = loom.arange(max(m, n), dtype=loom.int64, device=device)
            wk2 = self._chirp(k)
            kernel = 1 / loom.concatenate([loom.flip(wk2[1:n]), wk2[:m]])
            self._tables[key] = (self._input_weights(k[:n]) * wk2[:n], loom.fft.fft(kernel, self._nfft), wk2[:m])
        return self._tables[key]

    def __call__(self, x, *, axis=-1):
        x = _util.asarray(x)
        if x.shape[axis] != self.n:
            raise ValueError(f"CZT defined for length {self.n}, not {x.shape[axis]}")
        weights, kernel_fft, out_weights = self._on(x.device)
        x = loom.moveaxis(x, axis, -1)
        y = loom.fft.ifft(kernel_fft * loom.fft.fft(x * weights, self._nfft))
        y = y[..., self.n - 1:self.n + self.m - 1] * out_weights
        return loom.moveaxis(y, -1, axis)

    def points(self):
        """The points of the z-plane this transform evaluates at."""
        return czt_points(self.m, self.w, self.a)


def _band(fn):
    if isinstance(fn, loom.ndarray):
        fn = fn.numpy()
    elif isinstance(fn, (list, tuple)):
        fn = [v.numpy() if isinstance(v, loom.ndarray) else v for v in fn]
    values = np.asarray(fn).reshape(-1)
    if values.size == 2:
        return float(values[0]), float(values[1])
    if values.size == 1:
        return 0.0, float(values[0])
    raise ValueError("fn must be a scalar or 2-length sequence")


class ZoomFFT(CZT):
    """The DFT of length-n signals at m frequencies spread over fn = [f1, f2] (or [0, fn]), in
    units of the sampling frequency fs (scipy.signal.ZoomFFT): a CZT along an arc of the unit
    circle."""

    def __init__(self, n, fn, m=None, *, fs=2, endpoint=False):
        m = _validate_sizes(n, m)
        f1, f2 = _band(fn)
        self.f1, self.f2, self.fs = f1, f2, fs
        self._scale = ((f2 - f1) * m) / (fs * (m - 1)) if endpoint else (f2 - f1) / fs
        self.n, self.m = n, m
        self.w = cmath.exp(-2j * math.pi / m * self._scale)
        self.a = cmath.exp(2j * math.pi * f1 / fs)
        self._default_w = False
        self._nfft = next_fast_len(n + m - 1)
        self._tables = {}

    def _chirp(self, k):
        kf = k.astype(loom.float64)
        return _unit_phase(-(math.pi * self._scale * (kf * kf)) * (1.0 / self.m))

    def _input_weights(self, k):
        return _unit_phase(-2 * math.pi * self.f1 / self.fs * k.astype(loom.float64))


def czt(x, m=None, w=None, a=1 + 0j, *, axis=-1):
    """The chirp z-transform of x along axis at the m points a * w**-k (scipy.signal.czt)."""
    x = _util.asarray(x)
    return CZT(x.shape[axis], m=m, w=w, a=a)(x, axis=axis)


def zoom_fft(x, fn, m=None, *, fs=2, endpoint=False, axis=-1):
    """The DFT of x along axis at m frequencies over the band fn (scipy.signal.zoom_fft)."""
    x = _util.asarray(x)
    return ZoomFFT(x.shape[axis], fn, m=m, fs=fs, endpoint=endpoint)(x, axis=axis)
