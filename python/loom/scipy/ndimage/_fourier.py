"""Filters applied to a Fourier transform (scipy.ndimage.fourier_*): the input is a
spectrum; each function multiplies it by the transform of a Gaussian, a box, an ellipsoid or
a shift. n < 0: the input is a complex FFT (frequencies fftfreq along every axis); n >= 0:
axis `axis` is a real FFT of n samples (frequencies k / n). The factors are separable
products built on the host from the shape alone, broadcast on the device."""
import numpy as np

import loom

from .. import _util
from ..special import j1
from . import _support


def _input(input, n, axis):
    x = _util.asarray(input)
    axis = _util.normalize_axis(axis, x.ndim) if x.ndim else 0
    return x, int(n), axis


def _frequencies(shape, n, axis):
    """Per axis: the frequencies (cycles per sample) of the spectrum's entries."""
    out = []
    for ax, m in enumerate(shape):
        if n >= 0 and ax == axis:
            out.append(np.arange(m) / n)
        else:
            out.append(np.fft.fftfreq(m))
    return out


def _along(v, ax, ndim):
    shape = [1] * ndim
    shape[ax] = v.size
    return v.reshape(shape)


def _output(x, output, complex_only=False):
    """SciPy's output: complex and float32 spectra keep their type (a shift needs complex),
    others float64; an output array is written."""
    if isinstance(output, loom.ndarray):
        dt = output.dtype
    elif output is not None:
        dt = getattr(loom, np.dtype(output).name)
    elif complex_only:
        dt = loom.complex64 if x.dtype == loom.complex64 else loom.complex128
    elif x.dtype in (loom.complex64, loom.complex128, loom.float32):
        dt = x.dtype
    else:
        dt = loom.float64
    if complex_only and dt.kind != "c":
        raise RuntimeError("output type not supported")
    if dt.kind not in "fc" or dt == loom.float16 or dt == loom.bfloat16:
        raise RuntimeError("output type not supported")
    return dt


def _apply(x, factor, output, dt):
    res = x.astype(dt) * loom.asarray(factor, device=x.device).astype(dt)
    return _support.finish(res, x, output if isinstance(output, loom.ndarray) else dt)


def _separable(input, values, n, axis, output, per_axis, complex_only=False):
    """The spectrum times prod over axes of per_axis(value of the axis, its frequencies)."""
    x, n, axis = _input(input, n, axis)
    dt = _output(x, output, complex_only)
    values = np.asarray(_sequence(values, x.ndim), float)
    factor = np.ones([1] * x.ndim)
    for ax, f in enumerate(_frequencies(x.shape, n, axis)):
        factor = factor * _along(per_axis(values[ax], f), ax, x.ndim)
    return _apply(x, factor, output, dt)


def fourier_gaussian(input, sigma, n=-1, axis=-1, output=None):
    """The spectrum times the transform of a Gaussian of standard deviation sigma."""
    return _separable(input, sigma, n, axis, output, lambda s, f: np.exp(-2.0 * np.pi ** 2 * s ** 2 * f ** 2))


def fourier_uniform(input, size, n=-1, axis=-1, output=None):
    """The spectrum times the transform of a box of `size` samples (a sinc per axis)."""
    return _separable(input, size, n, axis, output, lambda s, f: np.sinc(s * f))  # sin(pi s f) / (pi s f)


def fourier_ellipsoid(input, size, n=-1, axis=-1, output=None):
    """The spectrum times the transform of an ellipsoid of axes `size` (rank 1 to 3):
    sinc(r), 2 J1(pi r) / (pi r) and 3 (sin t - t cos t) / t^3 with t = pi r, where
    r = |size * f|."""
    x, n, axis = _input(input, n, axis)
    if x.ndim > 3:
        raise NotImplementedError("Only 1d, 2d and 3d inputs are supported")
    dt = _output(x, output)
    sizes = np.asarray(_sequence(size, x.ndim), float)
    r2 = np.zeros([1] * x.ndim)
    for ax, f in enumerate(_frequencies(x.shape, n, axis)):
        r2 = r2 + _along((sizes[ax] * f) ** 2, ax, x.ndim)
    t = np.pi * np.sqrt(r2)
    with np.errstate(divide="ignore", invalid="ignore"):
        if x.ndim == 1:
            factor = np.sinc(np.sqrt(r2))
        elif x.ndim == 2:
            factor = np.where(t > 0, 2.0 * j1(loom.asarray(t)).numpy() / t, 1.0)
        else:
            factor = np.where(t > 0, 3.0 * (np.sin(t) - t * np.cos(t)) / t ** 3, 1.0)
    return _apply(x, factor, output, dt)


def fourier_shift(input, shift, n=-1, axis=-1, output=None):
    """The spectrum times exp(-2 pi i f shift): the input shifted by `shift` samples."""
    return _separable(input, shift, n, axis, output, lambda s, f: np.exp(-2j * np.pi * s * f), complex_only=True)


def _sequence(value, ndim):
    v = np.asarray(value.numpy() if isinstance(value, loom.ndarray) else value, float)
    if v.ndim == 0:
        return [float(v)] * ndim
    if v.shape != (ndim,):
        raise RuntimeError("sequence argument must have length equal to input rank")
    return list(v)
