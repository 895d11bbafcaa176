"""Order-statistic filters (scipy.ndimage): minimum/maximum (separable boxes by a doubling
scan, O(log size) ops per axis; other footprints one op per element), median, rank and
percentile (the footprint's neighbours stacked and sorted on the device)."""
import numpy as np

import loom

from .. import _util
from . import _support


def _window(x, axis, size, n, op):
    """out[i] = op(x[i .. i + size - 1]) along axis, for i < n, in about log2(size) ops."""
    def sl(a, start, stop):
        idx = [slice(None)] * a.ndim
        idx[axis] = slice(start, stop)
        return a[tuple(idx)]
    cur, span = x, 1
    while 2 * span <= size:
        length = cur.shape[axis]
        cur = op(sl(cur, 0, length - span), sl(cur, span, length))
        span *= 2
    if span == size:
        return sl(cur, 0, n)
    return op(sl(cur, 0, n), sl(cur, size - span, size - span + n))


def _check_origin(origin, size):
    if not -(size // 2) <= origin <= (size - 1) // 2:
        raise ValueError("Invalid origin; origin must satisfy -(size // 2) <= origin <= (size-1) // 2")


def _minmax1d(x, size, axis, output, mode, cval, origin, op):
    if size < 1:
        raise RuntimeError("incorrect filter size")
    x = _support.check_input(x)
    axis = _util.normalize_axis(axis, x.ndim)
    _check_origin(origin, size)
    m = _support.filter_mode(mode)
    if x.size == 0:
        return _support.finish(x, x, output)
    b = size // 2 + origin
    ext = _support.extend(x, axis, b, size - 1 - b, m, cval)
    return _support.finish(_window(ext, axis, size, x.shape[axis], op), x, output)


def minimum_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """The minimum over `size` neighbours along axis (scipy.ndimage.minimum_filter1d)."""
    return _minmax1d(input, size, axis, output, mode, cval, origin, loom.minimum)


def maximum_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """The maximum over `size` neighbours along axis (scipy.ndimage.maximum_filter1d)."""
    return _minmax1d(input, size, axis, output, mode, cval, origin, loom.maximum)


def _footprint(size, footprint, axes):
    if footprint is None:
        if size is None:
            raise RuntimeError("no footprint or filter size provided")
        sizes = _support.sequence(size, len(axes))
        return np.ones([int(s) for s in sizes], bool), True
    fp = np.asarray(footprint.numpy() if isinstance(footprint, loom.ndarray) else footprint, dtype=bool)
    if fp.ndim != len(axes):
        raise RuntimeError("footprint array has incorrect shape.")
    if not fp.any():
        raise ValueError("All-zero footprint is not supported.")
    return fp, bool(fp.all())


def _taps(x, fp, axes, mode, cval, origins):
    """The extended input and, per True footprint element, its slice: a list of arrays."""
    m = _support.filter_mode(mode)
    ext = x
    for ax, w, org in zip(axes, fp.shape, origins):
        _check_origin(org, w)
        b = w // 2 + org
        ext = _support.extend(ext, ax, b, w - 1 - b, m, cval)
    out = []
    for k in zip(*np.nonzero(fp)):
        sl = [slice(None)] * x.ndim
        for ax, kk in zip(axes, k):
            sl[ax] = slice(kk, kk + x.shape[ax])
        out.append(ext[tuple(sl)])
    return out



def _minmax(input, size, footprint, output, mode, cval, origin, axes, op, op1d):
    x = _support.check_input(input)
    axes = _support.axes_of(axes, x.ndim)
    fp, separable = _footprint(size, footprint, axes)
    origins = _support.sequence(origin, len(axes))
    modes = _support.sequence(mode, len(axes))
    if separable:
        out = x
        for ax, s, o, m in zip(axes, fp.shape, origins, modes):
            if s > 1 or o:
                out = op1d(out, s, ax, None, m, cval, o)
        return _support.finish(out, x, output)
    if len(set(modes)) > 1:
        raise RuntimeError("A sequence of modes is not supported for non-separable footprints")
    taps = _taps(x, fp, axes, modes[0], cval, origins)
    out = taps[0]
    for t in taps[1:]:
        out = op(out, t)
    return _support.finish(out, x, output)


def minimum_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None):
    """The minimum over a box or footprint (scipy.ndimage.minimum_filter)."""
    return _minmax(input, size, footprint, output, mode, cval, origin, axes, loom.minimum, minimum_filter1d)


def maximum_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None):
    """The maximum over a box or footprint (scipy.ndimage.maximum_filter)."""
    return _minmax(input, size, footprint, output, mode, cval, origin, axes, loom.maximum, maximum_filter1d)


def _rank(input, rank, size, footprint, output, mode, cval, origin, axes, operation):
    x = _support.check_input(input)
    axes = _support.axes_of(axes, x.ndim)
    fp, _ = _footprint(size, footprint, axes)
    origins = _support.sequence(origin, len(axes))
    filter_size = int(fp.sum())
    if operation == "median":
        rank = filter_size // 2
    elif operation == "percentile":
        percentile = rank
        if percentile < 0.0:
            percentile += 100.0
        if percentile < 0 or percentile > 100:
            raise RuntimeError("invalid percentile")
        rank = filter_size - 1 if percentile == 100.0 else int(float(filter_size) * percentile / 100.0)
    if rank < 0:
        rank += filter_size
    if rank < 0 or rank >= filter_size:
        raise RuntimeError("rank not within filter footprint size")
    if x.size == 0:
        return _support.finish(x, x, output)
    _support.filter_mode(mode)
    taps = _taps(x, fp, axes, mode, cval, origins)
    if rank == 0 or rank == filter_size - 1:
        op = loom.minimum if rank == 0 else loom.maximum
        out = taps[0]
        for t in taps[1:]:
            out = op(out, t)
        return _support.finish(out, x, output)
    stacked = loom.sort(loom.stack(taps, axis=-1), axis=-1)
    return _support.finish(stacked[..., rank], x, output)


def median_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None):
    """The median over a box or footprint: the element of sorted rank size // 2
    (scipy.ndimage.median_filter)."""
    return _rank(input, 0, size, footprint, output, mode, cval, origin, axes, "median")


def rank_filter(input, rank, size=None, footprint=None, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None):
    """The element of the given rank over a box or footprint (scipy.ndimage.rank_filter)."""
    return _rank(input, int(rank), size, footprint, output, mode, cval, origin, axes, "rank")


def percentile_filter(input, percentile, size=None, footprint=None, output=None, mode="reflect", cval=0.0, origin=0,
                      *, axes=None):
    """The given percentile over a box or footprint (scipy.ndimage.percentile_filter)."""
    return _rank(input, float(percentile), size, footprint, output, mode, cval, origin, axes, "percentile")
