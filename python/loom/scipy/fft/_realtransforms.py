"""dct, idct, dst, idst (types 1-4) and their n-D forms through complex FFTs of length about
2N (loom.fft), with SciPy's definitions and norm= rules. The twiddle factors depend on N
only and are built on the host, then moved to the data's device."""
import math

import numpy as np

import loom

from .. import _util
from ._basic import _check_norm, _shape_and_axes

_INVERSE_TYPE = {1: 1, 2: 3, 3: 2, 4: 4}


def _twiddle(values, like):
    dt = loom.complex64 if like.dtype == loom.float32 else loom.complex128
    return loom.asarray(values, device=like.device).astype(dt)


def _dct_last(x, kind):
    """The unnormalized DCT of type `kind` along the last axis of a real array."""
    n = x.shape[-1]
    k = np.arange(n)
    if kind == 1:
        u = loom.concatenate([x, loom.flip(x[..., 1:-1], axis=-1)], axis=-1)
        return loom.fft.fft(u, axis=-1)[..., :n].real
    if kind == 2:
        u = loom.concatenate([x, loom.flip(x, axis=-1)], axis=-1)
        return (loom.fft.fft(u, axis=-1)[..., :n] * _twiddle(np.exp(-1j * np.pi * k / (2 * n)), x)).real
    if kind == 3:
        c = np.where(k == 0, 1.0, 2.0) * np.exp(1j * np.pi * k / (2 * n))
        return loom.fft.ifft(x * _twiddle(c, x), n=2 * n, axis=-1, norm="forward")[..., :n].real
    pre = _twiddle(np.exp(-1j * np.pi * k / (2 * n)), x)
    post = _twiddle(2 * np.exp(-1j * np.pi * (2 * k + 1) / (4 * n)), x)
    return (loom.fft.fft(x * pre, n=2 * n, axis=-1)[..., :n] * post).real


def _dst_last(x, kind):
    """The unnormalized DST of type `kind` along the last axis of a real array."""
    n = x.shape[-1]
    k = np.arange(n)
    if kind == 1:
        z = loom.zeros(x.shape[:-1] + (1,), dtype=x.dtype, device=x.device)
        u = loom.concatenate([z, x, z, -loom.flip(x, axis=-1)], axis=-1)
        return -loom.fft.fft(u, axis=-1)[..., 1:n + 1].imag
    if kind == 2:
        u = loom.concatenate([x, -loom.flip(x, axis=-1)], axis=-1)
        m = k + 1
        return (loom.fft.fft(u, axis=-1)[..., 1:n + 1] * _twiddle(1j * np.exp(-1j * np.pi * m / (2 * n)), x)).real
    if kind == 3:
        m = k + 1
        c = np.where(m == n, 1.0, 2.0) * np.exp(1j * np.pi * m / (2 * n))
        z = loom.zeros(x.shape[:-1] + (1,), dtype=x.dtype, device=x.device)
        w = loom.concatenate([z, x], axis=-1) * _twiddle(np.concatenate([[0], c]), x)
        return loom.fft.ifft(w, n=2 * n, axis=-1, norm="forward")[..., :n].imag
    pre = _twiddle(np.exp(-1j * np.pi * k / (2 * n)), x)
    post = _twiddle(-2 * np.exp(-1j * np.pi * (2 * k + 1) / (4 * n)), x)
    return (loom.fft.fft(x * pre, n=2 * n, axis=-1)[..., :n] * post).imag


def _scale_edge(y, index, factor):
    """y with y[..., index] multiplied by factor."""
    n = y.shape[-1]
    mask = np.ones(n)
    mask[index] = factor
    return y * loom.asarray(mask, device=y.device).astype(y.dtype)


def _r2r(x, kind, n, axis, norm, orthogonalize, sine):
    _check_norm(norm)
    if kind not in (1, 2, 3, 4):
        raise ValueError(f"invalid {'DST' if sine else 'DCT'} type")
    x = _util.asarray(x)
    if x.dtype.kind in "biu":
        x = x.astype(loom.float64)
    elif x.dtype == loom.float16 or x.dtype == loom.bfloat16:
        x = x.astype(loom.float32)
    if x.dtype.kind == "c":
        re = _r2r(x.real, kind, n, axis, norm, orthogonalize, sine)
        im = _r2r(x.imag, kind, n, axis, norm, orthogonalize, sine)
        return re + 1j * im
    axis = _util.normalize_axis(axis, x.ndim)
    x = loom.moveaxis(x, axis, -1)
    if n is not None:
        if n < 1:
            raise ValueError(f"invalid number of data points ({n}) specified")
        have = x.shape[-1]
        x = x[..., :n] if n <= have else loom.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, n - have)])
    size = x.shape[-1]
    if size < 1:
        raise ValueError(f"invalid number of data points ({size}) specified")
    if kind == 1 and not sine and size < 2:
        raise RuntimeError("zero-length FFT requested")
    ortho = norm == "ortho" if orthogonalize is None else orthogonalize
    factor = 2 * (size - 1) if (kind == 1 and not sine) else 2 * (size + 1) if kind == 1 else 2 * size
    scale = {None: 1.0, "backward": 1.0, "ortho": 1 / math.sqrt(factor), "forward": 1.0 / factor}[norm]
    r2 = math.sqrt(2.0)
    edge = -1 if sine else 0
    if ortho and not sine and kind == 1:
        x = _scale_edge(x, [0, -1], r2)
    elif ortho and kind == 3:
        x = _scale_edge(x, edge, r2)
    y = (_dst_last if sine else _dct_last)(x, kind) * scale
    if ortho and not sine and kind == 1:
        y = _scale_edge(y, [0, -1], 1 / r2)
    elif ortho and kind == 2:
        y = _scale_edge(y, edge, 1 / r2)
    return loom.moveaxis(y.astype(x.dtype), -1, axis)


def _inverse_norm(norm):
    return {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}.get(norm, norm)


def dct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """The discrete cosine transform of type 1, 2, 3 or 4 along axis (scipy.fft.dct)."""
    return _r2r(x, type, n, axis, norm, orthogonalize, sine=False)


def idct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """The inverse of dct (scipy.fft.idct)."""
    _check_norm(norm)
    return _r2r(x, _INVERSE_TYPE.get(type, type), n, axis, _inverse_norm(norm), orthogonalize, sine=False)


def dst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """The discrete sine transform of type 1, 2, 3 or 4 along axis (scipy.fft.dst)."""
    return _r2r(x, type, n, axis, norm, orthogonalize, sine=True)


def idst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """The inverse of dst (scipy.fft.idst)."""
    _check_norm(norm)
    return _r2r(x, _INVERSE_TYPE.get(type, type), n, axis, _inverse_norm(norm), orthogonalize, sine=True)


def _nd(one):
    def transform(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
        x = _util.asarray(x)
        s, axes = _shape_and_axes(x, s, axes)
        if axes is None:
            axes = range(x.ndim)
        for size, axis in zip(s or [None] * len(axes), axes):
            x = one(x, type, size, axis, norm, orthogonalize=orthogonalize)
        return x
    transform.__name__ = transform.__qualname__ = one.__name__ + "n"
    transform.__doc__ = f"scipy.fft.{one.__name__}n: {one.__name__} over several axes."
    return transform


dctn, idctn, dstn, idstn = _nd(dct), _nd(idct), _nd(dst), _nd(idst)
