"""scipy.signal's names on loom arrays: convolution (N-D, direct and FFT), IIR filtering
without a Python loop over samples (lfilter, sosfilt) and its zero-phase form (filtfilt,
sosfiltfilt), windows, spectral estimates, analytic signals, detrending and rank filters on the
device; filter design and analysis (butter, firwin, zpk2sos, freqz, ...) by SciPy on the host."""
from . import _design, windows
from ._analytic import hilbert, hilbert2
from ._convolve import choose_conv_method, convolve, correlate, fftconvolve, oaconvolve
from ._convolve2d import convolve2d, correlate2d
from ._detrend import detrend
from ._filtfilt import filtfilt, sosfiltfilt
from ._lfilter import lfilter, lfilter_zi, sosfilt, sosfilt_zi
from ._order_filters import medfilt, medfilt2d, order_filter, wiener
from ._polynomial import correlation_lags, deconvolve, lfiltic
from ._spectral import periodogram, stft, welch
from ._upfirdn import upfirdn
from .windows import get_window

__all__ = ["choose_conv_method", "convolve", "convolve2d", "correlate", "correlate2d", "correlation_lags", "deconvolve",
           "detrend", "fftconvolve", "filtfilt", "get_window", "hilbert", "hilbert2", "lfilter", "lfilter_zi", "lfiltic",
           "medfilt", "medfilt2d", "oaconvolve", "order_filter", "periodogram", "sosfilt", "sosfilt_zi", "sosfiltfilt",
           "stft", "upfirdn", "welch", "wiener", "windows"]
# filter design and analysis: SciPy's, on the host (_design.py)
globals().update({_n: getattr(_design, _n) for _n in _design.NAMES})
__all__ += list(_design.NAMES)
