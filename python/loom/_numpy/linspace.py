"""numpy.linspace's whole call over the bound one: NumPy's positional order (retstep before
dtype), retstep=, axis=, and start/stop that are arrays (broadcast together, the samples along
`axis`) or complex. Real scalar ends with neither retstep nor an axis go straight to the bound
function (one kernel); the rest is NumPy's own arithmetic in loom's ops, on the ends' device.
"""
import operator

import numpy as _np

from .. import _loom

__all__ = ["linspace"]

_bound_linspace = _loom.linspace


def _real_scalar(v):
    if isinstance(v, _loom.ndarray):
        return v.ndim == 0 and v.dtype.kind != "c"
    return isinstance(v, (int, float, _np.integer, _np.floating)) and not isinstance(v, complex)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None):
    """numpy.linspace: `num` evenly spaced samples from start to stop (stop included when
    endpoint); array ends give one run per element along `axis`; retstep=True also returns
    the step (NaN for a single sample with the end point, as NumPy)."""
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"[linspace] number of samples, {num}, must be non-negative")
    if not retstep and axis == 0 and _real_scalar(start) and _real_scalar(stop):
        return _bound_linspace(start, stop, num, endpoint, dtype, device)
    dev = device if device is not None else next(
        (v.device for v in (start, stop) if isinstance(v, _loom.ndarray)), None)
    # Python numbers stay weak (NEP 50), as in NumPy: a float32 array and the end 2 stay float32.
    lo, hi = (v if isinstance(v, (int, float, complex)) else _loom.asarray(v, device=dev) for v in (start, stop))
    div = num - 1 if endpoint else num
    # NumPy: the ends times 1.0 (ints become float64), the result type with float(num).
    lo, hi = lo * 1.0, hi * 1.0
    work = _loom.result_type(lo, hi, float(num))
    out_dtype = work if dtype is None else _loom.dtype(dtype)
    delta = _loom.asarray(hi - lo, dtype=work, device=dev)
    y = _loom.arange(0, num, dtype=work, device=delta.device).reshape((-1,) + (1,) * delta.ndim)
    if div > 0:
        step = delta / div
        if bool(_loom.any(step == 0)):  # subnormal spans (NumPy's gh-5437): i / div * delta
            y = y / div * delta
        else:
            y = y * step
    else:
        step = _np.nan
        y = y * delta
    y = y + lo
    if endpoint and num > 1:
        y[-1, ...] = hi
    if axis != 0:
        y = _loom.moveaxis(y, 0, axis)
    if out_dtype.kind in "iu":
        y = _loom.floor(y)  # NumPy rounds toward -inf for an integer dtype
    y = y.astype(out_dtype, copy=False)
    return (y, step) if retstep else y
