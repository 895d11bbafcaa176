"""scipy.fft's discrete Fourier transforms over loom.fft (FFTW on cpu(), cuFFT on GPUs).
SciPy's extra arguments (overwrite_x, workers, plan) are accepted and have no effect."""
import functools
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


def _odd_products(primes, limit):
    """Every product of powers of `primes` (odd) up to limit, each exactly once."""
    out = [1]
    for p in primes:
        grown = []
        for q in out:
            while q <= limit:
                grown.append(q)
                q *= p
        out = grown
    return out


@functools.lru_cache(maxsize=1024)
def _nearest_smooth(target, real, above):
    """The smallest smooth length >= target (above) or the largest <= target: each product of
    the odd primes' powers times the power of two that brings it nearest target. The plain
    search by +-1 took milliseconds for lengths near 10^6 (fftconvolve of 2^20 samples)."""
    odd = (3, 5) if real else (3, 5, 7, 11)
    best = None
    for q in _odd_products(odd, 2 * target):
        if above:
            cand = q << (-(-target // q) - 1).bit_length()  # q * 2^k >= target, k least
            best = cand if best is None or cand < best else best
        elif q <= target:
            cand = q << ((target // q).bit_length() - 1)     # q * 2^k <= target, k most
            best = cand if best is None or cand > best else best
    return best


def next_fast_len(target, real=False):
    """The smallest length >= target that FFTs do fastest: 5-smooth for real transforms,
    11-smooth for complex ones (scipy.fft.next_fast_len)."""
    target = operator.index(target)
    if target < 0:
        raise ValueError("Target length must be positive")
    if target <= 6:
        return target
    return _nearest_smooth(target, bool(real), True)


def prev_fast_len(target, real=False):
    """The largest length <= target that FFTs do fastest (scipy.fft.prev_fast_len)."""
    target = operator.index(target)
    if target < 1:
        raise ValueError("Target length must be positive")
    return _nearest_smooth(target, bool(real), False)
