"""scipy.fftpack's names (the legacy interface that cupyx.scipy.fftpack mirrors) over
loom.scipy.fft: the same complex transforms with fftpack's `shape=` spelling, and fftpack's
own real transforms, whose outputs pack the half spectrum into one real array
[y(0), Re y(1), Im y(1), ..., Re y(n/2)] (and rfftfreq's matching frequencies).
overwrite_x is accepted and has no effect."""
from ._legacy import (dct, dst, fft, fft2, fftfreq, fftn, fftshift, idct, idst, ifft, ifft2, ifftn, ifftshift,
                      irfft, next_fast_len, rfft, rfftfreq)

__all__ = ["dct", "dst", "fft", "fft2", "fftfreq", "fftn", "fftshift", "idct", "idst", "ifft", "ifft2", "ifftn",
           "ifftshift", "irfft", "next_fast_len", "rfft", "rfftfreq"]
