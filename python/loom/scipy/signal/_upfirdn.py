"""scipy.signal.upfirdn: upsample by zero insertion, filter with the FIR h, downsample,
along one axis, computed as one full convolution on the device (mode 'constant' with
cval 0, SciPy's default; other modes raise NotImplementedError)."""
import numpy as np

import loom

from .. import _util
from ._convolve import convolve


def upfirdn(h, x, up=1, down=1, axis=-1, mode="constant", cval=0):
    """out = (x upsampled by `up`, filtered by h)[::down] along axis; length
    ((n - 1) * up + len(h) - 1) // down + 1."""
    if mode != "constant" or cval != 0:
        raise NotImplementedError(f"[upfirdn] mode={mode!r}, cval={cval!r}: loom has mode='constant' with cval=0 only")
    taps = np.asarray(h.numpy() if isinstance(h, loom.ndarray) else h)
    if taps.ndim != 1 or taps.size == 0:
        raise ValueError("h must be 1-D with non-zero length")
    up, down = int(up), int(down)
    if up < 1 or down < 1:
        raise ValueError("Both up and down must be >= 1")
    x = _util.asarray(x)
    axis = _util.normalize_axis(axis, x.ndim)
    dt = np.result_type(taps.dtype, np.dtype(x.dtype.name), np.float32)
    dt = getattr(loom, dt.name)
    x = x.astype(dt) if x.dtype != dt else x
    if up > 1:
        shape = list(x.shape)
        shape[axis] = (shape[axis] - 1) * up + 1
        spread = loom.zeros(tuple(shape), dtype=dt, device=x.device)
        index = [slice(None)] * x.ndim
        index[axis] = slice(None, None, up)
        spread[tuple(index)] = x
        x = spread
    kernel_shape = [1] * x.ndim
    kernel_shape[axis] = taps.size
    kernel = loom.asarray(taps.astype(dt.name if dt != loom.bfloat16 else np.float32), device=x.device)
    y = convolve(x, kernel.reshape(tuple(kernel_shape)), mode="full")
    index = [slice(None)] * y.ndim
    index[axis] = slice(None, None, down)
    return loom.ascontiguousarray(y[tuple(index)])  # a fresh C-ordered array, as SciPy returns
