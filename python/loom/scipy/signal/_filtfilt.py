"""scipy.signal.filtfilt and sosfiltfilt: the filter run forward then backward (zero phase)
over the signal extended at both ends, each pass started in the filter's steady state for
the end value (lfilter_zi, sosfilt_zi), as SciPy's method='pad' does."""
import numpy as np

import loom

from .. import _util
from ._filtfilt_gust import filtfilt_gust
from ._lfilter import _coefficients, _sections, lfilter, lfilter_zi, sosfilt, sosfilt_zi


def _along(x, axis, start=None, stop=None, step=None):
    index = [slice(None)] * x.ndim
    index[axis] = slice(start, stop, step)
    return x[tuple(index)]


def _extend(x, n, axis, padtype):
    """x with n values added at each end along axis: odd (point-symmetric about the end
    values), even (mirrored) or constant (the end values repeated)."""
    first, last = _along(x, axis, 0, 1), _along(x, axis, -1, None)
    if padtype == "constant":
        reps = [1] * x.ndim
        reps[axis] = n
        return loom.concatenate([loom.tile(first, reps), x, loom.tile(last, reps)], axis=axis)
    left, right = _along(x, axis, n, 0, -1), _along(x, axis, -2, -(n + 2), -1)
    if padtype == "odd":
        left, right = 2 * first - left, 2 * last - right
    return loom.concatenate([left, x, right], axis=axis)


def _pad(x, axis, padtype, padlen, ntaps):
    """SciPy's _validate_pad: the edge length and the extended signal."""
    if padtype not in ("even", "odd", "constant", None):
        raise ValueError(f"Unknown value '{padtype}' given to padtype.  padtype must be 'even', 'odd', "
                         "'constant', or None.")
    edge = 0 if padtype is None else (3 * ntaps if padlen is None else int(padlen))
    if edge > 0 and x.shape[axis] <= edge:
        raise ValueError(f"The length of the input vector x must be greater than padlen, which is {edge}.")
    return edge, (_extend(x, edge, axis, padtype) if edge > 0 else x)


def _input(x, axis):
    x = _util.asarray(x)
    if x.ndim == 0:
        raise ValueError("x must be at least 1-D")
    if x.dtype.kind in "biu":
        x = x.astype(loom.float64)
    return x, _util.normalize_axis(axis, x.ndim)


def _two_passes(run, zi, ext, axis, edge):
    """Forward from the state zi * (first value), backward from zi * (last output)."""
    y, _ = run(ext, zi * _along(ext, axis, 0, 1))
    y, _ = run(loom.flip(y, axis=axis), zi * _along(y, axis, -1, None))
    y = loom.flip(y, axis=axis)
    return loom.ascontiguousarray(_along(y, axis, edge, -edge) if edge > 0 else y)  # SciPy's fresh C order


def filtfilt(b, a, x, axis=-1, padtype="odd", padlen=None, method="pad", irlen=None):
    """Zero-phase filtering by b(z)/a(z) along axis (scipy.signal.filtfilt): method 'pad'
    (the signal extended, each pass started in its steady state) or 'gust' (Gustafsson's
    initial states, _filtfilt_gust.py; irlen limits the correction to the ends)."""
    if method not in ("pad", "gust"):
        raise ValueError("method must be 'pad' or 'gust'.")
    bb, aa = _coefficients(b, a)
    x, axis = _input(x, axis)
    if method == "gust":
        return filtfilt_gust(bb, aa, x, axis, irlen)
    edge, ext = _pad(x, axis, padtype, padlen, max(len(bb), len(aa)))
    zi = lfilter_zi(bb, aa).to(x.device)
    shape = [1] * x.ndim
    shape[axis] = zi.size
    return _two_passes(lambda v, z: lfilter(bb, aa, v, axis=axis, zi=z), zi.reshape(shape), ext, axis, edge)


def sosfiltfilt(sos, x, axis=-1, padtype="odd", padlen=None):
    """Zero-phase filtering by second-order sections along axis (scipy.signal.sosfiltfilt)."""
    sos = _sections(sos)
    x, axis = _input(x, axis)
    ntaps = 2 * sos.shape[0] + 1 - min(int(np.sum(sos[:, 2] == 0)), int(np.sum(sos[:, 5] == 0)))
    edge, ext = _pad(x, axis, padtype, padlen, ntaps)
    zi = sosfilt_zi(sos).to(x.device)
    shape = [sos.shape[0]] + [1] * x.ndim
    shape[axis + 1] = 2
    return _two_passes(lambda v, z: sosfilt(sos, v, axis=axis, zi=z), zi.reshape(shape), ext, axis, edge)
