"""A[key] for CSR and CSC matrices and arrays, as SciPy's: the key is read by _validate.validate
(ints, slices, Ellipsis, None, integer and boolean arrays, boolean sparse masks), then

- two ints give the stored value (summed over repeats) as a 0-d device array;
- ints, slices and arrays along different axes select "outer": the chosen majors (rows of CSR)
  are gathered, then the chosen minors (_select.py), giving a sparse matrix of A's class;
- two arrays (not a column against a row) select "inner": the values at the broadcast pairs
  (a dense result for 1-d pairs, a sparse matrix of A's class for 2-d ones), as SciPy's.

Results SciPy gives as np.matrix (the inner values of a *_matrix) are 2-d loom arrays, as CuPy's.
Where SciPy gives a 1-d sparse array (an integer index into a *_array: csr_array[i], A[:, j]),
loom.scipy.sparse, which is 2-d only, gives the closest it has: a COO array of the same values
with the integer's axis kept at length 1, (1, n) or (m, 1); SciPy's 1-d result is a COO array too.
A key that reshapes the result (an int against a 2-d array, a None) gives COO, as SciPy's reshape.
CSR's A[int_array, slice with a step] selects outer here, as CSC's does: SciPy's CSR pairs the
array with the slice's positions as inner indexing (an error unless their lengths broadcast).
"""
import numpy as np

import loom

from . import _select
from ._sputils import index_dtype
from ._validate import validate

_ALL = slice(None)


def _run_or_positions(sel, n, device):
    """An axis selection as _select takes it: (start, stop) for an int or a step-1 slice, the
    positions as an int64 device array otherwise; and whether positions increase."""
    if isinstance(sel, int):
        return (sel, sel + 1), True
    if isinstance(sel, slice):
        start, stop, step = sel.indices(n)
        if step == 1:
            return (start, max(start, stop)), True
        return loom.arange(start, stop, step, dtype=loom.int64, device=device), step > 0
    return sel.reshape(-1), False


def _outer(A, row, col):
    """A[row][:, col] for row and col each an int, a slice or a 1-d index array (a matrix of A's
    class; an int keeps its axis at length 1)."""
    if isinstance(row, slice) and isinstance(col, slice) and row == col == _ALL:
        return A.copy()
    nmajor, nminor = A._swap(A.shape)
    major, minor = A._swap((row, col))
    major, _ = _run_or_positions(major, nmajor, A.device)
    minor, increasing = _run_or_positions(minor, nminor, A.device)
    data, indices, indptr = _select.take_majors(A.data, A.indices, A.indptr, major)
    canonical, sorted_ = A._canonical, A._sorted
    if not (isinstance(minor, tuple) and minor == (0, nminor)):
        data, indices, indptr = _select.take_minors(data, indices, indptr, minor)
        if not (isinstance(minor, tuple) or increasing):
            canonical, sorted_ = None, None  # the chosen order, not the stored one
    shape = A._swap((_select.count(major), _select.count(minor)))
    return A._build(data, indices, indptr, shape, canonical, sorted_)


def _element(A, i, j):
    """A[i, j]: the sum of the values stored at (i, j), as a 0-d device array."""
    major, minor = A._swap((i, j))
    data, ind, _ = _select.take_majors(A.data, A.indices, A.indptr, (major, major + 1))
    if not data.size:
        return loom.zeros((), dtype=A.dtype, device=A.device)
    return loom.sum(loom.where(ind == minor, data, loom.zeros_like(data))).astype(A.dtype)


def _inner(A, row, col):
    """The values at the broadcast (row, col) pairs: 1-d pairs give a dense 1-d array, 2-d pairs
    a sparse matrix of A's class holding the nonzero values."""
    shape = np.broadcast_shapes(tuple(row.shape), tuple(col.shape))  # validate() checked they broadcast
    if 0 in shape:
        return type(A)((1, 0) if len(shape) == 1 else shape, dtype=A.dtype, device=A.device)
    row, col = (loom.broadcast_to(a, shape).reshape(-1) for a in (row, col))
    values = _select.sample(A, *A._swap((row, col)))
    return values if len(shape) == 1 else type(A)(values.reshape(shape))


def reshaped(res, shape):
    """res (sparse or dense) in `shape` (same size), as SciPy's reshape in C order: a sparse
    res comes back as COO, as SciPy's (it reshapes through COO)."""
    shape = tuple(shape)
    if tuple(res.shape) == shape:
        return res
    if not hasattr(res, "_triples"):
        return res.reshape(shape)
    row, col, data = res._triples()
    keys = row.astype(loom.int64) * res.shape[1] + col.astype(loom.int64)
    n, idx = shape[1], index_dtype(*shape, data.size)
    row, col = (keys // n, keys % n) if n else (keys, keys)
    return res._container("coo")._build(data, row.astype(idx), col.astype(idx), shape)


def _select_2d(A, row, col):
    """SciPy's dispatch over (int | slice | array) x (int | slice | array)."""
    row_arr, col_arr = isinstance(row, loom.ndarray), isinstance(col, loom.ndarray)
    if isinstance(row, int) and isinstance(col, int):
        return _element(A, row, col)
    if not (row_arr and col_arr):
        res = _outer(A, row, col)
        if row_arr and row.ndim == 2 and isinstance(col, int):
            return reshaped(res, row.shape)
        return res
    if row.ndim == 2 and row.shape[1] == 1 and (col.ndim == 1 or col.shape[0] == 1):
        return _outer(A, row[:, 0], col.reshape(-1))
    return _inner(A, row, col)


def getitem(A, key):
    (row, col), shape = validate(key, A.shape, A.device)
    if len(shape) > 2:
        raise IndexError(f"Indexing that leads to >2D is not supported by {A.format} format "
                         f"(the key gives shape {shape})")
    res = _select_2d(A, row, col)
    if res.ndim == 1 and not A._is_array:
        res = res.reshape(1, -1)  # SciPy's np.matrix of the values
    if A._is_array:
        if res.ndim == 2 and hasattr(res, "_triples") and len(shape) == 1:
            return res.tocoo()  # SciPy's 1-d COO array: loom keeps the integer's axis
        return reshaped(res, shape)
    # Matrices stay 2-d: only a None in the key changes their shape, as in SciPy.
    if shape == () or (len(shape) == 1 and res.ndim != 0):
        return res
    return reshaped(res, (1,) + shape if len(shape) == 1 else shape)
