"""Derivative filters (scipy.ndimage): sobel, prewitt, laplace, gaussian_laplace,
gaussian_gradient_magnitude and the generic forms they are made of. As in SciPy, each pass
is stored in the output dtype (an integer image gives integer derivatives) and the modes may
differ per axis."""
import numpy as np

import loom

from .. import _util
from . import _support
from ._filters import correlate1d, gaussian_filter


def _edge(input, axis, output, mode, cval, smooth):
    """The central difference along axis, smoothed by `smooth` along every other axis."""
    x = _util.asarray(input)
    axis = _util.normalize_axis(axis, x.ndim)
    modes = _support.sequence(mode, x.ndim)
    dt = _support.output_dtype(x, output)
    out = correlate1d(x, [-1, 0, 1], axis, dt, modes[axis], cval, 0)
    for ax in range(x.ndim):
        if ax != axis:
            out = correlate1d(out, smooth, ax, dt, modes[ax], cval, 0)
    return _support.finish(out, x, output)


def sobel(input, axis=-1, output=None, mode="reflect", cval=0.0):
    """The Sobel derivative along axis (scipy.ndimage.sobel)."""
    return _edge(input, axis, output, mode, cval, [1, 2, 1])


def prewitt(input, axis=-1, output=None, mode="reflect", cval=0.0):
    """The Prewitt derivative along axis (scipy.ndimage.prewitt)."""
    return _edge(input, axis, output, mode, cval, [1, 1, 1])


def _generic(input, derivative, output, mode, cval, extra_arguments, extra_keywords, axes, square):
    """SciPy's protocol: the first axis's derivative is written into the output array, the
    others come back as arrays of the output's dtype (passed as a numpy.dtype, as SciPy does)
    and are added into it in place; the gradient magnitude squares each and ends with sqrt."""
    x = _util.asarray(input)
    axes = _support.axes_of(axes, x.ndim)
    modes = _support.sequence(mode, len(axes))
    dt = _support.output_dtype(x, output)
    kw = extra_keywords or {}
    if not axes:
        return _support.finish(x, x, output)
    out = output if isinstance(output, loom.ndarray) else loom.zeros(x.shape, dtype=dt, device=x.device)
    derivative(x, axes[0], out, modes[0], cval, *extra_arguments, **kw)
    if square:
        loom.multiply(out, out, out=out)
    for ax, m in zip(axes[1:], modes[1:]):
        tmp = _util.asarray(derivative(x, ax, np.dtype(dt.name), m, cval, *extra_arguments, **kw))
        out += tmp * tmp if square else tmp
    if square:  # SciPy's sqrt into the output dtype (casting='unsafe': integers truncate)
        root = loom.sqrt(out)
        out[...] = loom.trunc(root) if dt.kind in "iu" else root
    return out


def generic_gradient_magnitude(input, derivative, output=None, mode="reflect", cval=0.0, extra_arguments=(),
                               extra_keywords=None, *, axes=None):
    """sqrt(sum over axes of derivative(input, axis, output, mode, cval, ...)**2)."""
    return _generic(input, derivative, output, mode, cval, extra_arguments, extra_keywords, axes, True)


def generic_laplace(input, derivative2, output=None, mode="reflect", cval=0.0, extra_arguments=(),
                    extra_keywords=None, *, axes=None):
    """sum over axes of derivative2(input, axis, output, mode, cval, ...)."""
    return _generic(input, derivative2, output, mode, cval, extra_arguments, extra_keywords, axes, False)


def _second_difference(input, axis, output, mode, cval):
    return correlate1d(input, [1, -2, 1], axis, output, mode, cval, 0)


def laplace(input, output=None, mode="reflect", cval=0.0, *, axes=None):
    """The Laplacian by second differences (scipy.ndimage.laplace)."""
    return generic_laplace(input, _second_difference, output, mode, cval, axes=axes)


def _gaussian_args(x, sigma, axes):
    """sigma over every axis (0 where the axes leave one out), as SciPy passes it on."""
    axes = _support.axes_of(axes, x.ndim)
    sigmas = _support.sequence(sigma, len(axes))
    full = [0.0] * x.ndim
    for s, ax in zip(sigmas, axes):
        full[ax] = s
    return full, axes


def _gaussian_derivatives(input, sigma, output, mode, cval, axes, order, generic, kwargs):
    """generic (laplace or gradient magnitude) over Gaussian derivatives of `order` along
    each axis, smoothing along the others."""
    x = _util.asarray(input)
    if generic is generic_laplace:
        sigma, axes = _gaussian_args(x, sigma, axes)
    # else SciPy's gaussian_gradient_magnitude passes sigma on as given: its Gaussians smooth
    # along every axis, those outside `axes` too (a sequence sigma must then cover them all).

    def derivative(v, axis, out, m, c):
        orders = [0] * v.ndim
        orders[axis] = order
        return gaussian_filter(v, sigma, orders, out, m, c, **kwargs)
    return generic(x, derivative, output, mode, cval, axes=axes)


def gaussian_laplace(input, sigma, output=None, mode="reflect", cval=0.0, *, axes=None, **kwargs):
    """The Laplacian by second derivatives of a Gaussian (scipy.ndimage.gaussian_laplace)."""
    return _gaussian_derivatives(input, sigma, output, mode, cval, axes, 2, generic_laplace, kwargs)


def gaussian_gradient_magnitude(input, sigma, output=None, mode="reflect", cval=0.0, *, axes=None, **kwargs):
    """The gradient magnitude by first derivatives of a Gaussian
    (scipy.ndimage.gaussian_gradient_magnitude)."""
    return _gaussian_derivatives(input, sigma, output, mode, cval, axes, 1, generic_gradient_magnitude, kwargs)
