"""scipy.signal.hilbert and hilbert2: the analytic signal, by one FFT, a one-sided spectrum
mask and the inverse FFT, on the input's device."""
import numpy as np

import loom

from .. import _util


def _one_sided(n, keep_nyquist=True):
    """The mask that keeps DC, doubles the positive frequencies and drops the negative ones;
    the Nyquist bin of an even n is kept once by hilbert and dropped by hilbert2 (SciPy's)."""
    h = np.zeros(n)
    h[0] = 1
    h[1:(n + 1) // 2] = 2
    if n % 2 == 0 and keep_nyquist:
        h[n // 2] = 1
    return h


def _real_input(x):
    x = _util.asarray(x)
    if x.dtype.kind == "c":
        raise ValueError("x must be real.")
    return _util.inexact(x)


def hilbert(x, N=None, axis=-1):
    """The analytic signal x + i H(x) along axis, over N points (scipy.signal.hilbert)."""
    x = _real_input(x)
    axis = _util.normalize_axis(axis, x.ndim)
    n = x.shape[axis] if N is None else int(N)
    if n <= 0:
        raise ValueError("N must be positive.")
    shape = [1] * x.ndim
    shape[axis] = n
    mask = loom.asarray(_one_sided(n).reshape(shape), device=x.device)
    spectrum = loom.fft.fft(x, n, axis=axis)
    return loom.fft.ifft(spectrum * mask.astype(spectrum.real.dtype), axis=axis)


def hilbert2(x, N=None, axes=(-2, -1)):
    """The 2-D analytic signal over axes, N points along each (scipy.signal.hilbert2)."""
    x = _real_input(x)
    if x.ndim < 2:
        x = x.reshape((1,) * (2 - x.ndim) + tuple(x.shape))
    if len(axes) != 2:
        raise ValueError("axes must be a tuple of length 2")
    axes = tuple(_util.normalize_axis(a, x.ndim, "axes") for a in axes)
    if axes[0] == axes[1]:
        raise ValueError("axes must contain 2 distinct axes")
    if N is None:
        N = tuple(x.shape[a] for a in axes)
    elif isinstance(N, (int, np.integer)):
        if N <= 0:
            raise ValueError("N must be positive.")
        N = (int(N), int(N))
    elif len(N) != 2 or any(n <= 0 for n in N):
        raise ValueError("When given as a tuple, N must hold exactly two positive integers")
    mask = np.ones([1] * x.ndim)
    for a, n in zip(axes, N):
        shape = [1] * x.ndim
        shape[a] = n
        mask = mask * _one_sided(n, keep_nyquist=False).reshape(shape)
    spectrum = loom.fft.fftn(x, s=N, axes=axes)
    return loom.fft.ifftn(spectrum * loom.asarray(mask, device=x.device).astype(spectrum.real.dtype), axes=axes)
