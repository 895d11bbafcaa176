"""Window functions (scipy.signal.windows and get_window), computed with loom ops on the
default device (or device=), float64. sym=False gives the periodic window for spectral
analysis: one point longer, last point dropped."""
import math
import numbers

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


_WINDOWS = {
    ("barthann", "brthan", "bth"): None,
    ("bartlett", "bart", "brt"): bartlett,
    ("blackman", "black", "blk"): blackman,
    ("blackmanharris", "blackharr", "bkh"): blackmanharris,
    ("boxcar", "box", "ones", "rect", "rectangular"): boxcar,
    ("cosine", "halfcosine"): cosine,
    ("flattop", "flat", "flt"): flattop,
    ("hamming", "hamm", "ham"): hamming,
    ("hann", "han"): hann,
    ("nuttall", "nutl", "nut"): nuttall,
    ("triang", "triangle", "tri"): triang,
    ("kaiser", "ksr"): kaiser,
    ("gaussian", "gauss", "gss"): gaussian,
    ("tukey", "tuk"): tukey,
}
_BY_NAME = {name: fn for names, fn in _WINDOWS.items() for name in names if fn is not None}
_NEED_PARAMS = {kaiser, gaussian}


def get_window(window, Nx, fftbins=True, *, device=None):
    """A window of length Nx by name ('hann'), by (name, parameters) (('kaiser', 8.6)) or a
    float (a Kaiser beta); periodic unless fftbins=False (scipy.signal.get_window)."""
    if not isinstance(Nx, numbers.Integral) or Nx < 1:
        raise ValueError(f"Parameter Nx={Nx!r} is not a positive integer")
    sym = not fftbins
    if isinstance(window, numbers.Real) and not isinstance(window, bool):
        return kaiser(Nx, window, sym, device=device)
    if isinstance(window, tuple):
        name, args = window[0], window[1:]
    elif isinstance(window, str):
        name, args = window, ()
    else:
        raise ValueError(f"{type(window)} as window type is not supported.")
    fn = _BY_NAME.get(name)
    if fn is None:
        raise ValueError(f"Invalid window name {name!r} in parameter window={window!r}!")
    if fn in _NEED_PARAMS and not args:
        raise ValueError(f"{name!r} must have parameters, but window={window!r}!")
    return fn(Nx, *args, sym=sym, device=device)


__all__ = ["bartlett", "blackman", "blackmanharris", "boxcar", "cosine", "flattop", "gaussian", "general_cosine",
           "general_hamming", "get_window", "hamming", "hann", "kaiser", "nuttall", "triang", "tukey"]
