"""scipy.signal.detrend: the mean, or a least-squares line per stretch between breakpoints,
removed along an axis. The small fit matrices live on the host; the products with the data
run on its device."""
import numpy as np

import loom

from .. import _util


def detrend(data, axis=-1, type="linear", bp=0, overwrite_data=False):
    """data less its mean (type 'constant') or less a line fitted to each stretch between the
    breakpoints bp (type 'linear')."""
    if type not in ("linear", "l", "constant", "c"):
        raise ValueError("Trend type must be 'linear' or 'constant'.")
    x = _util.asarray(data)
    if x.dtype.kind not in "fc" or x.dtype == loom.float16 or x.dtype == loom.bfloat16:
        x = x.astype(loom.float64)  # SciPy's rule: float32, float64 and complex stay, others float64
    if x.ndim == 0:
        return x
    axis = _util.normalize_axis(axis, x.ndim)
    if type in ("constant", "c"):
        return x - loom.mean(x, axis=axis, keepdims=True)
    n = x.shape[axis]
    cuts = np.sort(np.unique(np.concatenate([[0], np.atleast_1d(np.asarray(bp, dtype=np.int64)), [n]])))
    if np.any(cuts > n):
        raise ValueError("Breakpoints must be less than length of data along given axis.")
    moved = loom.moveaxis(x, axis, 0)
    flat = moved.reshape((n, -1))
    pieces = []
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        m = int(hi - lo)
        if m == 0:
            continue
        design = np.ones((m, 2))
        design[:, 0] = np.arange(1, m + 1) / m  # SciPy's scaled ramp, for the conditioning
        seg = flat[int(lo):int(hi)]
        solve, line = (loom.asarray(a, device=x.device).astype(seg.dtype) for a in (np.linalg.pinv(design), design))
        pieces.append(seg - line @ (solve @ seg))  # (m x 2) @ (2 x m): never an m x m matrix
    out = loom.concatenate(pieces, axis=0) if pieces else flat
    return loom.moveaxis(out.reshape(moved.shape), 0, axis)
