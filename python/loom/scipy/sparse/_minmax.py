"""A.max() and A.min() for loom sparse matrices, as SciPy's: the implicit zeros count unless
explicit=True; along an axis, a sparse (1, n) or (m, 1) COO result (SciPy's kind for matrices;
arrays keep the axis at length 1, loom being 2-d); over everything, a 0-d device array. On the
device: a scatter of each stored value into its row's or column's slot, and a count of the
stored values per slot to see where implicit zeros take part (one count read for the result's
nonzeros)."""
import numpy as np

import loom

from ._base import CLASSES


def _identity(dtype, maximum):
    """The identity of max (maximum=True) or min for dtype: -inf/inf, the integer bounds, or
    False/True for bool."""
    if dtype.kind == "c":
        raise TypeError(f"max/min of a sparse matrix of complex values ({dtype.name}) is not defined")
    if dtype.kind == "b":
        return not maximum
    if dtype.kind == "f":
        return -np.inf if maximum else np.inf
    info = np.iinfo(np.dtype(dtype.name))
    return info.min if maximum else info.max


def extreme(A, axis, explicit, maximum):
    """A's largest (maximum=True) or smallest values, over all or along axis."""
    coo = A.tocoo(copy=True)
    coo.sum_duplicates()
    m, n = coo.shape
    combine = loom.maximum if maximum else loom.minimum
    if axis is None:
        if m * n == 0:
            raise ValueError("zero-size array to reduction operation, which has no identity")
        if coo.nnz == 0:
            return loom.zeros((), dtype=coo.dtype, device=coo.device)
        best = loom.max(coo.data) if maximum else loom.min(coo.data)
        return best if explicit or coo.nnz == m * n else combine(best, loom.zeros((), dtype=coo.dtype,
                                                                                  device=coo.device))
    axis = A._axis(axis)
    slots, length, size = (coo.col, n, m) if axis == 0 else (coo.row, m, n)
    start = loom.full((length,), _identity(coo.dtype, maximum), dtype=coo.dtype, device=coo.device)
    best = start.at[slots].max(coo.data) if maximum else start.at[slots].min(coo.data)
    count = loom.zeros((length,), dtype=loom.int64, device=coo.device).at[slots].add(1)
    zero = loom.zeros((), dtype=coo.dtype, device=coo.device)
    if not explicit:
        best = loom.where(count < size, combine(best, zero), best)
    best = loom.where(count == 0, zero, best)
    dense = best.reshape((1, -1) if axis == 0 else (-1, 1))
    return CLASSES[("coo", A._is_array)](dense)
