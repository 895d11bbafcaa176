"""scipy.ndimage's grey-scale morphology: erosion and dilation (the minimum and maximum over
a footprint, less or plus a structuring element's heights), and their compositions opening,
closing, gradient, Laplace and the top-hats. A flat element is the rank filters' path
(_rank.py); a non-flat one takes each footprint tap as a shifted view (_rank._taps)."""
import warnings

import numpy as np

import loom

from . import _support
from ._rank import _taps, maximum_filter, minimum_filter


def _host(a, dtype):
    return None if a is None else np.asarray(a.numpy() if isinstance(a, loom.ndarray) else a, dtype=dtype)


def _grey(input, size, footprint, structure, output, mode, cval, origin, erosion, axes=None):
    if size is None and footprint is None and structure is None:
        raise ValueError("size, footprint, or structure must be specified")
    x = _support.check_input(input)
    axes = _support.axes_of(axes, x.ndim)  # the element spans these axes (all by default)
    k = len(axes)
    footprint, structure = _host(footprint, bool), _host(structure, np.float64)
    origins = _support.sequence(origin, k)
    if not erosion:
        # Dilation is the maximum over the reflected element, its origin mirrored (one step
        # further along an axis of even size), as SciPy computes it.
        flip = tuple(slice(None, None, -1) for _ in range(k))
        footprint = None if footprint is None else footprint[flip]
        structure = None if structure is None else structure[flip]
        for i in range(k):
            if footprint is not None:
                sz = footprint.shape[i]
            elif structure is not None:
                sz = structure.shape[i]
            else:
                sz = _support.sequence(size, k)[i]
            origins[i] = -origins[i] - (0 if int(sz) & 1 else 1)
    if structure is None:
        flat = minimum_filter if erosion else maximum_filter
        return flat(x, size=size, footprint=footprint, output=output, mode=mode, cval=cval, origin=origins, axes=axes)
    if structure.ndim != k:
        raise RuntimeError("structure array has incorrect shape")
    if footprint is None:
        footprint = np.ones(structure.shape, bool)
    if footprint.shape != structure.shape:
        raise RuntimeError("structure and footprint must have the same shape")
    heights = structure[footprint]
    taps = _taps(x.astype(loom.float64), footprint, axes, _support.sequence(mode, 1)[0], cval, origins)
    out = None
    for t, h in zip(taps, heights):
        v = t - h if erosion else t + h
        out = v if out is None else (loom.minimum(out, v) if erosion else loom.maximum(out, v))
    return _support.finish(out, x, output)


def grey_erosion(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0, origin=0, *,
                 axes=None):
    """The minimum of input - structure over the footprint (scipy.ndimage.grey_erosion)."""
    return _grey(input, size, footprint, structure, output, mode, cval, origin, True, axes)


def grey_dilation(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0, origin=0, *,
                  axes=None):
    """The maximum of input + structure over the reflected footprint (scipy.ndimage.grey_dilation)."""
    return _grey(input, size, footprint, structure, output, mode, cval, origin, False, axes)


def _warn_size(size, footprint):
    if size is not None and footprint is not None:
        warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=3)


def grey_opening(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0, origin=0, *,
                 axes=None):
    """Dilation of the erosion."""
    _warn_size(size, footprint)
    tmp = grey_erosion(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    return grey_dilation(tmp, size, footprint, structure, output, mode, cval, origin, axes=axes)


def grey_closing(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0, origin=0, *,
                 axes=None):
    """Erosion of the dilation."""
    _warn_size(size, footprint)
    tmp = grey_dilation(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    return grey_erosion(tmp, size, footprint, structure, output, mode, cval, origin, axes=axes)


def _into(result, output):
    if isinstance(output, loom.ndarray):
        loom.copyto(output, result)
        return output
    return result


def morphological_gradient(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0,
                           origin=0, *, axes=None):
    """Dilation minus erosion."""
    args = (size, footprint, structure, None, mode, cval, origin)
    return _into(grey_dilation(input, *args, axes=axes) - grey_erosion(input, *args, axes=axes), output)


def morphological_laplace(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0,
                          origin=0, *, axes=None):
    """Dilation plus erosion minus twice the input."""
    x = _support.check_input(input)
    args = (size, footprint, structure, None, mode, cval, origin)
    return _into(grey_dilation(x, *args, axes=axes) + grey_erosion(x, *args, axes=axes) - x - x, output)


def white_tophat(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0, origin=0, *,
                 axes=None):
    """The input minus its opening (exclusive or for bool), as SciPy: the opening is made in
    the output's dtype and the difference written there (NumPy's same_kind rule)."""
    x = _support.check_input(input)
    opened = grey_opening(x, size, footprint, structure, output, mode, cval, origin, axes=axes)
    if x.dtype == loom.bool_ and opened.dtype == loom.bool_:
        return loom.bitwise_xor(x, opened, out=opened)
    return loom.subtract(x, opened, out=opened)


def black_tophat(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0, origin=0, *,
                 axes=None):
    """The closing minus the input (exclusive or for bool), in the output's dtype as white_tophat."""
    x = _support.check_input(input)
    closed = grey_closing(x, size, footprint, structure, output, mode, cval, origin, axes=axes)
    if x.dtype == loom.bool_ and closed.dtype == loom.bool_:
        return loom.bitwise_xor(closed, x, out=closed)
    return loom.subtract(closed, x, out=closed)
