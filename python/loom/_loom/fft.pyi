"""
Discrete Fourier transforms (numpy.fft names and arguments): FFTW on cpu(), cuFFT on GPUs.
norm is "backward" (default), "ortho" or "forward"; float32/complex64 input gives
complex64, other input complex128 (the inverse real transforms: the matching real type).
"""

import loom._loom


def fft(a: object, n: object | None = None, axis: object = -1, norm: object | None = None, out: object | None = None) -> object:
    """numpy.fft.fft: the 1-d DFT along `axis` over n points (padded or cut)."""

def ifft(a: object, n: object | None = None, axis: object = -1, norm: object | None = None, out: object | None = None) -> object:
    """numpy.fft.ifft: the inverse of fft."""

def rfft(a: object, n: object | None = None, axis: object = -1, norm: object | None = None, out: object | None = None) -> object:
    """
    numpy.fft.rfft: the DFT of real input, the n//2 + 1 non-negative frequencies.
    """

def irfft(a: object, n: object | None = None, axis: object = -1, norm: object | None = None, out: object | None = None) -> object:
    """numpy.fft.irfft: the real inverse of rfft; n defaults to 2 * (m - 1)."""

def hfft(a: object, n: object | None = None, axis: object = -1, norm: object | None = None, out: object | None = None) -> object:
    """numpy.fft.hfft: the real DFT of a Hermitian signal given by its half."""

def ihfft(a: object, n: object | None = None, axis: object = -1, norm: object | None = None, out: object | None = None) -> object:
    """numpy.fft.ihfft: the inverse of hfft."""

def fftn(a: object, s: object | None = None, axes: object | None = None, norm: object | None = None, out: object | None = None) -> object:
    """numpy.fft.fftn: the DFT over `axes` (all by default)."""

def ifftn(a: object, s: object | None = None, axes: object | None = None, norm: object | None = None, out: object | None = None) -> object:
    """numpy.fft.ifftn: the inverse of fftn."""

def rfftn(a: object, s: object | None = None, axes: object | None = None, norm: object | None = None, out: object | None = None) -> object:
    """numpy.fft.rfftn: rfft over the last axis, fft over the others."""

def irfftn(a: object, s: object | None = None, axes: object | None = None, norm: object | None = None, out: object | None = None) -> object:
    """numpy.fft.irfftn: the inverse of rfftn."""

def fft2(a: object, s: object | None = None, axes: object | None = (-2, -1), norm: object | None = None, out: object | None = None) -> object:
    """numpy.fft.fft2: fftn over the last two axes."""

def ifft2(a: object, s: object | None = None, axes: object | None = (-2, -1), norm: object | None = None, out: object | None = None) -> object:
    """numpy.fft.ifft2: ifftn over the last two axes."""

def rfft2(a: object, s: object | None = None, axes: object | None = (-2, -1), norm: object | None = None, out: object | None = None) -> object:
    """numpy.fft.rfft2: rfftn over the last two axes."""

def irfft2(a: object, s: object | None = None, axes: object | None = (-2, -1), norm: object | None = None, out: object | None = None) -> object:
    """numpy.fft.irfft2: irfftn over the last two axes."""

def fftfreq(n: object, d: object = 1.0, device: object | None = None, *, dtype: object | None = None) -> loom._loom.ndarray:
    """
    numpy.fft.fftfreq: the sample frequencies [0, 1, ..., n//2 - 1 or so, -n//2, ..., -1] / (d * n), float64 (or the real floating-point `dtype`, the Array API's).
    """

def rfftfreq(n: object, d: object = 1.0, device: object | None = None, *, dtype: object | None = None) -> loom._loom.ndarray:
    """
    numpy.fft.rfftfreq: the n//2 + 1 non-negative sample frequencies of rfft, float64 (or the real floating-point `dtype`, the Array API's).
    """

def fftshift(x: object, axes: object | None = None) -> loom._loom.ndarray:
    """
    numpy.fft.fftshift: the zero frequency moved to the centre of `axes` (all by default).
    """

def ifftshift(x: object, axes: object | None = None) -> loom._loom.ndarray:
    """numpy.fft.ifftshift: the inverse of fftshift."""
