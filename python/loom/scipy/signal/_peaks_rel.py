"""argrelmin, argrelmax, argrelextrema (scipy.signal): the samples that compare true with
each of their `order` neighbours on both sides along an axis, by shifted gathers on the
array's device."""
import numpy as np

import loom

from .. import _util


def _loom_comparator(comparator):
    """NumPy's comparison ufuncs (what SciPy's callers pass) as loom's functions."""
    if isinstance(comparator, np.ufunc):
        return getattr(loom, comparator.__name__, comparator)
    return comparator


def _boolrelextrema(data, comparator, axis=0, order=1, mode="clip"):
    if int(order) != order or order < 1:
        raise ValueError("Order must be an int >= 1")
    data = _util.asarray(data)
    axis = _util.normalize_axis(axis, data.ndim)
    comparator = _loom_comparator(comparator)
    n = data.shape[axis]
    if mode not in ("clip", "wrap", "raise"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    if n == 0:
        return loom.zeros(data.shape, dtype=loom.bool_, device=data.device)
    if mode == "raise":
        raise IndexError(f"index {n} is out of bounds for axis {axis} with size {n}")
    locs = loom.arange(n, dtype=loom.int64, device=data.device)
    results = loom.ones(data.shape, dtype=loom.bool_, device=data.device)
    for shift in range(1, int(order) + 1):
        for neighbours in (locs + shift, locs - shift):
            # beyond the ends a sample is compared with the end sample (clip) or the other end (wrap)
            index = loom.clip(neighbours, 0, n - 1) if mode == "clip" else neighbours % n
            results = results & comparator(data, loom.take(data, index, axis=axis))
    return results


def argrelextrema(data, comparator, axis=0, order=1, mode="clip"):
    """The indices (a tuple, one array per dimension) of the relative extrema of data along
    axis: where comparator(sample, neighbour) holds for the `order` neighbours on each side
    (scipy.signal.argrelextrema); mode 'clip' or 'wrap' says what lies beyond the ends."""
    return loom.nonzero(_boolrelextrema(data, comparator, axis, order, mode))


def argrelmin(data, axis=0, order=1, mode="clip"):
    """The indices of the relative minima of data along axis (scipy.signal.argrelmin)."""
    return argrelextrema(data, loom.less, axis, order, mode)


def argrelmax(data, axis=0, order=1, mode="clip"):
    """The indices of the relative maxima of data along axis (scipy.signal.argrelmax)."""
    return argrelextrema(data, loom.greater, axis, order, mode)
