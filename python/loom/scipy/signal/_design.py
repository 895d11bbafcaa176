"""Filter design and analysis (scipy.signal's butter, cheby1, firwin, zpk2sos, freqz, ...):
computed by SciPy on the host, results as loom arrays.

These functions turn a few numbers (an order, band edges, a ripple) into a few dozen
coefficients, or evaluate a filter's response at a few thousand frequencies: host work that
SciPy does well, not device work, so loom calls SciPy for them rather than writing a second
copy (SciPy is then needed: the call says so when it is missing). Array arguments may be loom
arrays; array results are loom arrays on the device of the first loom argument, else on the
default device; Python and NumPy scalars (a zpk gain, a filter order) stay as SciPy returns
them. Filtering signals with the coefficients (lfilter, sosfilt, filtfilt, ...) is loom's own
and runs on the device."""
import numpy as np

import loom

# SciPy's names of this kind; each becomes loom.scipy.signal.<name>.
NAMES = (
    # IIR design
    "iirfilter", "iirdesign", "butter", "cheby1", "cheby2", "ellip", "bessel", "iirnotch", "iirpeak", "iircomb",
    "gammatone", "buttord", "cheb1ord", "cheb2ord", "ellipord", "buttap", "cheb1ap", "cheb2ap", "ellipap", "besselap",
    # FIR design
    "firwin", "firwin2", "firls", "remez", "kaiserord", "kaiser_beta", "kaiser_atten", "minimum_phase",
    "savgol_coeffs",
    # representations and transforms between them
    "tf2zpk", "zpk2tf", "tf2sos", "sos2tf", "sos2zpk", "zpk2sos", "tf2ss", "ss2tf", "zpk2ss", "ss2zpk", "normalize",
    "lp2lp", "lp2hp", "lp2bp", "lp2bs", "lp2lp_zpk", "lp2hp_zpk", "lp2bp_zpk", "lp2bs_zpk", "bilinear",
    "bilinear_zpk", "unique_roots", "residue", "residuez", "invres", "invresz",
    # frequency responses
    "freqz", "freqz_zpk", "freqz_sos", "sosfreqz", "freqs", "freqs_zpk", "group_delay", "findfreqs",
)


def _scipy_signal(name):
    try:  # lazy: SciPy is needed only when a design function is called
        import scipy.signal as signal
    except ImportError:
        raise ImportError(f"loom.scipy.signal.{name} designs filters with SciPy on the host: install scipy") from None
    return signal


def _to_host(v):
    if isinstance(v, loom.ndarray):
        return v.numpy()
    if isinstance(v, (list, tuple)):
        return type(v)(_to_host(x) for x in v)
    return v


def _first_device(values):
    for v in values:
        if isinstance(v, loom.ndarray):
            return v.device
        if isinstance(v, (list, tuple)):
            d = _first_device(v)
            if d is not None:
                return d
    return None


def _to_device(v, device):
    if isinstance(v, np.ndarray) and v.dtype != object:
        return loom.asarray(v, device=device)
    if isinstance(v, tuple):
        return type(v)(*(_to_device(x, device) for x in v)) if hasattr(v, "_fields") else \
            tuple(_to_device(x, device) for x in v)
    if isinstance(v, list):
        return [_to_device(x, device) for x in v]
    return v


def _wrap(name):
    def design(*args, **kwargs):
        fn = getattr(_scipy_signal(name), name)
        device = _first_device(list(args) + list(kwargs.values()))
        result = fn(*[_to_host(a) for a in args], **{k: _to_host(v) for k, v in kwargs.items()})
        return _to_device(result, device)
    design.__name__ = design.__qualname__ = name
    design.__doc__ = f"scipy.signal.{name}, computed by SciPy on the host; array results as loom arrays."
    return design


for _name in NAMES:
    globals()[_name] = _wrap(_name)
