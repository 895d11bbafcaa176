"""Indexing CSR and CSC matrices: A[i], A[i:j], A[rows], A[:, cols], A[i, j].

Whole majors (rows of CSR, columns of CSC) are cut out on the device: a step-1 slice keeps a
contiguous run of the stored values (one read: the run's two bounds in indptr); other
selections gather each chosen major's values (one read: how many there are). Selecting along
the minor axis goes through the other format. A[i, j] is a 0-d device array (one read: the
bounds of its row)."""
import numbers

import numpy as np

import loom

from . import _kernels as K
from ._sputils import read_ints


def _check_int(i, n):
    i = int(i)
    if not -n <= i < n:
        raise IndexError(f"index ({i}) out of range")
    return i % n


def _selection(sel, n, device):
    """A slice as (start, stop) when its step is 1, else the chosen indices as a device int64 array."""
    if isinstance(sel, slice):
        start, stop, step = sel.indices(n)
        if step == 1:
            return (start, max(start, stop))
        return loom.arange(start, stop, step, dtype=loom.int64, device=device)
    if isinstance(sel, loom.ndarray):
        idx = loom.nonzero(sel)[0] if sel.dtype.kind == "b" else sel.astype(loom.int64)
        if idx.ndim != 1:
            raise IndexError("index arrays into a sparse matrix must be 1-d")
        if idx.size:
            lo, hi = read_ints(loom.min(idx), loom.max(idx))  # the bounds check: one read
            if lo < -n or hi >= n:
                raise IndexError(f"index ({hi if hi >= n else lo}) out of range")
        return loom.where(idx < 0, idx + n, idx)
    host = np.asarray(sel)
    if host.dtype == np.bool_:
        host = np.nonzero(host)[0]
    if host.ndim != 1 or host.dtype.kind not in "iu":
        raise IndexError(f"invalid index into a sparse matrix: {sel!r}")
    if host.size:
        _check_int(host.min(), n)
        _check_int(host.max(), n)
    return loom.asarray(np.where(host < 0, host + n, host).astype(np.int64), device=device)


def take_majors(A, sel):
    """(data, indices, indptr) of A's majors chosen by sel, (start, stop) or an index array."""
    idx = A.indptr.dtype
    if isinstance(sel, tuple):
        start, stop = sel
        if start == stop:
            return (loom.zeros(0, dtype=A.dtype, device=A.device), loom.zeros(0, dtype=idx, device=A.device),
                    loom.zeros(1, dtype=idx, device=A.device))
        lo, hi = read_ints(A.indptr[start], A.indptr[stop])
        return A.data[lo:hi], A.indices[lo:hi], A.indptr[start:stop + 1] - A.indptr[start]
    ptr = A.indptr.astype(loom.int64)
    starts = loom.take(ptr, sel)
    counts = loom.take(ptr, sel + 1) - starts
    ends = loom.cumsum(counts)
    (total,) = read_ints(ends[-1]) if ends.size else (0,)
    p = loom.arange(total, dtype=loom.int64, device=A.device)
    which = loom.searchsorted(ends, p, side="right")
    pos = loom.take(starts, which) + p - loom.take(ends - counts, which)
    zero = loom.zeros(1, dtype=loom.int64, device=A.device)
    return loom.take(A.data, pos), loom.take(A.indices, pos), loom.concatenate([zero, ends]).astype(idx)


def _count(sel):
    return sel[1] - sel[0] if isinstance(sel, tuple) else sel.size


def _along_major(A, sel):
    data, ind, ptr = take_majors(A, sel)
    nminor = A._swap(A.shape)[1]
    return A._build(data, ind, ptr, A._swap((_count(sel), nminor)), A._canonical, A._sorted)


def _element(A, i, j):
    """A[i, j]: the sum of the values stored at (i, j), as a 0-d device array."""
    major, minor = A._swap((i, j))
    data, ind, _ = take_majors(A, (major, major + 1))
    if not data.size:
        return loom.zeros((), dtype=A.dtype, device=A.device)
    return loom.sum(loom.where(ind == minor, data, loom.zeros_like(data)))


def getitem(A, key):
    if not isinstance(key, tuple):
        key = (key, slice(None))
    if len(key) != 2:
        raise IndexError(f"a sparse matrix takes 1 or 2 indices, got {len(key)}")
    ints = [isinstance(k, numbers.Integral) and not isinstance(k, bool) for k in key]
    if all(ints):
        return _element(A, _check_int(key[0], A.shape[0]), _check_int(key[1], A.shape[1]))
    if any(ints) and A._is_array:
        raise NotImplementedError("an integer index gives a 1-d sparse array in SciPy; loom.scipy.sparse "
                                  "is 2-d only: index with a slice (A[i:i + 1]) instead")
    # An integer keeps its axis in a matrix (A[i] is 1 x n), as SciPy's matrices do.
    sels = [_selection(slice(_check_int(k, n), _check_int(k, n) + 1) if is_int else k, n, A.device)
            for k, n, is_int in zip(key, A.shape, ints)]
    major, minor = A._swap(tuple(sels))
    out = A
    if not (isinstance(major, tuple) and major == (0, A._swap(A.shape)[0])):
        out = _along_major(out, major)
    if not (isinstance(minor, tuple) and minor == (0, A._swap(A.shape)[1])):
        other = "csc" if A.format == "csr" else "csr"
        out = _along_major(out.asformat(other), minor).asformat(A.format)
    return out if out is not A else A.copy()
