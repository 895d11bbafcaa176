"""scipy.fftpack over loom.scipy.fft (see the package's docstring)."""
import loom

from .. import _util
from .. import fft as _fft

fftfreq, fftshift, ifftshift, next_fast_len = _fft.fftfreq, _fft.fftshift, _fft.ifftshift, _fft.next_fast_len


def fft(x, n=None, axis=-1, overwrite_x=False):
    """The discrete Fourier transform along one axis (scipy.fftpack.fft)."""
    return _fft.fft(x, n=n, axis=axis)


def ifft(x, n=None, axis=-1, overwrite_x=False):
    """The inverse discrete Fourier transform along one axis."""
    return _fft.ifft(x, n=n, axis=axis)


def fftn(x, shape=None, axes=None, overwrite_x=False):
    """The n-d transform; `shape` is scipy.fft's `s`."""
    return _fft.fftn(x, s=shape, axes=axes)


def ifftn(x, shape=None, axes=None, overwrite_x=False):
    """The inverse n-d transform."""
    return _fft.ifftn(x, s=shape, axes=axes)


def fft2(x, shape=None, axes=(-2, -1), overwrite_x=False):
    """The 2-d transform."""
    return _fft.fftn(x, s=shape, axes=axes)


def ifft2(x, shape=None, axes=(-2, -1), overwrite_x=False):
    """The inverse 2-d transform."""
    return _fft.ifftn(x, s=shape, axes=axes)


def dct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False):  # noqa: A002 - SciPy's name
    """The discrete cosine transform (scipy.fft.dct's)."""
    return _fft.dct(x, type=type, n=n, axis=axis, norm=norm)


def idct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False):  # noqa: A002
    """The inverse discrete cosine transform."""
    return _fft.idct(x, type=type, n=n, axis=axis, norm=norm)


def dst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False):  # noqa: A002
    """The discrete sine transform."""
    return _fft.dst(x, type=type, n=n, axis=axis, norm=norm)


def idst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False):  # noqa: A002
    """The inverse discrete sine transform."""
    return _fft.idst(x, type=type, n=n, axis=axis, norm=norm)


def rfft(x, n=None, axis=-1, overwrite_x=False):
    """The real transform in fftpack's packed form: [y(0), Re y(1), Im y(1), ...], n real
    values (the last real part alone when n is even), in x's real dtype."""
    x = _util.asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("x must be a real sequence")
    y = loom.moveaxis(_fft.rfft(x, n=n, axis=axis), axis, -1)
    m = (n if n is not None else x.shape[axis])
    pairs = loom.stack([y[..., 1:].real, y[..., 1:].imag], axis=-1).reshape(y.shape[:-1] + (-1,))
    out = loom.concatenate([y[..., :1].real, pairs[..., : m - 1]], axis=-1)
    return loom.moveaxis(out, -1, axis)


def irfft(x, n=None, axis=-1, overwrite_x=False):
    """The inverse of rfft: x in fftpack's packed form, n real values out."""
    x = _util.asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("x must be a real sequence")
    m = n if n is not None else x.shape[axis]
    v = loom.moveaxis(x, axis, -1)
    if v.shape[-1] < m:
        v = loom.concatenate([v, loom.zeros(v.shape[:-1] + (m - v.shape[-1],), dtype=v.dtype, device=v.device)], -1)
    v = v[..., :m]
    rest = v[..., 1:]
    if m % 2 == 0:  # the Nyquist term has no imaginary part: pad one zero to pair it
        rest = loom.concatenate([rest, loom.zeros(rest.shape[:-1] + (1,), dtype=v.dtype, device=v.device)], -1)
    pairs = rest.reshape(rest.shape[:-1] + (-1, 2))
    spectrum = loom.concatenate([v[..., :1] + 0j, pairs[..., 0] + 1j * pairs[..., 1]], axis=-1)
    out = _fft.irfft(spectrum, n=m, axis=-1)
    return loom.moveaxis(out, -1, axis)


def rfftfreq(n, d=1.0):
    """The frequencies of rfft's packed output: [0, 1, 1, 2, 2, ...] / (n d)."""
    k = (loom.arange(1, n + 1) // 2).astype(loom.float64)
    return k / (n * d)
