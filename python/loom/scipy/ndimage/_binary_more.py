"""scipy.ndimage's binary operations built from erosion and dilation: binary_propagation
(dilation repeated inside a mask until nothing changes), binary_fill_holes (the background
not reachable from the border), binary_hit_or_miss (an erosion of the image and one of its
complement), and iterate_structure (a structuring element dilated by itself)."""
import numpy as np

import loom

from . import _support
from ._binary import _structure, binary_dilation, binary_erosion


def binary_propagation(input, structure=None, mask=None, output=None, border_value=0, origin=0, *, axes=None):
    """input dilated within mask until it stops growing (scipy.ndimage.binary_propagation)."""
    return binary_dilation(input, structure, -1, mask, output, border_value, origin, axes=axes)


def binary_fill_holes(input, structure=None, output=None, origin=0, *, axes=None):
    """input with every background region that does not touch the border filled
    (scipy.ndimage.binary_fill_holes)."""
    x = _support.check_input(input)
    background = loom.logical_not(x != 0)
    reached = binary_dilation(loom.zeros(x.shape, dtype=loom.bool, device=x.device), structure, -1, background, None,
                              1, origin, axes=axes)
    filled = loom.logical_not(reached)
    if isinstance(output, loom.ndarray):
        loom.copyto(output, filled)
        return output
    return filled


def binary_hit_or_miss(input, structure1=None, structure2=None, output=None, origin1=0, origin2=None, *, axes=None):
    """True where structure1 fits the foreground and structure2 (by default its complement)
    the background (scipy.ndimage.binary_hit_or_miss)."""
    x = _support.check_input(input)
    s1 = _structure(structure1, len(_support.axes_of(axes, x.ndim)))
    s2 = np.logical_not(s1) if structure2 is None else np.asarray(
        structure2.numpy() if isinstance(structure2, loom.ndarray) else structure2, dtype=bool)
    origin2 = origin1 if origin2 is None else origin2
    hit = binary_erosion(x, s1, 1, None, None, 0, origin1, axes=axes)
    # an all-False structure2 matches everywhere (SciPy's erosion by nothing)
    miss = binary_erosion(loom.logical_not(x != 0), s2, 1, None, None, 0, origin2, axes=axes) if s2.any() else \
        loom.ones(x.shape, dtype=loom.bool, device=x.device)
    out = loom.logical_and(hit, miss)
    if isinstance(output, loom.ndarray):
        loom.copyto(output, out)
        return output
    return out


def iterate_structure(structure, iterations, origin=None):
    """structure dilated by itself iterations - 1 times (scipy.ndimage.iterate_structure);
    with origin, (structure, origin * iterations)."""
    s = np.asarray(structure.numpy() if isinstance(structure, loom.ndarray) else structure)
    if iterations < 2:
        out = loom.asarray(s.copy())
    else:
        n = iterations - 1
        grown = np.zeros([k + n * (k - 1) for k in s.shape], dtype=bool)
        grown[tuple(slice(n * (k // 2), n * (k // 2) + k) for k in s.shape)] = s != 0
        out = binary_dilation(loom.asarray(grown), s, n)
    if origin is None:
        return out
    return out, [iterations * o for o in _support.sequence(origin, s.ndim)]
