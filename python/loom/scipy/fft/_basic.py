"""scipy.fft's discrete Fourier transforms over loom.fft (FFTW on cpu(), cuFFT on GPUs).
SciPy's extra arguments (overwrite_x, workers, plan) are accepted and have no effect."""
import operator

import loom

from .. import _util

_NORMS = (None, "backward", "ortho", "forward")


def _check_norm(norm):
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm!r}, should be "backward", "ortho" or "forward"')


def _input(x, real=False):
    x = _util.asarray(x)
    if x.dtype.kind in "biu":
        x = x.astype(loom.float64)
    elif x.dtype == loom.float16 or x.dtype == loom.bfloat16:
        x = x.astype(loom.float32)
    if real and x.dtype.kind == "c":
        raise TypeError("x must be a real sequence")
    return x


def _check_n(n):
    if n is not None and n < 1:
        raise ValueError(f"invalid number of data points ({n}) specified")


def _one(name, real=False):
    inner = getattr(loom.fft, name)

    def transform(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
        _check_norm(norm)
        _check_n(n)
        x = _input(x, real)
        return inner(x, n=n, axis=axis, norm=norm)
    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = f"scipy.fft.{name}: the transform of loom.fft.{name} along one axis."
    return transform


def _shape_and_axes(x, s, axes):
    """SciPy's reading of an n-d transform's s and axes: either may be one integer; axes are
    in range and unique; s without axes covers the last len(s) axes (NumPy 2 warns there,
    SciPy does not); -1 in s keeps that axis's length. Returns (s or None, axes or None)."""
    if axes is not None:
        axes = [a + x.ndim if a < 0 else a for a in _ints(axes, "axes")]
        if any(not 0 <= a < x.ndim for a in axes):
            raise ValueError("axes exceeds dimensionality of input")
        if len(set(axes)) != len(axes):
            raise ValueError("all axes must be unique")
    if s is None:
        return None, axes
    s = _ints(s, "shape")
    if axes is None:
        if len(s) > x.ndim:
            raise ValueError("shape requires more axes than are present")
        axes = list(range(x.ndim - len(s), x.ndim))
    elif len(s) != len(axes):
        raise ValueError("when given, axes and shape arguments have to be of the same length")
    s = [x.shape[a] if n == -1 else n for n, a in zip(s, axes)]
    if any(n < 1 for n in s):
        raise ValueError(f"invalid number of data points ({s}) specified")
    return s, axes


def _ints(v, name):
    """One integer or a sequence of them, as a list; anything else is SciPy's ValueError."""
    try:
        return [operator.index(v)] if not hasattr(v, "__iter__") else [operator.index(n) for n in v]
    except TypeError:
        raise ValueError(f"{name} must be a scalar or iterable of integers") from None


def _many(name, real=False, default_axes=None):
    inner = getattr(loom.fft, name)

    def transform(x, s=None, axes=default_axes, norm=None, overwrite_x=False, workers=None, *, plan=None):
        _check_norm(norm)
        x = _input(x, real)
        s, axes = _shape_and_axes(x, s, axes)
        return inner(x, s=s, axes=axes, norm=norm)
    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = f"scipy.fft.{name}: the transform of loom.fft.{name} over several axes."
    return transform


fft, ifft, hfft = _one("fft"), _one("ifft"), _one("hfft")
rfft, ihfft = _one("rfft", real=True), _one("ihfft", real=True)
irfft = _one("irfft")
fftn, ifftn, irfftn = _many("fftn"), _many("ifftn"), _many("irfftn")
rfftn = _many("rfftn", real=True)
fft2, ifft2, irfft2 = _many("fft2", default_axes=(-2, -1)), _many("ifft2", default_axes=(-2, -1)), _many("irfft2", default_axes=(-2, -1))
rfft2 = _many("rfft2", real=True, default_axes=(-2, -1))


def hfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """scipy.fft.hfftn: the n-D FFT of a Hermitian-symmetric signal (real output)."""
    _check_norm(norm)
    flip = {"backward": "forward", None: "forward", "forward": "backward", "ortho": "ortho"}[norm]
    return irfftn(loom.conj(_input(x)), s=s, axes=axes, norm=flip)


def ihfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """scipy.fft.ihfftn: the inverse of hfftn (a real input, half the spectrum out)."""
    _check_norm(norm)
    flip = {"backward": "forward", None: "forward", "forward": "backward", "ortho": "ortho"}[norm]
    return loom.conj(rfftn(x, s=s, axes=axes, norm=flip))


def hfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """scipy.fft.hfft2."""
    return hfftn(x, s=s, axes=axes, norm=norm)


def ihfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """scipy.fft.ihfft2."""
    return ihfftn(x, s=s, axes=axes, norm=norm)


def fftfreq(n, d=1.0, *, xp=None, device=None):
    """The sample frequencies of an n-point FFT (scipy.fft.fftfreq)."""
    return loom.fft.fftfreq(n, d) if device is None else loom.fft.fftfreq(n, d).to(device)


def rfftfreq(n, d=1.0, *, xp=None, device=None):
    """The sample frequencies of an n-point rfft (scipy.fft.rfftfreq)."""
    return loom.fft.rfftfreq(n, d) if device is None else loom.fft.rfftfreq(n, d).to(device)


fftshift, ifftshift = loom.fft.fftshift, loom.fft.ifftshift


def _smooth(n, primes):
    for p in primes:
        while n % p == 0:
            n //= p
    return n == 1


def next_fast_len(target, real=False):
    """The smallest length >= target that FFTs do fastest: 5-smooth for real transforms,
    11-smooth for complex ones (scipy.fft.next_fast_len)."""
    target = operator.index(target)
    if target < 0:
        raise ValueError("Target length must be positive")
    if target <= 6:
        return target
    primes = (2, 3, 5) if real else (2, 3, 5, 7, 11)
    n = target
    while not _smooth(n, primes):
        n += 1
    return n


def prev_fast_len(target, real=False):
    """The largest length <= target that FFTs do fastest (scipy.fft.prev_fast_len)."""
    target = operator.index(target)
    if target < 1:
        raise ValueError("Target length must be positive")
    primes = (2, 3, 5) if real else (2, 3, 5, 7, 11)
    n = target
    while n > 1 and not _smooth(n, primes):
        n -= 1
    return n
