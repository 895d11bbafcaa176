"""Spline interpolation (scipy.ndimage): spline_filter(1d), map_coordinates,
affine_transform, shift, zoom, rotate; orders 0-5 with SciPy's modes.

The prefilter (B-spline coefficients) is a symmetric IIR filter; on the infinite extension
of the signal that SciPy's boundary rule assumes, it equals a correlation with the kernel
prod_p (1 - z_p) / (1 + z_p) z_p^|m| per pole z_p, cut where |z_p|^m is below 1e-18, so the
prefilter is a correlate1d with a few dozen taps. Interpolation gathers the (order + 1)^ndim
neighbours of every output point (loom.take on the flattened input) and sums them with the
B-spline weights, all on the device; only the transforms' small matrices live on the host."""
import math

import numpy as np

import loom

from .. import _util
from . import _support
from ._filters import _correlate_nd

_POLES = {2: [math.sqrt(8.0) - 3.0],
          3: [math.sqrt(3.0) - 2.0],
          4: [math.sqrt(664.0 - math.sqrt(438976.0)) + math.sqrt(304.0) - 19.0,
              math.sqrt(664.0 + math.sqrt(438976.0)) - math.sqrt(304.0) - 19.0],
          5: [math.sqrt(67.5 - math.sqrt(4436.25)) + math.sqrt(26.25) - 6.5,
              math.sqrt(67.5 + math.sqrt(4436.25)) - math.sqrt(26.25) - 6.5]}
# The boundary each mode's prefilter assumes (SciPy's ni_splines.c): whole-sample symmetric,
# half-sample symmetric, or periodic.
_PREFILTER_EXTENSION = {"mirror": "mirror", "constant": "mirror", "grid-constant": "mirror", "wrap": "mirror",
                        "reflect": "reflect", "grid-mirror": "reflect", "nearest": "reflect",
                        "grid-wrap": "wrap"}


def _check_order(order):
    if order < 0 or order > 5:
        raise RuntimeError("spline order not supported")


def _check_mode(mode):
    if mode not in _support.INTERP_MODES:
        raise RuntimeError("boundary mode not supported")


def spline_filter1d(input, order=3, axis=-1, output=np.float64, mode="mirror"):
    """The B-spline coefficients of input along axis (scipy.ndimage.spline_filter1d)."""
    _check_order(order)
    _check_mode(mode)
    x = _util.asarray(input)
    axis = _util.normalize_axis(axis, x.ndim)
    if order in (0, 1) or x.shape[axis] <= 1:
        return _support.finish(x.astype(_support.work_dtype(x)), x, output)
    extension = _PREFILTER_EXTENSION[mode]
    out = x.astype(_support.work_dtype(x))
    for z in _POLES[order]:
        radius = int(math.ceil(math.log(1e-18) / math.log(abs(z))))
        m = np.arange(-radius, radius + 1)
        kernel = (1 - z) / (1 + z) * z ** np.abs(m)
        out = _correlate_nd(out, kernel, [axis], extension, 0.0, [0], out.dtype)
    return _support.finish(out, x, output)


def spline_filter(input, order=3, output=np.float64, mode="mirror"):
    """spline_filter1d along every axis (scipy.ndimage.spline_filter); orders 2-5."""
    if order < 2 or order > 5:
        raise RuntimeError("spline order not supported")
    x = _util.asarray(input)
    out = x.astype(_support.work_dtype(x))
    if order > 1:
        for ax in range(x.ndim):
            out = spline_filter1d(out, order, ax, out.dtype, mode)
    return _support.finish(out, x, output)


def _fold(c, n, mode):
    """SciPy's map_coordinate: a coordinate outside [0, n - 1] mapped back by the mode."""
    if mode in ("constant", "grid-constant", "nearest"):
        return c                                # nearest: the taps are clamped instead
    if n <= 1:
        return loom.zeros_like(c)
    trunc = loom.trunc
    if mode == "mirror":
        s2 = 2 * n - 2
        lo = s2 * trunc(-c / s2) + c
        lo = loom.where(lo <= 1 - n, lo + s2, -lo)
        hi = c - s2 * trunc(c / s2)
        hi = loom.where(hi >= n, s2 - hi, hi)
    elif mode in ("reflect", "grid-mirror"):
        s2 = 2 * n
        lo = loom.where(c < -s2, s2 * trunc(-c / s2) + c, c)
        lo = loom.where(lo < -n, lo + s2, -lo - 1)
        hi = c - s2 * trunc(c / s2)
        hi = loom.where(hi >= n, s2 - hi - 1, hi)
    elif mode == "wrap":
        s = n - 1
        lo = c + s * (trunc(-c / s) + 1)
        hi = c - s * trunc(c / s)
    else:  # grid-wrap
        lo = c + n * (trunc((-1 - c) / n) + 1)
        hi = c - n * trunc(c / n)
    return loom.where(c < 0, lo, loom.where(c > n - 1, hi, c))


def _tap_index(idx, n, mode):
    """The source index of integer tap positions (int64), and whether each is inside (the
    taps 'grid-constant' replaces by cval are those outside)."""
    inside = (idx >= 0) & (idx < n)
    if n <= 1:
        return loom.zeros_like(idx), inside
    if mode in ("nearest", "grid-constant"):
        return loom.clip(idx, 0, n - 1), inside
    if mode in ("mirror", "wrap", "constant"):
        s2 = 2 * n - 2
        m = loom.remainder(idx, s2)
        return loom.where(m < n, m, s2 - m), inside
    if mode in ("reflect", "grid-mirror"):
        m = loom.remainder(idx, 2 * n)
        return loom.where(m < n, m, 2 * n - 1 - m), inside
    return loom.remainder(idx, n), inside   # grid-wrap


def _weights(x, order):
    """The order + 1 B-spline weights of each point at distance x from its first tap's
    middle knot, written as SciPy's get_spline_interpolation_weights writes them (the last
    weight is one minus the others), so the sums round as SciPy's do."""
    if order == 0:
        return [loom.ones_like(x)]
    x = x - loom.floor(x if order & 1 else x + 0.5)
    w = [None] * (order + 1)
    if order == 1:
        w[0] = 1.0 - x
    elif order == 2:
        w[1] = 0.75 - x * x
        y = 0.5 - x
        w[0] = 0.5 * y * y
    elif order == 3:
        z = 1.0 - x
        w[1] = (x * x * (x - 2.0) * 3.0 + 4.0) / 6.0
        w[2] = (z * z * (z - 2.0) * 3.0 + 4.0) / 6.0
        w[0] = z * z * z / 6.0
    elif order == 4:
        t = x * x
        w[2] = t * (t * 0.25 - 0.625) + 115.0 / 192.0
        y = 1.0 + x
        w[1] = y * (y * (y * (5.0 - y) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0
        z = 1.0 - x
        w[3] = z * (z * (z * (5.0 - z) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0
        y = 0.5 - x
        t = y * y
        w[0] = t * t / 24.0
    else:
        z = 1.0 - x
        t = x * x
        w[2] = t * (t * (0.25 - x / 12.0) - 0.5) + 0.55
        t = z * z
        w[3] = t * (t * (0.25 - z / 12.0) - 0.5) + 0.55
        y = x + 1.0
        w[1] = y * (y * (y * (y * (y / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425
        z = z + 1.0
        w[4] = z * (z * (z * (z * (z / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425
        y = 1.0 - x
        t = y * y
        w[0] = y * t * t / 120.0
    last = 1.0 - w[0]
    for k in range(1, order):
        last = last - w[k]
    w[order] = last
    return w


def _interpolate(coeffs, coords, order, mode, cval, npad=0):
    """The value at each point of coords (a list of float arrays, one per trailing axis of
    coeffs) of the spline with these coefficients; leading axes of coeffs are batch axes."""
    k = len(coords)
    spatial = coeffs.shape[coeffs.ndim - k:]
    batch = coeffs.shape[:coeffs.ndim - k]
    flat = coeffs.reshape(batch + (-1,))
    out_shape = coords[0].shape
    valid = None
    per_axis = []
    for c, n in zip(coords, spatial):
        c = c + npad
        if mode == "constant":
            ok = (c >= 0) & (c <= n - 1)
            valid = ok if valid is None else valid & ok
        c = _fold(c, n, mode)
        start = loom.floor(c + 0.5) if order % 2 == 0 else loom.floor(c)
        start = start - order // 2
        w = _weights(c, order)
        start = start.astype(loom.int64)
        per_axis.append((w, [_tap_index(start + j, n, mode) for j in range(order + 1)]))
    strides = [int(np.prod(spatial[i + 1:])) for i in range(k)]
    cval_ = loom.asarray(cval, device=coeffs.device).astype(coeffs.dtype)
    total = None
    for combo in np.ndindex(*([order + 1] * k)):
        index = weight = inside = None
        for ax, j in enumerate(combo):
            w, taps = per_axis[ax]
            idx, ins = taps[j]
            index = idx * strides[ax] if index is None else index + idx * strides[ax]
            weight = w[j] if weight is None else weight * w[j]
            if mode == "grid-constant":
                inside = ins if inside is None else inside & ins
        vals = loom.take(flat, index.reshape(-1), axis=-1).reshape(batch + out_shape)
        if inside is not None:
            vals = loom.where(inside, vals, cval_)
        term = vals * weight
        total = term if total is None else total + term
    if valid is not None:
        total = loom.where(valid, total, cval_)
    return total


def _finish_interp(result, x, output):
    """SciPy's output cast for interpolation: integers round half away from zero (unsigned
    ones clip at 0)."""
    dt = _support.output_dtype(x, output)
    if dt.kind in "iu" and result.dtype.kind == "f":
        result = loom.where(result > 0, result + 0.5, result - 0.5)
        if dt.kind == "u":
            result = loom.maximum(result, 0.0)
        result = loom.trunc(result)
    return _support.finish(result, x, output)


def _prepare(x, order, mode, cval, prefilter, k=None):
    """(coefficients, npad) for the trailing k axes (all by default): SciPy pads 12 samples
    for 'nearest' and 'grid-constant' before the prefilter."""
    k = x.ndim if k is None else k
    _check_order(order)
    _check_mode(mode)
    work = x.astype(_support.work_dtype(x))
    if not (prefilter and order > 1):
        return work, 0
    npad = 0
    if mode in ("nearest", "grid-constant"):
        npad = 12
        pad = [(0, 0)] * (x.ndim - k) + [(npad, npad)] * k
        work = (loom.pad(work, pad, mode="edge") if mode == "nearest"
                else loom.pad(work, pad, mode="constant", constant_values=cval))
    for ax in range(x.ndim - k, x.ndim):
        work = spline_filter1d(work, order, ax, work.dtype, mode)
    return work, npad


def map_coordinates(input, coordinates, output=None, order=3, mode="constant", cval=0.0, prefilter=True):
    """The input's spline interpolation at coordinates, shape (input.ndim, ...)
    (scipy.ndimage.map_coordinates)."""
    x = _util.asarray(input)
    c = _util.asarray(coordinates)
    if c.ndim < 1 or c.shape[0] != x.ndim:
        raise RuntimeError("invalid shape for coordinate array")
    _check_order(order)
    _check_mode(mode)
    if x.dtype.kind == "c":  # the parts apart, each with its part of cval (SciPy's rule)
        out = _support.complex_output(output)
        re = map_coordinates(x.real, c, None, order, mode, float(np.real(cval)), prefilter)
        im = map_coordinates(x.imag, c, None, order, mode, float(np.imag(cval)), prefilter)
        return _support.finish(re + 1j * im, x, out)
    if x.size == 0 or c[0].size == 0:
        return _finish_interp(loom.zeros(c.shape[1:], dtype=_support.work_dtype(x), device=x.device), x, output)
    coeffs, npad = _prepare(x, order, mode, cval, prefilter)
    c = c.astype(loom.float64)
    return _finish_interp(_interpolate(coeffs, [c[i] for i in range(x.ndim)], order, mode, cval, npad), x, output)


def _grid(shape, device):
    return [loom.broadcast_to(loom.arange(n, dtype=loom.float64, device=device).reshape(
        [n if i == ax else 1 for i in range(len(shape))]), shape) for ax, n in enumerate(shape)]


def _affine(x, matrix, offset, output_shape, output, order, mode, cval, prefilter, trailing=None):
    """Interpolation at matrix @ o + offset over the trailing `trailing` axes (all by default)."""
    k = x.ndim if trailing is None else trailing
    _check_order(order)
    _check_mode(mode)
    if x.dtype.kind == "c":  # the parts apart, each with its part of cval (SciPy's rule)
        out = _support.complex_output(output)
        re = _affine(x.real, matrix, offset, output_shape, None, order, mode, float(np.real(cval)), prefilter, trailing)
        im = _affine(x.imag, matrix, offset, output_shape, None, order, mode, float(np.imag(cval)), prefilter, trailing)
        return _support.finish(re + 1j * im, x, out)
    batch = x.shape[:x.ndim - k]
    if x.size == 0 or int(np.prod(output_shape)) == 0:
        return _finish_interp(loom.zeros(batch + tuple(output_shape), dtype=_support.work_dtype(x), device=x.device),
                              x, output)
    coeffs, npad = _prepare(x, order, mode, cval, prefilter, k)
    grid = _grid(output_shape, x.device)
    coords = []
    for r in range(k):
        acc = loom.full(output_shape, float(offset[r]), dtype=loom.float64, device=x.device)
        for col in range(len(output_shape)):
            if matrix[r, col] != 0:
                acc = acc + float(matrix[r, col]) * grid[col]
        coords.append(acc)
    return _finish_interp(_interpolate(coeffs, coords, order, mode, cval, npad), x, output)


def affine_transform(input, matrix, offset=0.0, output_shape=None, output=None, order=3, mode="constant",
                     cval=0.0, prefilter=True):
    """The input's value at matrix @ o + offset for every output index o
    (scipy.ndimage.affine_transform); matrix may be (ndim,) (a diagonal), (ndim, ndim),
    (ndim, ndim + 1) or (ndim + 1, ndim + 1) (homogeneous)."""
    x = _util.asarray(input)
    if output_shape is None:
        output_shape = output.shape if isinstance(output, loom.ndarray) else x.shape
    output_shape = tuple(int(s) for s in output_shape)
    if x.ndim < 1 or len(output_shape) < 1:
        raise RuntimeError("input and output rank must be > 0")
    m = np.asarray(matrix.numpy() if isinstance(matrix, loom.ndarray) else matrix, dtype=np.float64)
    if m.ndim not in (1, 2) or m.shape[0] < 1:
        raise RuntimeError("no proper affine matrix provided")
    if m.ndim == 2 and m.shape[0] == x.ndim + 1 and m.shape[1] == len(output_shape) + 1:
        offset, m = m[:x.ndim, -1], m[:x.ndim, :-1]
    elif m.ndim == 2 and m.shape[0] == x.ndim and m.shape[1] == len(output_shape) + 1:
        offset, m = m[:, -1], m[:, :-1]
    if m.shape[0] != x.ndim:
        raise RuntimeError("affine matrix has wrong number of rows")
    if m.ndim == 1:
        m = np.diag(m)
    if m.shape[1] != len(output_shape):
        raise RuntimeError("affine matrix has wrong number of columns")
    off = np.asarray([offset] * x.ndim if np.ndim(offset) == 0 else offset, dtype=np.float64)
    if off.shape != (x.ndim,):
        raise RuntimeError("offset sequence has wrong length")
    return _affine(x, m, off, output_shape, output, order, mode, cval, prefilter)


def shift(input, shift, output=None, order=3, mode="constant", cval=0.0, prefilter=True):
    """The input shifted by `shift` (per axis) with spline interpolation (scipy.ndimage.shift)."""
    x = _util.asarray(input)
    if x.ndim < 1:
        raise RuntimeError("input and output rank must be > 0")
    s = np.asarray(_support.sequence(shift, x.ndim), dtype=np.float64)
    return _affine(x, np.eye(x.ndim), -s, x.shape, output, order, mode, cval, prefilter)


def zoom(input, zoom, output=None, order=3, mode="constant", cval=0.0, prefilter=True, *, grid_mode=False):
    """The input resampled to round(shape * zoom) (scipy.ndimage.zoom); grid_mode=True
    aligns pixel edges instead of the centres of the corner pixels."""
    x = _util.asarray(input)
    if x.ndim < 1:
        raise RuntimeError("input and output rank must be > 0")
    z = _support.sequence(zoom, x.ndim)
    output_shape = tuple(int(round(n * f)) for n, f in zip(x.shape, z))
    if grid_mode:
        div, nominal = np.array(output_shape, float), np.array(x.shape, float)
    else:
        div, nominal = np.array(output_shape, float) - 1, np.array(x.shape, float) - 1
    factor = np.divide(nominal, div, out=np.ones(x.ndim), where=div != 0)
    offset = np.zeros(x.ndim)
    if grid_mode:
        offset = 0.5 * factor - 0.5
    return _affine(x, np.diag(factor), offset, output_shape, output, order, mode, cval, prefilter)


def _cosdg_sindg(angle):
    """cos and sin of an angle in degrees, exact at multiples of 90 (as scipy.special.cosdg)."""
    a = float(angle) % 360.0
    exact = {0.0: (1.0, 0.0), 90.0: (0.0, 1.0), 180.0: (-1.0, 0.0), 270.0: (0.0, -1.0)}
    if a in exact:
        return exact[a]
    r = math.radians(a)
    return math.cos(r), math.sin(r)


def rotate(input, angle, axes=(1, 0), reshape=True, output=None, order=3, mode="constant", cval=0.0,
           prefilter=True):
    """The input rotated by angle degrees in the plane of two axes (scipy.ndimage.rotate);
    with reshape the output holds the whole rotated input."""
    x = _util.asarray(input)
    ndim = x.ndim
    if ndim < 2:
        raise ValueError("input array should be at least 2D")
    axes = list(axes)
    if len(axes) != 2:
        raise ValueError("axes should contain exactly two values")
    if not all(float(ax).is_integer() for ax in axes):
        raise ValueError("axes should contain only integer values")
    axes = [int(a) + ndim if a < 0 else int(a) for a in axes]
    if any(a < 0 or a >= ndim for a in axes) or axes[0] == axes[1]:
        raise ValueError("invalid rotation plane specified")
    axes.sort()
    c, s = _cosdg_sindg(angle)
    rot = np.array([[c, s], [-s, c]])
    in_plane = np.asarray(x.shape)[axes]
    if reshape:
        iy, ix = in_plane
        bounds = rot @ [[0, 0, iy, iy], [0, ix, 0, ix]]
        out_plane = (np.ptp(bounds, axis=1) + 0.5).astype(int)
    else:
        out_plane = in_plane
    offset = (in_plane - 1) / 2 - rot @ ((out_plane - 1) / 2)
    moved = loom.moveaxis(x, axes, [ndim - 2, ndim - 1])
    res = _affine(moved, rot, offset, tuple(int(v) for v in out_plane), None, order, mode, cval, prefilter, trailing=2)
    if x.dtype.kind == "c":
        output = _support.complex_output(output)
    return _support.finish(loom.moveaxis(res, [ndim - 2, ndim - 1], axes), x, output)
