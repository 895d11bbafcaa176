"""scipy.ndimage's binary erosion and dilation (and opening, closing from them): an AND (an
OR) over the structuring element's taps of the input as bool, the outside of the array
taking border_value; `iterations` rounds (until nothing changes for iterations < 1: one bool
read per round) and `mask` (elements outside it keep the input)."""
import numpy as np

import loom

from . import _support
from ._rank import _taps


def _structure(structure, ndim):
    if structure is None:
        grid = np.indices([3] * ndim) - 1
        return np.abs(grid).sum(axis=0) <= 1
    # CuPy's extension, where SciPy would refuse: an int or a tuple of ndim ints is the shape
    # of a structure of ones (structure=3 is a 3 x 3 x ... block).
    if isinstance(structure, (int, np.integer)) and not isinstance(structure, bool) and ndim > 0:
        return np.ones((int(structure),) * ndim, dtype=bool)
    if (isinstance(structure, tuple) and len(structure) == ndim and ndim != 1
            and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in structure)):
        return np.ones(structure, dtype=bool)
    s = np.asarray(structure.numpy() if isinstance(structure, loom.ndarray) else structure, dtype=bool)
    if s.ndim != ndim:
        raise RuntimeError("structure and input must have same dimensionality")
    if not s.any():
        raise RuntimeError("structure must not be empty")
    return s


def _round(x, s, axes, origins, border_value, dilate):
    taps = _taps(x, s, axes, "constant", bool(border_value), origins)
    out = taps[0]
    for t in taps[1:]:
        out = (out | t) if dilate else (out & t)
    return out


def _binary(input, structure, iterations, mask, output, border_value, origin, dilate, axes=None):
    x = _support.check_input(input)
    x = x if x.dtype == loom.bool_ else x != 0
    axes = _support.axes_of(axes, x.ndim)  # the structure spans these axes (all by default)
    s = _structure(structure, len(axes))
    origins = _support.sequence(origin, len(axes))
    if dilate:  # the reflected element, its origin mirrored (one further on even axes), as SciPy
        s = s[tuple(slice(None, None, -1) for _ in range(len(axes)))]
        origins = [-o - (0 if sz & 1 else 1) for o, sz in zip(origins, s.shape)]
    m = None if mask is None else _support.check_input(mask) != 0
    out, n = x, int(iterations)
    # Until nothing changes: rounds shrink (grow) the set when the structure's centre is on,
    # so they settle within x.size rounds; with the centre off they can cycle ([1, 0, 1] moves
    # [1, 0] to [0, 1] and back), where SciPy loops forever. A repeat of the result two rounds
    # back, or more rounds than elements, is that cycle: an error rather than a hang.
    before, rounds = None, 0
    while True:
        nxt = _round(out, s, axes, origins, border_value, dilate)
        if m is not None:
            nxt = loom.where(m, nxt, x)
        done = n == 1 or (n < 1 and not bool(loom.any(nxt != out)))
        if n < 1 and not done:
            rounds += 1
            if rounds > x.size or (before is not None and not bool(loom.any(nxt != before))):
                op = "binary_dilation" if dilate else "binary_erosion"
                raise ValueError(f"{op}: iterations < 1 repeats until nothing changes, but the results "
                                 "cycle (the structure's centre is off); pass iterations >= 1")
            before = out
        out = nxt
        if done:
            break
        n -= 1
    if isinstance(output, loom.ndarray):
        loom.copyto(output, out)
        return output
    return out


def binary_erosion(input, structure=None, iterations=1, mask=None, output=None, border_value=0, origin=0,
                   brute_force=False, *, axes=None):
    """True where every tap of the structure is True (scipy.ndimage.binary_erosion)."""
    return _binary(input, structure, iterations, mask, output, border_value, origin, False, axes)


def binary_dilation(input, structure=None, iterations=1, mask=None, output=None, border_value=0, origin=0,
                    brute_force=False, *, axes=None):
    """True where any tap of the reflected structure is True (scipy.ndimage.binary_dilation)."""
    return _binary(input, structure, iterations, mask, output, border_value, origin, True, axes)


def binary_opening(input, structure=None, iterations=1, output=None, origin=0, mask=None, border_value=0,
                   brute_force=False, *, axes=None):
    """Dilation of the erosion."""
    tmp = binary_erosion(input, structure, iterations, mask, None, border_value, origin, axes=axes)
    return binary_dilation(tmp, structure, iterations, mask, output, border_value, origin, axes=axes)


def binary_closing(input, structure=None, iterations=1, output=None, origin=0, mask=None, border_value=0,
                   brute_force=False, *, axes=None):
    """Erosion of the dilation."""
    tmp = binary_dilation(input, structure, iterations, mask, None, border_value, origin, axes=axes)
    return binary_erosion(tmp, structure, iterations, mask, output, border_value, origin, axes=axes)
