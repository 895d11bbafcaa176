"""numpy.quantile, percentile and median in full over the bound ones: every method NumPy has
(the bound functions compute linear, lower, higher, nearest and midpoint), out=,
overwrite_input=True (the input is left sorted along the axis, as NumPy leaves it
partitioned), and the median of complex arrays (by NumPy's order: real part, then imaginary).

A call the bound function can answer goes straight to it. Otherwise the data is sorted along
the axis with loom's sort and the two neighbours of each quantile's virtual index are
gathered and interpolated; the indices and weights come from q alone (NumPy's
Hyndman-Fan definitions, computed on the host: q is a handful of numbers), never from the data.
"""
import numpy as _np
from numpy.lib.array_utils import normalize_axis_index as _normalize_axis_index

from .. import _loom
from .ufuncs import write_out

__all__ = ["quantile", "percentile", "median", "nanmedian"]

_bound_quantile = _loom.quantile
_bound_percentile = _loom.percentile
_bound_median = _loom.median
_bound_nanmedian = _loom.nanmedian
_BOUND_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")


def _continuous(alpha, beta):
    return lambda n, q: n * q + (alpha + q * (1 - alpha - beta)) - 1


def _to_boundaries(index, odd_only):
    """The discrete methods' indices: floor(index) where it is integral (and, for
    closest_observation, odd), else the next one; clipped at 0."""
    previous = _np.floor(index)
    keep = (index - previous == 0) & ((previous % 2 == 1) if odd_only else True)
    return _np.maximum(_np.where(keep, previous, previous + 1).astype(_np.intp), 0)


def _midpoint_gamma(gamma, index):
    return _np.where(index % 1 == 0, 0.0, 0.5)


# method -> (virtual index of n and q, fix_gamma or None where the index is an integer)
_METHODS = {
    "inverted_cdf": (lambda n, q: _to_boundaries(n * q - 1, False), None),
    "averaged_inverted_cdf": (lambda n, q: n * q - 1, lambda g, _: _np.where(g == 0, 0.5, 1.0)),
    "closest_observation": (lambda n, q: _to_boundaries(n * q - 1 - 0.5, True), None),
    "interpolated_inverted_cdf": (_continuous(0, 1), lambda g, _: g),
    "hazen": (_continuous(0.5, 0.5), lambda g, _: g),
    "weibull": (_continuous(0, 0), lambda g, _: g),
    "linear": (lambda n, q: (n - 1) * q, lambda g, _: g),
    "median_unbiased": (_continuous(1 / 3.0, 1 / 3.0), lambda g, _: g),
    "normal_unbiased": (_continuous(3 / 8.0, 3 / 8.0), lambda g, _: g),
    "lower": (lambda n, q: _np.floor((n - 1) * q).astype(_np.intp), None),
    "higher": (lambda n, q: _np.ceil((n - 1) * q).astype(_np.intp), None),
    "midpoint": (lambda n, q: 0.5 * (_np.floor((n - 1) * q) + _np.ceil((n - 1) * q)), _midpoint_gamma),
    "nearest": (lambda n, q: _np.around((n - 1) * q).astype(_np.intp), None),
}


def _bound_answers(a, q, method, out, overwrite_input):
    """True when the bound function gives NumPy's answer: its methods, no out= nor
    overwrite_input, q at most 2-d, and NumPy's result dtype (an integer a interpolated at a q
    of float32 is float32 in NumPy, float64 in the bound function)."""
    if method not in _BOUND_METHODS or out is not None or overwrite_input:
        return False
    q_ndim = q.ndim if hasattr(q, "ndim") else _np.ndim(q)
    if q_ndim > 2:
        return False
    if method in ("linear", "midpoint") and hasattr(q, "dtype") and q.dtype != _np.float64:
        return not (hasattr(a, "dtype") and a.dtype.kind in "iub")
    return True


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False):
    """numpy.quantile: the q-th quantiles of a along axis (q in [0, 1]), by any of NumPy's
    methods; out= receives the result; overwrite_input=True leaves a sorted along axis."""
    if _bound_answers(a, q, method, out, overwrite_input):
        return _bound_quantile(a, q, axis=axis, method=method, keepdims=keepdims)
    return _quantile("quantile", a, q, 1, axis, out, overwrite_input, method, keepdims)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False):
    """numpy.percentile: the q-th percentiles of a along axis (q in [0, 100]), by any of
    NumPy's methods; out= receives the result; overwrite_input=True leaves a sorted along axis."""
    if _bound_answers(a, q, method, out, overwrite_input):
        return _bound_percentile(a, q, axis=axis, method=method, keepdims=keepdims)
    return _quantile("percentile", a, q, 100, axis, out, overwrite_input, method, keepdims)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """numpy.median: the middle value along axis (the mean of the middle two), complex arrays
    included (ordered by real part, then imaginary part); NaN where a slice holds one."""
    x = a if isinstance(a, _loom.ndarray) else _loom.asarray(a)
    if x.dtype.kind != "c":
        return _bound_median(a, axis=axis, out=out, overwrite_input=overwrite_input, keepdims=keepdims)
    s, axes = _sorted_along_0(x, axis)
    n = s.shape[0]
    if n == 0:
        raise ValueError("[median] cannot take the median of an empty slice")
    middle = s[(n - 1) // 2:n // 2 + 1]
    r = _loom.mean(middle, axis=0)
    r = _loom.where(_loom.isnan(s[-1]), s[-1], r)  # a NaN sorts last: it makes the slice's median
    return _finish("median", r, x, s, axes, out, overwrite_input, keepdims, 0)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """numpy.nanmedian: the median ignoring NaNs along axis, complex arrays included; an
    all-NaN slice gives NaN."""
    x = a if isinstance(a, _loom.ndarray) else _loom.asarray(a)
    if x.dtype.kind != "c":
        return _bound_nanmedian(a, axis=axis, out=out, overwrite_input=overwrite_input, keepdims=keepdims)
    s, axes = _sorted_along_0(x, axis)  # NaNs sort last
    if s.shape[0] == 0:
        raise ValueError("[nanmedian] cannot take the median of an empty slice")
    k = _loom.sum(~_loom.isnan(s), axis=0)  # the numbers in each slice
    lo = _loom.maximum((k - 1) // 2, 0)
    hi = _loom.maximum(k // 2, 0)
    pick = lambda i: _loom.take_along_axis(s, i.reshape((1,) + tuple(i.shape)), axis=0)[0]  # noqa: E731
    r = (pick(lo) + pick(hi)) / 2
    r = _loom.where(k == 0, s[-1], r)
    return _finish("nanmedian", r, x, s, axes, out, overwrite_input, keepdims, 0)


def _quantile(name, a, q, scale, axis, out, overwrite_input, method, keepdims):
    if method not in _METHODS:
        raise ValueError(f"[{name}] {method!r} is not a valid method. Use one of: {', '.join(_METHODS)}")
    weak_q = type(q) in (int, float)  # NumPy: a Python number q keeps a's dtype in the result
    qh = _np.asarray(q.numpy() if isinstance(q, _loom.ndarray) else q)
    qh = _np.true_divide(qh, scale) if scale != 1 else qh
    if qh.ndim > 2:
        raise ValueError(f"[{name}] q must be a scalar or 1d")
    if qh.size and not (_np.all(qh >= 0) and _np.all(qh <= 1)):
        bounds = "[0, 100]" if scale == 100 else "[0, 1]"
        raise ValueError(f"[{name}] {'Percentiles' if scale == 100 else 'Quantiles'} must be in the range {bounds}")
    x = a if isinstance(a, _loom.ndarray) else _loom.asarray(a)
    if x.dtype.kind == "c":
        raise TypeError(f"[{name}] a must be an array of real numbers")
    s, axes = _sorted_along_0(x, axis)
    n = s.shape[0]
    virtual_of, fix_gamma = _METHODS[method]
    virtual = _np.asarray(virtual_of(n, qh))
    rest = (1,) * (s.ndim - 1)
    if fix_gamma is None:
        r = _loom.take(s, _loom.asarray(virtual, device=s.device), axis=0)
    else:
        prev = _np.floor(virtual)
        nxt = prev + 1
        for where, value in ((virtual >= n - 1, -1), (virtual < 0, 0), (_np.isnan(virtual), -1)):
            prev, nxt = _np.where(where, value, prev), _np.where(where, value, nxt)
        gamma = _np.asarray(fix_gamma(virtual - prev, virtual), dtype=virtual.dtype)
        below = _loom.take(s, _loom.asarray(prev.astype(_np.intp), device=s.device), axis=0)
        above = _loom.take(s, _loom.asarray(nxt.astype(_np.intp), device=s.device), axis=0)
        t = float(gamma) if weak_q else _loom.asarray(gamma.reshape(gamma.shape + rest), device=s.device)
        diff = above - below
        low, high = below + diff * t, above - diff * (1 - t)
        r = (high if t >= 0.5 else low) if weak_q else _loom.where(t >= 0.5, high, low)
    if x.dtype.kind == "f" and n:
        r = _loom.where(_loom.isnan(s[-1]), s[-1].astype(r.dtype), r)  # NaN last: the slice's answer
    return _finish(f"{name}", r, x, s, axes, out, overwrite_input, keepdims, qh.ndim)


def _axes(ndim, axis):
    if axis is None:
        return tuple(range(ndim))
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    norm = tuple(_normalize_axis_index(int(ax), ndim) for ax in axes)  # AxisError as NumPy's
    if len(set(norm)) != len(norm):
        raise ValueError("repeated axis")
    return norm


def _sorted_along_0(x, axis):
    """x sorted along the reduced axes, flattened into one axis moved first: (sorted, axes)."""
    axes = _axes(x.ndim, axis)
    kept = [i for i in range(x.ndim) if i not in axes]
    moved = _loom.transpose(x, tuple(axes) + tuple(kept)) if x.ndim else x.reshape((1,))
    flat = moved.reshape((-1,) + tuple(x.shape[i] for i in kept))
    return _loom.sort(flat, axis=0), axes


def _finish(name, r, x, s, axes, out, overwrite_input, keepdims, q_ndim):
    """keepdims, overwrite_input and out= on a result of shape q.shape + kept axes."""
    if keepdims:
        shape = tuple(1 if i in axes else n for i, n in enumerate(x.shape))
        r = r.reshape(tuple(r.shape[:q_ndim]) + shape)
    if overwrite_input and isinstance(x, _loom.ndarray) and x.ndim:
        kept = [i for i in range(x.ndim) if i not in axes]
        order = tuple(axes) + tuple(kept)
        back = s.reshape(tuple(x.shape[i] for i in order))
        x[...] = _loom.transpose(back, tuple(order.index(i) for i in range(x.ndim)))
    if out is None:
        return r
    if not isinstance(out, _loom.ndarray):
        raise TypeError(f"[{name}] out must be a loom array, not {type(out).__name__}")
    if tuple(out.shape) != tuple(r.shape):
        raise ValueError(f"[{name}] out has shape {tuple(out.shape)}; the result has {tuple(r.shape)}")
    write_out(f"[{name}]", r, out, "same_kind", True)
    return out
