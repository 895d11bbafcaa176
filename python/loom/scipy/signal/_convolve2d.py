"""scipy.signal.convolve2d and correlate2d: 2-D convolution with SciPy's boundary rules. The
input is extended by the kernel's size less one with the boundary ('fill' with fillvalue,
'wrap', 'symm'), then one 'valid' convolution gives the full result, cropped for 'same'."""
import loom

from .. import _util
from ._convolve import convolve

_BOUNDARY = {"fill": "constant", "pad": "constant", "wrap": "wrap", "circular": "wrap", "symm": "symmetric",
             "symmetric": "symmetric"}


def _inputs(in1, in2, mode, boundary, who):
    a, k = _util.asarray(in1), _util.asarray(in2)
    if a.ndim != 2 or k.ndim != 2:
        raise ValueError(f"{who} inputs must both be 2-D arrays")
    if mode not in ("full", "same", "valid"):
        raise ValueError("Acceptable mode flags are 'valid', 'same', or 'full'.")
    if boundary not in _BOUNDARY:
        raise ValueError("Acceptable boundary flags are 'fill', 'circular' (or 'wrap'), and 'symmetric' (or 'symm').")
    dt = loom.result_type(a.dtype, k.dtype)
    if dt == loom.float16 or dt == loom.bool:  # SciPy's 2-d loop has no such form
        raise ValueError(f"{who} not available for this type ({dt}).")
    return a, k


def _full(a, k, boundary, fillvalue):
    """The full convolution of a with k, a extended by the boundary rule."""
    kh, kw = k.shape
    pad_mode = _BOUNDARY[boundary]
    extra = {"constant_values": fillvalue} if pad_mode == "constant" else {}
    ext = loom.pad(a, ((kh - 1, kh - 1), (kw - 1, kw - 1)), mode=pad_mode, **extra)
    return convolve(ext, k, "valid")


def _convolve2d(a, k, mode, boundary, fillvalue, same_start):
    """mode 'same' keeps a's shape from the full result, starting at same_start(k.shape)."""
    if mode == "valid" or (_BOUNDARY[boundary] == "constant" and fillvalue == 0 and mode == "full"):
        return convolve(a, k, mode)
    full = _full(a, k, boundary, fillvalue)
    if mode == "full":
        return full
    r0, c0 = same_start(k.shape)
    return loom.ascontiguousarray(full[r0:r0 + a.shape[0], c0:c0 + a.shape[1]])


def convolve2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """The 2-D convolution of in1 and in2 (scipy.signal.convolve2d)."""
    a, k = _inputs(in1, in2, mode, boundary, "convolve2d")
    return _convolve2d(a, k, mode, boundary, fillvalue, lambda s: ((s[0] - 1) // 2, (s[1] - 1) // 2))


def correlate2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """The 2-D cross-correlation of in1 and in2 (scipy.signal.correlate2d): the convolution
    with in2 reversed and conjugated."""
    a, k = _inputs(in1, in2, mode, boundary, "correlate2d")
    # 'valid' with in2 the larger: SciPy swaps the inputs (conjugating the new second one) and
    # reverses the result; a correlation's 'same' window starts at the kernel's half size.
    swap = mode == "valid" and not all(aa >= ka for aa, ka in zip(a.shape, k.shape))
    if swap:
        a, k = k, a
    kr = loom.flip(loom.conj(k) if k.dtype.kind == "c" else k)
    out = _convolve2d(a, kr, mode, boundary, fillvalue, lambda s: (s[0] // 2, s[1] // 2))
    return loom.ascontiguousarray(loom.flip(out)) if swap else out
