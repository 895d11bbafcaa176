"""convolve, correlate, fftconvolve, oaconvolve, choose_conv_method (scipy.signal), N-D,
modes full/same/valid, on loom ops. The direct method adds one shifted, scaled copy of the
larger input per element of the smaller one (exact for integers); the FFT method multiplies
spectra from loom.fft's rfftn/fftn at 5-smooth lengths."""
import numpy as np

import loom

from .. import _util
from ..fft import next_fast_len

_MODES = ("full", "valid", "same")
# Below this many elements in the smaller input the direct method wins (one op per element).
_DIRECT_MAX_TAPS = 32


def _check_mode(mode):
    if mode not in _MODES:
        raise ValueError(f"Acceptable mode flags are 'valid', 'same', or 'full', not mode={mode}")


def _inputs(in1, in2, what="volume and kernel"):
    a, b = _util.asarray(in1), _util.asarray(in2)
    if a.ndim != b.ndim:
        raise ValueError(f"{what} should have the same dimensionality")
    return a, b


def _swap_needed(mode, s1, s2, axes=None):
    """SciPy's rule: in 'valid' mode the larger input goes first; neither larger is an error."""
    if mode != "valid":
        return False
    axes = range(len(s1)) if axes is None else axes
    ok1 = all(s1[i] >= s2[i] for i in axes)
    ok2 = all(s2[i] >= s1[i] for i in axes)
    if not (ok1 or ok2):
        raise ValueError("For 'valid' mode, one must be at least as large as the other in every dimension")
    return not ok1


def _centered(arr, shape):
    """The centred window of `shape`, as a C-contiguous array (SciPy returns a fresh one)."""
    start = [(c - n) // 2 for c, n in zip(arr.shape, shape)]
    return loom.ascontiguousarray(arr[tuple(slice(s, s + n) for s, n in zip(start, shape))])


def _crop(full, s1, s2, mode, axes=None):
    """SciPy's mode rule: 'same' is in1's shape on every axis, 'valid' s1 - s2 + 1 on the
    convolved axes (the others as computed)."""
    if mode == "full":
        return full
    if mode == "same":
        return _centered(full, s1)
    axes = range(full.ndim) if axes is None else axes
    return _centered(full, [s1[i] - s2[i] + 1 if i in axes else n for i, n in enumerate(full.shape)])


def _result_dtype(a, b):
    return loom.result_type(a.dtype, b.dtype)


def _direct_full(a, b):
    """The full N-D convolution of a with the smaller b: a is zero-padded once, then each
    element of b adds one scaled slice of it."""
    dt = _result_dtype(a, b)
    a = loom.pad(a.astype(dt), [(n - 1, n - 1) for n in b.shape])
    b = b.astype(dt)
    full_shape = tuple(n1 - n2 + 1 for n1, n2 in zip(a.shape, b.shape))
    out = None
    for idx in np.ndindex(*b.shape):
        # out[i] = sum_j b[j] a[i - j]: element j of b meets a shifted by j.
        start = [n - 1 - j for j, n in zip(idx, b.shape)]
        region = tuple(slice(s, s + m) for s, m in zip(start, full_shape))
        term = a[region] * b[idx]
        out = term if out is None else out + term
    return out


def _fft_full(a, b, axes):
    """The full convolution over `axes` by FFTs (other axes broadcast)."""
    complex_in = a.dtype.kind == "c" or b.dtype.kind == "c"
    dt = loom.result_type(_util.inexact(a).dtype, _util.inexact(b).dtype)
    a, b = a.astype(dt, copy=False), b.astype(dt, copy=False)
    shape = [a.shape[i] + b.shape[i] - 1 for i in axes]
    fshape = [next_fast_len(n, not complex_in) for n in shape]
    # The inverse transform's 1/n goes onto the smaller input before its transform (norm
    # "forward" then leaves the inverse unscaled): a pass over the small operand instead of
    # one over the whole result.
    scale = 1.0 / float(np.prod(fshape))
    if a.size <= b.size:
        a = a * scale
    else:
        b = b * scale
    fwd, inv = (loom.fft.fftn, loom.fft.ifftn) if complex_in else (loom.fft.rfftn, loom.fft.irfftn)
    sp = fwd(a, s=fshape, axes=axes) * fwd(b, s=fshape, axes=axes)
    ret = inv(sp, s=fshape, axes=axes, norm="forward")
    ret = ret[tuple(slice(0, shape[axes.index(i)]) if i in axes else slice(None) for i in range(ret.ndim))]
    # A copy only where the cut is not contiguous already (the leading part of a 1-D result is).
    return loom.ascontiguousarray(ret.astype(dt, copy=False))


def _normalize_axes(axes, ndim):
    if axes is None:
        return list(range(ndim))
    if isinstance(axes, (int, np.integer)):
        axes = [axes]
    out = [_util.normalize_axis(ax, ndim, "axes") for ax in axes]
    if len(set(out)) != len(out):
        raise ValueError("all axes must be unique")
    return out


def fftconvolve(in1, in2, mode="full", axes=None):
    """Convolve two N-D arrays using FFTs (scipy.signal.fftconvolve); with axes, only those
    axes are convolved and the others must match or be 1."""
    a, b = _inputs(in1, in2, "in1 and in2")
    _check_mode(mode)
    if a.ndim == 0:
        return a * b
    if a.size == 0 or b.size == 0:
        return loom.zeros((0,) * max(a.ndim, 1), dtype=_util.inexact(a).dtype, device=a.device)
    axes = _normalize_axes(axes, a.ndim)
    for i in range(a.ndim):
        if i not in axes and a.shape[i] != b.shape[i] and 1 not in (a.shape[i], b.shape[i]):
            raise ValueError(f"incompatible shapes for in1 and in2: {tuple(a.shape)} and {tuple(b.shape)}")
    # axes where either input has length 1 are a broadcast product, no transform (SciPy's rule)
    axes = [i for i in axes if a.shape[i] != 1 and b.shape[i] != 1]
    if _swap_needed(mode, a.shape, b.shape, axes):
        a, b = b, a
    full = _fft_full(a, b, axes) if axes else a * b
    return _crop(full, a.shape, b.shape, mode, axes)


def oaconvolve(in1, in2, mode="full", axes=None):
    """Convolve two N-D arrays (scipy.signal.oaconvolve). The result is fftconvolve's; the
    overlap-add blocking that makes SciPy's faster for very unequal sizes is not done yet."""
    return fftconvolve(in1, in2, mode=mode, axes=axes)


def choose_conv_method(in1, in2, mode="full", measure=False):
    """'direct' or 'fft', the method convolve(method='auto') uses (scipy.signal.choose_conv_method):
    direct for integer or boolean inputs and when the smaller input has at most 32 elements."""
    a, b = _util.asarray(in1), _util.asarray(in2)
    if a.dtype.kind in "biu" and b.dtype.kind in "biu":
        return "direct"
    if min(a.size, b.size) <= _DIRECT_MAX_TAPS:
        return "direct"
    return "fft"


def convolve(in1, in2, mode="full", method="auto"):
    """Convolve two N-D arrays (scipy.signal.convolve): mode 'full', 'valid' or 'same'
    (the size of in1), method 'direct', 'fft' or 'auto'."""
    a, b = _inputs(in1, in2)
    _check_mode(mode)
    if method not in ("auto", "direct", "fft"):
        raise ValueError("Acceptable method flags are 'auto', 'direct', or 'fft'.")
    if a.ndim == 0:
        return a * b
    if a.size == 0 or b.size == 0:
        return loom.zeros((0,), dtype=_result_dtype(a, b), device=a.device)
    swapped = _swap_needed(mode, a.shape, b.shape)
    s1, s2 = (b.shape, a.shape) if swapped else (a.shape, b.shape)
    dt = _result_dtype(a, b)
    no_direct = a.ndim > 1 and (dt == loom.float16 or dt == loom.bool)
    if method == "auto":
        method = "fft" if no_direct else choose_conv_method(a, b, mode)
    if method == "fft":  # SciPy casts the FFT result back to the inputs' type, integers rounded
        big, small = (b, a) if swapped else (a, b)
        out = _fft_full(big, small, list(range(a.ndim)))
        return _crop(loom.round(out) if dt.kind in "iu" else out, s1, s2, mode).astype(dt)
    if no_direct:
        # SciPy's N-d direct loop has no float16 or bool form (1-d goes through np.convolve)
        raise ValueError(f"Unsupported type: direct N-d convolution of {dt}; use method='fft'")
    big, small = (a, b) if a.size >= b.size else (b, a)
    full = _direct_full(big, small)
    return _crop(full, s1, s2, mode)


def _reverse_conj(x):
    x = loom.flip(x) if x.ndim else x
    return x.conj() if x.dtype.kind == "c" else x


def correlate(in1, in2, mode="full", method="auto"):
    """Cross-correlate two N-D arrays (scipy.signal.correlate): convolve(in1, reversed
    conj(in2)), with convolve's modes and methods."""
    a, b = _inputs(in1, in2)
    return convolve(a, _reverse_conj(b), mode, method)
