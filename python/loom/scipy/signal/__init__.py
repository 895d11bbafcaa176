"""scipy.signal's names on loom arrays: convolution (N-D, direct and FFT), IIR filtering
without a Python loop over samples (lfilter, sosfilt) and its zero-phase form (filtfilt, sosfiltfilt), windows, and spectral
estimates."""
from . import windows
from ._convolve import choose_conv_method, convolve, correlate, fftconvolve, oaconvolve
from ._convolve2d import convolve2d, correlate2d
from ._filtfilt import filtfilt, sosfiltfilt
from ._upfirdn import upfirdn
from ._lfilter import lfilter, lfilter_zi, sosfilt, sosfilt_zi
from ._spectral import periodogram, stft, welch
from .windows import get_window

__all__ = ["choose_conv_method", "convolve", "convolve2d", "correlate", "correlate2d", "fftconvolve", "filtfilt", "get_window", "lfilter",
           "lfilter_zi", "oaconvolve", "periodogram", "sosfilt", "sosfilt_zi", "sosfiltfilt", "stft", "upfirdn", "welch",
           "windows"]
