"""scipy.signal's rank filters over zero-padded signals (medfilt, medfilt2d, order_filter,
through loom.scipy.ndimage's rank filters with mode='constant') and wiener (local mean and
variance by correlations with a box)."""
import warnings

import numpy as np

import loom

from .. import _util
from ..ndimage import median_filter, rank_filter
from ._convolve import correlate


def _check_dtype(x, who):
    # SciPy's loops: integers, float32 and float64
    if not (x.dtype.kind in "iu" or x.dtype == loom.float32 or x.dtype == loom.float64):
        raise ValueError(f"dtype={x.dtype} is not supported by {who}")


def _kernel_size(x, kernel_size):
    size = np.repeat(3, x.ndim) if kernel_size is None else np.asarray(kernel_size)
    if size.ndim == 0:
        size = np.repeat(size.item(), x.ndim)
    if np.any(size % 2 != 1):
        raise ValueError("Each element of kernel_size should be odd.")
    if len(size) != x.ndim:
        raise RuntimeError("sequence argument must have length equal to input rank")
    if any(int(k) > n for k, n in zip(size, x.shape)):
        warnings.warn("kernel_size exceeds volume extent: the volume will be zero-padded.", UserWarning, stacklevel=3)
    return [int(k) for k in size]


def medfilt(volume, kernel_size=None):
    """The median over a kernel_size window (3 per axis by default, odd sizes) of the
    zero-padded volume (scipy.signal.medfilt)."""
    x = _util.asarray(volume)
    _check_dtype(x, "medfilt")
    return median_filter(x, size=_kernel_size(x, kernel_size), mode="constant", cval=0)


def medfilt2d(input, kernel_size=3):
    """medfilt of a 2-D array (scipy.signal.medfilt2d)."""
    x = _util.asarray(input)
    if x.ndim != 2:
        raise ValueError("input must be 2-D")
    _check_dtype(x, "medfilt")
    return median_filter(x, size=_kernel_size(x, kernel_size), mode="constant", cval=0)


def order_filter(a, domain, rank):
    """The rank-th smallest of the zero-padded a over the nonzero entries of domain, whose
    axes have odd lengths (scipy.signal.order_filter)."""
    x = _util.asarray(a)
    footprint = np.asarray(_util.host_table(domain, None)) != 0
    if any(n % 2 != 1 for n in footprint.shape):
        raise ValueError("Each dimension of domain argument should have an odd number of elements.")
    _check_dtype(x, "order_filter")
    if not 0 <= int(rank) < int(footprint.sum()):
        raise RuntimeError("rank not within filter footprint size")
    return rank_filter(x, int(rank), footprint=footprint, mode="constant", cval=0)


def wiener(im, mysize=None, noise=None):
    """The Wiener filter of im over mysize windows (3 per axis by default); noise defaults to
    the mean local variance (scipy.signal.wiener)."""
    x = _util.asarray(im)
    size = np.repeat(3, x.ndim) if mysize is None else np.asarray(mysize)
    if size.ndim == 0:
        size = np.repeat(size.item(), x.ndim)
    box = loom.ones(tuple(int(k) for k in size), dtype=loom.float64, device=x.device)
    count = float(np.prod(size))
    mean = correlate(x, box, "same") / count
    var = correlate(x * x, box, "same") / count - mean * mean
    if noise is None:
        noise = loom.mean(var)
    with np.errstate(divide="ignore", invalid="ignore"):
        res = (x - mean) * (1 - noise / var) + mean
    return loom.where(var < noise, mean, res)
