"""A[key] = x for CSR and CSC matrices and arrays, and setdiag (CSR, CSC, COO), as SciPy's.

The key is read as A[key] reads it (_validate.py); slices and arrays broadcast to the pairs of
(row, col) positions, and x (a scalar, a dense array or a sparse matrix) broadcasts to them, with
SciPy's rules. Then, on the device: the pairs' linear keys are looked up among the matrix's sorted
keys (binary search); pairs already stored take their values in place, the last value winning
where a pair repeats; new pairs (explicit zeros too, as SciPy stores them) are merged into the
sorted arrays, with SciPy's SparseEfficiencyWarning. A sparse x first zeroes the stored values
at every chosen pair, then sets its own stored values, as SciPy's.

Host reads: one count (how many pairs are new: it sizes the result); one bool where the matrix
may repeat positions (whether a pair hits a repeat, which SciPy then sums first) and one where
the order of its indices is not known (sorted ones are searched; unsorted ones are sorted first)."""
import warnings

import numpy as np

import loom

from . import _kernels as K
from ._sputils import SparseEfficiencyWarning, index_dtype, on_device
from ._validate import is_sparse_like, validate


def _dense_values(A, x):
    """x as a dense device array of A's dtype (a sparse x densified, as SciPy does for one item)."""
    if is_sparse_like(x):
        x = x.toarray()
    return on_device(x, A.device, dtype=A.dtype)


def _lookup(A, majors, minors):
    """(A's sorted linear keys, the wanted pairs' keys, where each pair is or would go, whether it
    is stored). Sorts A's indices in place; sums A's repeated positions when a pair hits one."""
    if not A.has_sorted_indices:
        A.sort_indices()
    nminor = A._swap(A.shape)[1]
    wanted = K.linear_keys(majors, minors, nminor)
    if A.nnz == 0:
        empty = loom.zeros(0, dtype=loom.int64, device=A.device)
        return empty, wanted, loom.zeros(wanted.shape, dtype=loom.int64, device=A.device), \
            loom.zeros(wanted.shape, dtype=loom.bool_, device=A.device)
    keys = K.linear_keys(A._majors(), A.indices, nminor)
    at = loom.searchsorted(keys, wanted, side="left")
    if not A._canonical and A.nnz > 1:
        repeats = loom.searchsorted(keys, wanted, side="right") - at > 1
        if wanted.size and bool(loom.any(repeats)):
            A.sum_duplicates()
            keys = K.linear_keys(A._majors(), A.indices, nminor)
            at = loom.searchsorted(keys, wanted, side="left")
    at = loom.minimum(at, A.nnz - 1)
    return keys, wanted, at, loom.take(keys, at) == wanted


def _write(values, slots, x):
    """values with x written at slots; slot len(values) is a spare one, cut off after."""
    spare = loom.zeros(1, dtype=values.dtype, device=values.device)
    return loom.concatenate([values, spare]).at[slots].set(x)[:values.size]


def set_many(A, majors, minors, x, stacklevel=0):
    """A[major, minor] = x in place, for 1-d device arrays; the last value wins where a pair
    repeats. Warns (stacklevel > 0) where the sparsity structure changes, as SciPy's _set_many."""
    if majors.size == 0:
        return
    keys, wanted, at, stored = _lookup(A, majors, minors)
    order = loom.argsort(wanted)  # stable: a repeated pair's last value comes last
    wanted, x, at, stored = (loom.take(a, order) for a in (wanted, x, at, stored))
    last = loom.concatenate([wanted[1:] != wanted[:-1], loom.ones(1, dtype=loom.bool_, device=A.device)])
    data = _write(A.data, loom.where(stored & last, at, A.nnz), x)
    (new,) = loom.nonzero(last & ~stored)  # the one count read
    if new.size == 0:
        A.data = data
        return
    if stacklevel:
        warnings.warn(f"Changing the sparsity structure of a {type(A).__name__} is expensive: the new "
                      "positions are merged into its sorted arrays (build a matrix from COO triples "
                      "instead)", SparseEfficiencyWarning, stacklevel=stacklevel + 1)
    _insert(A, keys, data, loom.take(wanted, new), loom.take(x, new))


def _insert(A, keys, data, new_keys, new_values):
    """A with new positions (sorted distinct keys, none stored yet) merged into its sorted ones."""
    nmajor, nminor = A._swap(A.shape)
    dev = A.device
    # Each value's place in the merge: its own rank plus how many of the other side come first.
    old_to = loom.arange(keys.size, dtype=loom.int64, device=dev) + loom.searchsorted(new_keys, keys)
    new_to = loom.arange(new_keys.size, dtype=loom.int64, device=dev) + loom.searchsorted(keys, new_keys)
    total = keys.size + new_keys.size
    merged = loom.zeros(total, dtype=loom.int64, device=dev).at[old_to].set(keys).at[new_to].set(new_keys)
    values = loom.zeros(total, dtype=A.dtype, device=dev).at[old_to].set(data).at[new_to].set(new_values)
    idx = loom.int64 if A.indices.dtype == loom.int64 else index_dtype(nmajor, nminor, total)
    majors = merged // nminor
    A._set(values, (merged - majors * nminor).astype(idx), K.indptr_of(majors, nmajor, idx), A.shape,
           True, A._canonical)


def zero_many(A, majors, minors):
    """Stored values at the pairs become explicit zeros; no position is added (SciPy's _zero_many)."""
    _, _, at, stored = _lookup(A, majors, minors)
    A.data = _write(A.data, loom.where(stored, at, A.nnz), loom.zeros((), dtype=A.dtype, device=A.device))


def _positions(sel, n, device):
    """An axis index as SciPy's __setitem__ spreads it: a slice as a range, an int as one position."""
    if isinstance(sel, slice):
        return loom.arange(*sel.indices(n), dtype=loom.int64, device=device)
    if isinstance(sel, int):
        return loom.full((1,), sel, dtype=loom.int64, device=device)
    return sel


def _set_sparse(A, i, j, x):
    """A[i, j] = x for 2-d broadcast pairs (M, N) and a sparse x of shape (M or 1, N or 1)."""
    (M, N), dev = i.shape, A.device
    i, j = i.reshape(-1), j.reshape(-1)
    zero_many(A, *A._swap((i, j)))
    if x.nnz == 0:
        return
    r, c, vals = x.row.astype(loom.int64), x.col.astype(loom.int64), x.data.astype(A.dtype)
    if x.shape[0] == 1 and M != 1:
        r, c, vals = loom.repeat(loom.arange(M, dtype=loom.int64, device=dev), r.size), loom.tile(c, M), \
            loom.tile(vals, M)
    if x.shape[1] == 1 and N != 1:
        r, c, vals = loom.repeat(r, N), loom.tile(loom.arange(N, dtype=loom.int64, device=dev), c.size), \
            loom.repeat(vals, N)
    at = r * N + c
    set_many(A, *A._swap((loom.take(i, at), loom.take(j, at))), vals, stacklevel=5)


def setitem(A, key, x):
    (row, col), _ = validate(key, A.shape, A.device)
    if isinstance(row, int) and isinstance(col, int):
        v = _dense_values(A, x)
        if v.size != 1:
            raise ValueError("Trying to assign a sequence to an item")
        pair = [loom.full((1,), p, dtype=loom.int64, device=A.device) for p in (row, col)]
        set_many(A, *A._swap(pair), v.reshape(1), stacklevel=4)
        return
    row_slice, col_slice = isinstance(row, slice), isinstance(col, slice)
    row, col = _positions(row, A.shape[0], A.device), _positions(col, A.shape[1], A.device)
    # SciPy's layout: a slice of rows is a column of positions, a slice of columns a row.
    if row_slice or (col_slice and row.ndim == 1):
        row = row.reshape(-1, 1)
    if col_slice:
        col = col.reshape(1, -1)
    shape = np.broadcast_shapes(tuple(row.shape), tuple(col.shape))
    i, j = loom.broadcast_to(row, shape), loom.broadcast_to(col, shape)
    if is_sparse_like(x):
        if 0 in x.shape:
            return
        if len(shape) == 1:
            i, j, shape = i.reshape(1, -1), j.reshape(1, -1), (1,) + shape
        x = _coo_of(x, A.device)
        rows_ok = x.shape[0] == shape[0] or (x.shape[0] == 1 and shape[0] != 1)
        cols_ok = x.shape[1] == shape[1] or (x.shape[1] == 1 and shape[1] != 1)
        if not (rows_ok and cols_ok):
            raise ValueError("shape mismatch in assignment")
        x.sum_duplicates()
        _set_sparse(A, i, j, x)
        return
    v = _dense_values(A, x)
    if tuple(d for d in v.shape if d != 1) != tuple(d for d in shape if d != 1):
        v = loom.broadcast_to(v, shape)
    if v.size == 0:
        return
    set_many(A, *A._swap((i.reshape(-1), j.reshape(-1))), v.reshape(-1), stacklevel=4)


def _coo_of(x, device):
    """A sparse x as a new loom COO matrix on the device (summing its repeats changes no caller's)."""
    from ._base import CLASSES  # lazy: _base imports this module at its top
    return CLASSES[("coo", False)](x, device=device)


# ---- setdiag ---------------------------------------------------------------------------------------
def _diagonal_values(A, values, k):
    """SciPy's checks of setdiag's arguments; values as a 0-d or 1-d device array."""
    m, n = A.shape
    if (k > 0 and k >= n) or (k < 0 and -k >= m):
        raise ValueError("k exceeds array dimensions")
    v = values.to_device(A.device) if isinstance(values, loom.ndarray) else on_device(np.asarray(values), A.device)
    if v.ndim > 1:
        raise ValueError(f"setdiag: values must be 0-d or 1-d, got a {v.ndim}-d array")
    return v


def _diagonal(A, v, k):
    """(rows, cols, values) of the diagonal positions setdiag sets: all of the k-th diagonal for a
    scalar, as many as there are values (at most the diagonal's length) otherwise."""
    m, n = A.shape
    length = min(m + min(k, 0), n - max(k, 0))
    if v.ndim:
        length = min(length, v.size)
    length = max(length, 0)
    i = loom.arange(length, dtype=loom.int64, device=A.device)
    x = loom.broadcast_to(v, (length,)) if v.ndim == 0 else v[:length]
    return i + max(-k, 0), i + max(k, 0), x.astype(A.dtype)


def setdiag(A, values, k=0):
    """A.setdiag(values, k) in place, as SciPy's: CSR and CSC insert the diagonal positions they
    lack (no warning: SciPy gives none for setdiag); COO drops its values on the set positions and
    appends the new ones after the kept ones (SciPy's order)."""
    v = _diagonal_values(A, values, k)
    if A.format == "coo":
        _setdiag_coo(A, v, k)
        return
    if 0 in A.shape:
        return
    rows, cols, x = _diagonal(A, v, k)
    if rows.size:
        set_many(A, *A._swap((rows, cols)), x)


def _setdiag_coo(A, v, k):
    if v.ndim and v.size == 0:
        return
    rows, cols, x = _diagonal(A, v, k)
    row, col, data = A.row, A.col, A.data
    if A.nnz:
        # Stored values on the set part of the diagonal go; the rest stay in their order.
        along = row if k >= 0 else col
        on = ((col.astype(loom.int64) - row.astype(loom.int64)) == k) & (along < rows.size)
        row, col, data = K.keep(~on, row, col, data)
    A._set(loom.concatenate([data, x]), loom.concatenate([row, rows.astype(row.dtype)]),
           loom.concatenate([col, cols.astype(col.dtype)]), A.shape, A._nodup, False)
