"""Window functions (scipy.signal.windows and get_window), computed with loom ops on the
default device (or device=), float64. sym=False gives the periodic window for spectral
analysis: one point longer, last point dropped."""
import math
import numbers
import warnings

import numpy as np

import loom


def _len_guard(M):
    if int(M) != M or M < 0:
        raise ValueError("Window length M must be a non-negative integer")
    return int(M) <= 1


def _extend(M, sym):
    return (M, False) if sym else (M + 1, True)


def _trunc(w, needed):
    return w[:-1] if needed else w


def _n(M, device):
    return loom.arange(M, dtype=loom.float64, device=device)


def general_cosine(M, a, sym=True, *, device=None):
    """A sum of cosines with weights a (scipy.signal.windows.general_cosine)."""
    if _len_guard(M):
        return loom.ones(int(M), dtype=loom.float64, device=device)
    M, trunc = _extend(M, sym)
    fac = loom.linspace(-math.pi, math.pi, M, dtype=loom.float64, device=device)
    w = loom.zeros(M, dtype=loom.float64, device=device)
    for k, coef in enumerate(a):
        w = w + coef * loom.cos(k * fac)
    return _trunc(w, trunc)


def general_hamming(M, alpha, sym=True, *, device=None):
    """alpha - (1 - alpha) cos(...) (scipy.signal.windows.general_hamming)."""
    return general_cosine(M, [alpha, 1.0 - alpha], sym, device=device)


def hann(M, sym=True, *, device=None):
    """The Hann window (scipy.signal.windows.hann)."""
    return general_hamming(M, 0.5, sym, device=device)


def hamming(M, sym=True, *, device=None):
    """The Hamming window (scipy.signal.windows.hamming)."""
    return general_hamming(M, 0.54, sym, device=device)


def blackman(M, sym=True, *, device=None):
    """The Blackman window (scipy.signal.windows.blackman)."""
    return general_cosine(M, [0.42, 0.50, 0.08], sym, device=device)


def nuttall(M, sym=True, *, device=None):
    """Nuttall's minimum 4-term Blackman-Harris window (scipy.signal.windows.nuttall)."""
    return general_cosine(M, [0.3635819, 0.4891775, 0.1365995, 0.0106411], sym, device=device)


def blackmanharris(M, sym=True, *, device=None):
    """The minimum 4-term Blackman-Harris window (scipy.signal.windows.blackmanharris)."""
    return general_cosine(M, [0.35875, 0.48829, 0.14128, 0.01168], sym, device=device)


def flattop(M, sym=True, *, device=None):
    """The flat top window (scipy.signal.windows.flattop)."""
    return general_cosine(M, [0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368], sym, device=device)


def boxcar(M, sym=True, *, device=None):
    """The rectangular window (scipy.signal.windows.boxcar)."""
    _len_guard(M)
    return loom.ones(int(M), dtype=loom.float64, device=device)


def cosine(M, sym=True, *, device=None):
    """The simple cosine (sine) window (scipy.signal.windows.cosine)."""
    if _len_guard(M):
        return loom.ones(int(M), dtype=loom.float64, device=device)
    M, trunc = _extend(M, sym)
    return _trunc(loom.sin(math.pi / M * (_n(M, device) + 0.5)), trunc)


def triang(M, sym=True, *, device=None):
    """The triangular window, nonzero at the ends (scipy.signal.windows.triang)."""
    if _len_guard(M):
        return loom.ones(int(M), dtype=loom.float64, device=device)
    M, trunc = _extend(M, sym)
    n = loom.arange(1, (M + 1) // 2 + 1, dtype=loom.float64, device=device)
    if M % 2 == 0:
        w = (2 * n - 1.0) / M
        w = loom.concatenate([w, loom.flip(w)])
    else:
        w = 2 * n / (M + 1.0)
        w = loom.concatenate([w, loom.flip(w[:-1])])
    return _trunc(w, trunc)


def bartlett(M, sym=True, *, device=None):
    """The Bartlett window, zero at the ends (scipy.signal.windows.bartlett)."""
    if _len_guard(M):
        return loom.ones(int(M), dtype=loom.float64, device=device)
    M, trunc = _extend(M, sym)
    n = _n(M, device)
    w = loom.where(n <= (M - 1) / 2.0, 2.0 * n / (M - 1), 2.0 - 2.0 * n / (M - 1))
    return _trunc(w, trunc)


def kaiser(M, beta, sym=True, *, device=None):
    """The Kaiser window with shape parameter beta (scipy.signal.windows.kaiser)."""
    if _len_guard(M):
        return loom.ones(int(M), dtype=loom.float64, device=device)
    M, trunc = _extend(M, sym)
    n = _n(M, device)
    alpha = (M - 1) / 2.0
    w = loom.i0(beta * loom.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / loom.i0(loom.asarray(float(beta), device=device))
    return _trunc(w, trunc)


def gaussian(M, std, sym=True, *, device=None):
    """The Gaussian window with standard deviation std (scipy.signal.windows.gaussian)."""
    if _len_guard(M):
        return loom.ones(int(M), dtype=loom.float64, device=device)
    M, trunc = _extend(M, sym)
    n = _n(M, device) - (M - 1.0) / 2.0
    return _trunc(loom.exp(-n ** 2 / (2 * std * std)), trunc)


def tukey(M, alpha=0.5, sym=True, *, device=None):
    """The Tukey (tapered cosine) window (scipy.signal.windows.tukey)."""
    if _len_guard(M):
        return loom.ones(int(M), dtype=loom.float64, device=device)
    if alpha <= 0:
        return loom.ones(int(M), dtype=loom.float64, device=device)
    if alpha >= 1.0:
        return hann(M, sym=sym, device=device)
    M, trunc = _extend(M, sym)
    n = _n(M, device)
    width = int(math.floor(alpha * (M - 1) / 2.0))
    n1, n2, n3 = n[0:width + 1], n[width + 1:M - width - 1], n[M - width - 1:]
    w1 = 0.5 * (1 + loom.cos(math.pi * (-1 + 2.0 * n1 / alpha / (M - 1))))
    w2 = loom.ones(n2.shape, dtype=loom.float64, device=device)
    w3 = 0.5 * (1 + loom.cos(math.pi * (-2.0 / alpha + 1 + 2.0 * n3 / alpha / (M - 1))))
    return _trunc(loom.concatenate([w1, w2, w3]), trunc)


def barthann(M, sym=True, *, device=None):
    """The modified Bartlett-Hann window (scipy.signal.windows.barthann)."""
    if _len_guard(M):
        return loom.ones(int(M), dtype=loom.float64, device=device)
    M, trunc = _extend(M, sym)
    fac = loom.abs(_n(M, device) / (M - 1.0) - 0.5)
    return _trunc(0.62 - 0.48 * fac + 0.38 * loom.cos(2 * math.pi * fac), trunc)


def bohman(M, sym=True, *, device=None):
    """The Bohman window (scipy.signal.windows.bohman)."""
    if _len_guard(M):
        return loom.ones(int(M), dtype=loom.float64, device=device)
    M, trunc = _extend(M, sym)
    fac = loom.abs(loom.linspace(-1, 1, M, dtype=loom.float64, device=device)[1:-1])
    w = (1 - fac) * loom.cos(math.pi * fac) + 1.0 / math.pi * loom.sin(math.pi * fac)
    zero = loom.zeros(1, dtype=loom.float64, device=device)
    return _trunc(loom.concatenate([zero, w, zero]), trunc)


def chebwin(M, at, sym=True, *, device=None):
    """The Dolph-Chebyshev window, sidelobes `at` dB below the main lobe
    (scipy.signal.windows.chebwin): the DFT of the Chebyshev polynomial sampled on the unit
    circle."""
    if abs(at) < 45:
        warnings.warn("This window is not suitable for spectral analysis for attenuation values lower than about "
                      "45dB because the equivalent noise bandwidth of a Chebyshev window does not grow "
                      "monotonically with increasing sidelobe attenuation when the attenuation is smaller than "
                      "about 45 dB.", stacklevel=2)
    if _len_guard(M):
        return loom.ones(int(M), dtype=loom.float64, device=device)
    M, trunc = _extend(M, sym)
    order = M - 1.0
    beta = math.cosh(1.0 / order * math.acosh(10 ** (abs(at) / 20.0)))
    k = _n(M, device)
    x = beta * loom.cos(math.pi * k / M)
    # T_order(x), by its cosh form outside [-1, 1] and its cos form inside
    outside = loom.cosh(order * loom.acosh(loom.maximum(loom.abs(x), 1.0)))
    p = loom.where(x > 1, outside, loom.where(x < -1, (2 * (M % 2) - 1) * outside,
                                              loom.cos(order * loom.acos(loom.clip(x, -1.0, 1.0)))))
    if M % 2:
        w = loom.fft.fft(p).real
        n = (M + 1) // 2
        w = loom.concatenate([loom.flip(w[1:n]), w[:n]])
    else:
        w = loom.fft.fft(p * loom.exp(1j * math.pi / M * k)).real
        n = M // 2 + 1
        w = loom.concatenate([loom.flip(w[1:n]), w[1:n]])
    return _trunc(w / loom.max(w), trunc)


def exponential(M, center=None, tau=1.0, sym=True, *, device=None):
    """The exponential (Poisson) window exp(-|n - center| / tau) (scipy.signal.windows.exponential)."""
    if sym and center is not None:
        raise ValueError("If sym==True, center must be None.")
    if _len_guard(M):
        return loom.ones(int(M), dtype=loom.float64, device=device)
    M, trunc = _extend(M, sym)
    if center is None:
        center = (M - 1) / 2
    return _trunc(loom.exp(-loom.abs(_n(M, device) - center) / tau), trunc)


def _taylor_coefficients(nbar, sll):
    """The nbar - 1 cosine weights of the Taylor window (few: computed on the host)."""
    a = math.acosh(10 ** (sll / 20)) / math.pi
    s2 = nbar ** 2 / (a ** 2 + (nbar - 0.5) ** 2)
    ma = np.arange(1, nbar, dtype=np.float64)
    m2 = ma * ma
    fm = np.empty(nbar - 1)
    for i in range(nbar - 1):
        numer = (1 if i % 2 == 0 else -1) * np.prod(1 - m2[i] / s2 / (a ** 2 + (ma - 0.5) ** 2))
        denom = 2 * np.prod(1 - m2[i] / m2[:i]) * np.prod(1 - m2[i] / m2[i + 1:])
        fm[i] = numer / denom
    return ma, fm


def taylor(M, nbar=4, sll=30, norm=True, sym=True, *, device=None):
    """The Taylor window: nbar - 1 nearly constant sidelobes sll dB down
    (scipy.signal.windows.taylor); norm=True scales its centre to 1."""
    if _len_guard(M):
        return loom.ones(int(M), dtype=loom.float64, device=device)
    M, trunc = _extend(M, sym)
    ma, fm = _taylor_coefficients(nbar, sll)
    n = _n(M, device)
    cosines = loom.cos(2 * math.pi * loom.asarray(ma, device=device).reshape(-1, 1) * (n - M / 2.0 + 0.5) / M)
    w = 1 + 2 * loom.matmul(loom.asarray(fm, device=device), cosines)
    if norm:
        centre = 1 + 2 * float(np.matmul(fm, np.cos(2 * math.pi * ma * ((M - 1) / 2 - M / 2.0 + 0.5) / M)))
        w = w * (1.0 / centre)
    return _trunc(w, trunc)


def lanczos(M, *, sym=True, device=None):
    """The Lanczos (sinc) window (scipy.signal.windows.lanczos)."""
    if _len_guard(M):
        return loom.ones(int(M), dtype=loom.float64, device=device)
    M, trunc = _extend(M, sym)

    def right_half(start):
        return loom.sinc(2.0 * loom.arange(start, M, dtype=loom.float64, device=device) / (M - 1) - 1.0)

    if M % 2 == 0:
        half = right_half(M / 2)
        w = loom.concatenate([loom.flip(half), half])
    else:
        half = right_half((M + 1) / 2)
        w = loom.concatenate([loom.flip(half), loom.ones(1, dtype=loom.float64, device=device), half])
    return _trunc(w, trunc)


# name(s): (function, whether it takes parameters: True, False or "optional"), as SciPy's table
_WINDOWS = {
    ("barthann", "brthan", "bth"): (barthann, False),
    ("bartlett", "bart", "brt"): (bartlett, False),
    ("blackman", "black", "blk"): (blackman, False),
    ("blackmanharris", "blackharr", "bkh"): (blackmanharris, False),
    ("bohman", "bman", "bmn"): (bohman, False),
    ("boxcar", "box", "ones", "rect", "rectangular"): (boxcar, False),
    ("chebwin", "cheb"): (chebwin, True),
    ("cosine", "halfcosine"): (cosine, False),
    ("exponential", "poisson"): (exponential, "optional"),
    ("flattop", "flat", "flt"): (flattop, False),
    ("gaussian", "gauss", "gss"): (gaussian, True),
    ("general cosine", "general_cosine"): (general_cosine, True),
    ("general hamming", "general_hamming"): (general_hamming, True),
    ("hamming", "hamm", "ham"): (hamming, False),
    ("hann", "han"): (hann, False),
    ("kaiser", "ksr"): (kaiser, True),
    ("lanczos", "sinc"): (lanczos, False),
    ("nuttall", "nutl", "nut"): (nuttall, False),
    ("taylor", "taylorwin"): (taylor, "optional"),
    ("triangle", "triang", "tri"): (triang, False),
    ("tukey", "tuk"): (tukey, "optional"),
}
_BY_NAME = {name: entry for names, entry in _WINDOWS.items() for name in names}


def get_window(window, Nx, fftbins=True, *, device=None):
    """A window of length Nx by name ('hann'), by (name, parameters) (('kaiser', 8.6)) or a
    float (a Kaiser beta); periodic unless fftbins=False, or as a '_periodic' or '_symmetric'
    suffix of the name says (scipy.signal.get_window)."""
    if not (isinstance(Nx, numbers.Integral) and Nx > 0):
        raise ValueError(f"Parameter Nx={Nx!r} is not a positive integer")
    if not isinstance(fftbins, bool):
        raise ValueError(f"Parameter fftbins={fftbins!r} is not of type bool!")
    if not isinstance(window, (str, tuple)):
        try:
            beta = float(window)
        except Exception as e:
            raise ValueError(f"Parameter window={window!r} must be a tuple, a string or a float!") from e
        return kaiser(Nx, beta, not fftbins, device=device)
    if isinstance(window, tuple) and not isinstance(window[0], str):
        raise ValueError(f"First tuple entry of parameter window={window!r} is not a str!")
    sym = not fftbins
    name = window if isinstance(window, str) else window[0]
    if name.endswith("_symmetric"):
        sym, name = True, name[:-len("_symmetric")]
    elif name.endswith("_periodic"):
        sym, name = False, name[:-len("_periodic")]
    if name not in _BY_NAME:
        raise ValueError(f"Invalid window name '{name}' in parameter window={window!r}!")
    fn, takes_params = _BY_NAME[name]
    args = window[1:] if isinstance(window, tuple) else ()
    if args and takes_params is False:
        raise ValueError(f"'{name}' does not allow parameters, but window={window!r}!")
    if not args and takes_params is True:
        raise ValueError(f"'{name}' must have parameters, but window={window!r}!")
    return fn(Nx, *args, sym=sym, device=device)


__all__ = ["barthann", "bartlett", "blackman", "blackmanharris", "bohman", "boxcar", "chebwin", "cosine",
           "exponential", "flattop", "gaussian", "general_cosine", "general_hamming", "get_window", "hamming", "hann",
           "kaiser", "lanczos", "nuttall", "taylor", "triang", "tukey"]
