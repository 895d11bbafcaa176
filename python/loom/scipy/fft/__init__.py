"""scipy.fft's names over loom.fft: the Fourier transforms, their helpers, and the discrete
cosine and sine transforms (types 1-4) and the fast Hankel transform (fht, ifht) computed
through FFTs on the arrays' device. The
module is also a scipy.fft backend: `scipy.fft.set_backend(loom.scipy.fft)`."""
from ._basic import (fft, fft2, fftfreq, fftn, fftshift, hfft, hfft2, hfftn, ifft, ifft2, ifftn,
                     ifftshift, ihfft, ihfft2, ihfftn, irfft, irfft2, irfftn, next_fast_len,
                     prev_fast_len, rfft, rfft2, rfftfreq, rfftn)
from ._fftlog import fht, fhtoffset, ifht
from ._realtransforms import dct, dctn, dst, dstn, idct, idctn, idst, idstn
from ._backend import __ua_domain__, ua_function as _ua_function

__all__ = ["dct", "dctn", "dst", "dstn", "fft", "fft2", "fftfreq", "fftn", "fftshift", "fht", "fhtoffset", "hfft",
           "hfft2", "hfftn", "idct", "idctn", "idst", "idstn", "ifft", "ifft2", "ifftn", "ifftshift", "ihfft",
           "ifht", "ihfft2", "ihfftn", "irfft", "irfft2", "irfftn", "next_fast_len", "prev_fast_len", "rfft",
           "rfft2", "rfftfreq", "rfftn"]

# SciPy's backend protocol (uarray): scipy.fft's functions call this with their own name.
__ua_function__ = _ua_function({n: globals()[n] for n in __all__})
