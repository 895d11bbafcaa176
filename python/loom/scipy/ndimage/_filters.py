"""Linear filters (scipy.ndimage): correlate1d, convolve1d, correlate, convolve,
gaussian_filter(1d), uniform_filter(1d). The input is extended once per axis by the mode's
index table, then each weight adds one shifted slice (pairs of them for symmetric 1-D
filters): the weights (a small table) are read on the host, the image stays on its device. One-axis correlations of float images
on a GPU run as one kernel per axis instead (_correlate_kernel)."""
import numpy as np

import loom

from .. import _util
from . import _correlate_kernel, _support


def _check_origin(origin, size, nd=False):
    if not -(size // 2) <= origin <= (size - 1) // 2:
        if nd:
            raise ValueError("Invalid origin; origin must satisfy -(weights.shape[k] // 2) <= origin[k] <= "
                             "(weights.shape[k]-1) // 2")
        raise ValueError("Invalid origin; origin must satisfy -(len(weights) // 2) <= origin <= (len(weights)-1) // 2")


def _correlate_nd(x, weights, axes, mode, cval, origins, output, divide=None, skip_small=False):
    """The N-D correlation over `axes` with a host weight table of len(axes) dimensions.
    skip_small: leave out the weights of magnitude at most DBL_EPSILON, as SciPy's N-D
    correlate does (its correlate1d adds every tap, so 0 * inf gives a NaN there)."""
    mode = _support.filter_mode(mode)
    taps = np.abs(weights) > np.finfo(np.float64).eps if skip_small else np.ones(weights.shape, bool)
    sym = symmetry(weights) if len(axes) == 1 and not skip_small else 0
    if len(axes) == 1 and _correlate_kernel.applies(x, weights, output):
        _check_origin(origins[0], weights.shape[0])
        return _correlate_kernel.correlate_axis(x, weights, taps, axes[0], mode, cval, origins[0], output, divide,
                                                sym)
    dt = _support.work_dtype(x)
    if weights.dtype.kind == "c" and dt.kind != "c":
        dt = loom.complex128 if dt == loom.float64 else loom.complex64
    xw = x.astype(dt, copy=False)  # extend() below copies anyway
    if x.size == 0:
        return _support.finish(xw, x, output)
    ext = xw
    before = []
    for ax, w, org in zip(axes, weights.shape, origins):
        _check_origin(org, w, len(axes) > 1)
        b = w // 2 + org
        before.append(b)
        ext = _support.extend(ext, ax, b, w - 1 - b, mode, cval)
    out = _paired_taps(ext, weights, axes[0], x.shape[axes[0]], sym) if sym else None
    for k in zip(*np.nonzero(taps)) if out is None else ():
        sl = [slice(None)] * x.ndim
        for ax, kk in zip(axes, k):
            sl[ax] = slice(kk, kk + x.shape[ax])
        term = ext[tuple(sl)] * weights[k].item()
        out = term if out is None else out + term
    if out is None:
        out = loom.zeros(x.shape, dtype=dt, device=x.device)
    if divide is not None:
        out = out / divide
    return _support.finish(out, x, output)


def symmetry(w):
    """+1 for a symmetric odd-length real 1-D filter, -1 for an antisymmetric one, else 0:
    SciPy's correlate1d sums those in pairs."""
    c = len(w) // 2
    if w.ndim != 1 or len(w) < 3 or not len(w) & 1 or w.dtype.kind == "c":
        return 0
    if np.array_equal(w[:c], w[c + 1:][::-1]):
        return 1
    if np.array_equal(w[:c], -w[c + 1:][::-1]):
        return -1
    return 0


def _paired_taps(ext, w, axis, n, sym):
    """A filter of symmetry() sym summed as SciPy's correlate1d: the centre tap, then
    (x[-j] +- x[+j]) * w[c - j] from the outermost pair in: one multiply per pair."""
    c = len(w) // 2
    combine = loom.add if sym > 0 else loom.subtract

    def tap(k):
        sl = [slice(None)] * ext.ndim
        sl[axis] = slice(k, k + n)
        return ext[tuple(sl)]
    out = tap(c) * w[c].item()
    for j in range(c, 0, -1):
        out = out + combine(tap(c - j), tap(c + j)) * w[c - j].item()
    return out


def _complex_output(x, w, output):
    """SciPy's output when the input or the weights are complex: the input's dtype promoted
    to complex by default, a real dtype promoted with a warning, a real array or dtype name
    refused (_support.complex_output)."""
    if x.dtype.kind != "c" and w.dtype.kind != "c":
        return output
    out = _support.complex_output(output)
    return np.promote_types(np.dtype(x.dtype.name), np.complex64) if out is None else out


def _weights(weights):
    w = np.asarray(weights.numpy() if isinstance(weights, loom.ndarray) else weights)
    if w.dtype.kind not in "fc":
        w = w.astype(np.float64)
    return w


def correlate1d(input, weights, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """The 1-D correlation of input with weights along axis (scipy.ndimage.correlate1d):
    out[i] = sum_j weights[j] * in[i + j - len(weights) // 2 - origin], borders by mode."""
    x = _util.asarray(input)
    w = _weights(weights)
    if w.ndim != 1:
        raise RuntimeError("filter weights must be a one-dimensional array")
    if w.size == 0:
        raise RuntimeError("no filter weights given")
    axis = _util.normalize_axis(axis, x.ndim)
    output = _complex_output(x, w, output)
    if w.dtype.kind == "c":  # as numpy.correlate: the weights conjugated, not the input
        w = w.conj()
    return _correlate_nd(x, w, [axis], mode, cval, [origin], output)


def convolve1d(input, weights, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """The 1-D convolution along axis (scipy.ndimage.convolve1d)."""
    w = _weights(weights)
    if w.ndim != 1:
        raise RuntimeError("filter weights must be a one-dimensional array")
    w = w[::-1]
    origin = -origin
    if not len(w) & 1:
        origin -= 1
    if w.dtype.kind == "c":  # undoes correlate1d's conjugation
        w = w.conj()
    return correlate1d(input, w.copy(), axis, output, mode, cval, origin)


def _nd(input, weights, output, mode, cval, origin, axes, convolution):
    x = _util.asarray(input)
    w = _weights(weights)
    axes = _support.axes_of(axes, x.ndim)
    if w.ndim != len(axes):
        raise RuntimeError(f"weights.ndim ({w.ndim}) must match len(axes) ({len(axes)})")
    if w.size == 0:
        raise RuntimeError("no filter weights given")
    origins = _support.sequence(origin, len(axes))
    output = _complex_output(x, w, output)
    if convolution:
        w = w[(slice(None, None, -1),) * w.ndim].copy()
        origins = [-o - (0 if s & 1 else 1) for o, s in zip(origins, w.shape)]
    elif w.dtype.kind == "c":  # as numpy.correlate: the weights conjugated, not the input
        w = w.conj()
    return _correlate_nd(x, w, axes, mode, cval, origins, output, skip_small=True)


def correlate(input, weights, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None):
    """The N-D correlation of input with weights (scipy.ndimage.correlate)."""
    return _nd(input, weights, output, mode, cval, origin, axes, False)


def convolve(input, weights, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None):
    """The N-D convolution of input with weights (scipy.ndimage.convolve)."""
    return _nd(input, weights, output, mode, cval, origin, axes, True)


def _gaussian_kernel1d(sigma, order, radius):
    """SciPy's sampled Gaussian (or its order-th derivative), normalised to sum 1."""
    if order < 0:
        raise ValueError("order must be non-negative")
    exponent_range = np.arange(order + 1)
    sigma2 = sigma * sigma
    x = np.arange(-radius, radius + 1)
    phi_x = np.exp(-0.5 / sigma2 * x ** 2)
    phi_x = phi_x / phi_x.sum()
    if order == 0:
        return phi_x
    q = np.zeros(order + 1)
    q[0] = 1
    D = np.diag(exponent_range[1:], 1)
    P = np.diag(np.ones(order) / -sigma2, -1)
    Q_deriv = D + P
    for _ in range(order):
        q = Q_deriv.dot(q)
    q = (x[:, None] ** exponent_range).dot(q)
    return q * phi_x


def gaussian_filter1d(input, sigma, axis=-1, order=0, output=None, mode="reflect", cval=0.0,
                      truncate=4.0, *, radius=None):
    """A 1-D Gaussian filter (scipy.ndimage.gaussian_filter1d): standard deviation sigma,
    derivative order `order`, kernel radius int(truncate * sigma + 0.5) unless radius."""
    sd = float(sigma)
    lw = int(truncate * sd + 0.5)
    if radius is not None:
        lw = radius
    if not isinstance(lw, (int, np.integer)) or lw < 0:
        raise ValueError("Radius must be a nonnegative integer.")
    weights = _gaussian_kernel1d(sigma, order, lw)[::-1].copy()
    return correlate1d(input, weights, axis, output, mode, cval, 0)


def gaussian_filter(input, sigma, order=0, output=None, mode="reflect", cval=0.0, truncate=4.0,
                    *, radius=None, axes=None):
    """A multi-dimensional Gaussian filter as 1-D filters along each axis, each result in
    the output dtype as SciPy stores it (scipy.ndimage.gaussian_filter)."""
    x = _util.asarray(input)
    axes = _support.axes_of(axes, x.ndim)
    orders = _support.sequence(order, len(axes))
    sigmas = _support.sequence(sigma, len(axes))
    modes = _support.sequence(mode, len(axes))
    radiuses = _support.sequence(radius, len(axes))
    out = x
    dt = _support.output_dtype(x, output)
    plan = [(ax, s, o, m, r) for ax, s, o, m, r in zip(axes, sigmas, orders, modes, radiuses) if s > 1e-15]
    for ax, s, o, m, r in plan:
        out = gaussian_filter1d(out, s, ax, o, dt, m, cval, truncate, radius=r)
    if not plan:
        out = _support.finish(out, x, dt)
    return _support.finish(out, x, output)


def uniform_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """The mean over `size` neighbours along axis (scipy.ndimage.uniform_filter1d)."""
    if size < 1:
        raise RuntimeError("incorrect filter size")
    x = _util.asarray(input)
    axis = _util.normalize_axis(axis, x.ndim)
    _check_origin(origin, size)
    if size <= 32 or x.size == 0:
        # A sum of the taps then one division, as SciPy's running sum: 15 / 3 is 5, not 4.99...
        return _correlate_nd(x, np.ones(size), [axis], mode, cval, [origin], output, divide=size)
    # Long windows: a running sum (cumsum) instead of one op per tap.
    m = _support.filter_mode(mode)
    b = size // 2 + origin
    ext = _support.extend(x.astype(_support.work_dtype(x)), axis, b + 1, size - 1 - b, m, cval)
    c = loom.cumsum(ext, axis=axis)
    n = x.shape[axis]
    hi = [slice(None)] * x.ndim
    lo = [slice(None)] * x.ndim
    hi[axis] = slice(size, size + n)
    lo[axis] = slice(0, n)
    return _support.finish((c[tuple(hi)] - c[tuple(lo)]) / size, x, output)


def uniform_filter(input, size=3, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None):
    """The mean over a box of `size` (scipy.ndimage.uniform_filter), one 1-D pass per axis."""
    x = _util.asarray(input)
    axes = _support.axes_of(axes, x.ndim)
    sizes = _support.sequence(size, len(axes))
    origins = _support.sequence(origin, len(axes))
    modes = _support.sequence(mode, len(axes))
    dt = _support.output_dtype(x, output)
    out = x
    plan = [(ax, s, o, m) for ax, s, o, m in zip(axes, sizes, origins, modes) if s > 1]
    for ax, s, o, m in plan:
        out = uniform_filter1d(out, int(s), ax, dt, m, cval, o)
    return _support.finish(out, x, output)
