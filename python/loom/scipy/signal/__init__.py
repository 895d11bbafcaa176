"""scipy.signal's names on loom arrays: convolution (N-D, direct and FFT), IIR filtering
without a Python loop over samples (lfilter, sosfilt) and its zero-phase form (filtfilt,
sosfiltfilt), resampling (Fourier, polyphase, decimation), Savitzky-Golay filtering, the chirp
z-transform and zoom FFT, windows, spectral estimates (Welch, cross spectra, coherence, STFT
and its inverse, Lomb-Scargle), analytic signals, detrending, relative extrema and rank filters
on the device; filter design and analysis (butter, firwin, zpk2sos, freqz, ...) by SciPy on the
host."""
from . import _design, windows
from ._analytic import hilbert, hilbert2
from ._convolve import choose_conv_method, convolve, correlate, fftconvolve, oaconvolve
from ._convolve2d import convolve2d, correlate2d
from ._czt import CZT, ZoomFFT, czt, czt_points, zoom_fft
from ._detrend import detrend
from ._filtfilt import filtfilt, sosfiltfilt
from ._lfilter import lfilter, lfilter_zi, sosfilt, sosfilt_zi
from ._order_filters import medfilt, medfilt2d, order_filter, wiener
from ._peaks_rel import argrelextrema, argrelmax, argrelmin
from ._periodicity import lombscargle, vectorstrength
from ._polynomial import correlation_lags, deconvolve, lfiltic
from ._resample import decimate, resample, resample_poly
from ._savgol import savgol_filter
from ._spectral import periodogram, stft, welch
from ._spectral_more import check_COLA, check_NOLA, coherence, csd, istft
from ._upfirdn import upfirdn
from ._waveforms import sweep_poly
from .windows import get_window

__all__ = ["CZT", "ZoomFFT", "argrelextrema", "argrelmax", "argrelmin", "check_COLA", "check_NOLA",
           "choose_conv_method", "coherence", "convolve", "convolve2d", "correlate", "correlate2d", "correlation_lags",
           "csd", "czt", "czt_points", "decimate", "deconvolve", "detrend", "fftconvolve", "filtfilt", "get_window",
           "hilbert", "hilbert2", "istft", "lfilter", "lfilter_zi", "lfiltic", "lombscargle", "medfilt", "medfilt2d",
           "oaconvolve", "order_filter", "periodogram", "resample", "resample_poly", "savgol_filter", "sosfilt",
           "sosfilt_zi", "sosfiltfilt", "stft", "sweep_poly", "upfirdn", "vectorstrength", "welch", "wiener",
           "windows", "zoom_fft"]
# filter design and analysis: SciPy's, on the host (_design.py)
globals().update({_n: getattr(_design, _n) for _n in _design.NAMES})
__all__ += list(_design.NAMES)
