"""Selections from compressed arrays (data, indices, indptr) on the device: chosen majors (rows
of CSR), chosen minors, and the values at given (major, minor) pairs. A selection is a run
(start, stop) or an int64 device array of positions (any order, repeats allowed). Every result
is made of new arrays, never views of the matrix's (SciPy's results share no memory either).

Host reads, one int each where the result's size needs it: the stored values of a run of majors
(its two bounds), of chosen majors or minors (the total), and the count of distinct positions
when a matrix with repeated positions is sampled."""
import loom

from . import _kernels as K
from ._sputils import read_ints


def count(sel):
    return sel[1] - sel[0] if isinstance(sel, tuple) else sel.size


def _empty(dtype, index_dtype, nmajor, device):
    return (loom.zeros(0, dtype=dtype, device=device), loom.zeros(0, dtype=index_dtype, device=device),
            loom.zeros(nmajor + 1, dtype=index_dtype, device=device))


def take_majors(data, indices, indptr, sel):
    """(data, indices, indptr) of the majors chosen by sel."""
    idx, dev = indptr.dtype, data.device
    if isinstance(sel, tuple):
        start, stop = sel
        if start == stop:
            return _empty(data.dtype, idx, 0, dev)
        lo, hi = read_ints(indptr[start], indptr[stop])
        return data[lo:hi].copy(), indices[lo:hi].copy(), indptr[start:stop + 1] - indptr[start]
    if sel.size == 0:
        return _empty(data.dtype, idx, 0, dev)
    ptr = indptr.astype(loom.int64)
    starts = loom.take(ptr, sel)
    counts = loom.take(ptr, sel + 1) - starts
    ends = loom.cumsum(counts)
    (total,) = read_ints(ends[-1])
    zero = loom.zeros(1, dtype=loom.int64, device=dev)
    new_ptr = loom.concatenate([zero, ends]).astype(idx)
    if total == 0:
        return _empty(data.dtype, idx, sel.size, dev)[:2] + (new_ptr,)
    p = loom.arange(total, dtype=loom.int64, device=dev)
    which = loom.searchsorted(ends, p, side="right")  # the chosen major each output value is in
    pos = loom.take(starts, which) + p - loom.take(ends - counts, which)
    return loom.take(data, pos), loom.take(indices, pos), new_ptr


def take_minors(data, indices, indptr, sel):
    """(data, indices, indptr) keeping, in each major, the values at the minors chosen by sel,
    renumbered by their place in sel. A run keeps its values in order; an array emits each
    stored value once for every place in sel that chooses its minor (in increasing place)."""
    idx, dev = indptr.dtype, data.device
    nmajor = indptr.size - 1
    if count(sel) == 0 or data.size == 0:
        return _empty(data.dtype, idx, nmajor, dev)
    zero = loom.zeros(1, dtype=loom.int64, device=dev)
    if isinstance(sel, tuple):
        lo, hi = sel
        kept = (indices >= lo) & (indices < hi)
        before = loom.concatenate([zero, loom.cumsum(kept.astype(loom.int64))])
        new_ptr = loom.take(before, indptr.astype(loom.int64)).astype(idx)
        data, indices = K.keep(kept, data, indices)
        return data, (indices - lo).astype(idx), new_ptr
    # Binary searches among the sorted choices, not a table over all minors: no buffer of the
    # minor axis' length (which int64 indices allow past 2**31).
    ind = indices.astype(loom.int64)
    order = loom.argsort(sel)  # stable: the places choosing one minor, in increasing place
    chosen = loom.take(sel, order)
    first = loom.searchsorted(chosen, ind, side="left")
    copies = loom.searchsorted(chosen, ind, side="right") - first
    ends = loom.cumsum(copies)
    new_ptr = loom.take(loom.concatenate([zero, ends]), indptr.astype(loom.int64)).astype(idx)
    (total,) = read_ints(ends[-1])
    if total == 0:
        return _empty(data.dtype, idx, nmajor, dev)[:2] + (new_ptr,)
    p = loom.arange(total, dtype=loom.int64, device=dev)
    which = loom.searchsorted(ends, p, side="right")  # the stored value each output copies
    nth = p - loom.take(ends - copies, which)
    place = loom.take(order, loom.take(first, which) + nth)
    return loom.take(data, which), place.astype(idx), new_ptr


def canonical(A):
    """A itself when its positions are sorted and distinct, else a copy made so."""
    if A.has_canonical_format:
        return A
    out = A.copy()
    out.sum_duplicates()
    return out


def sample(A, majors, minors):
    """The values of A (CSR or CSC) at the (major, minor) pairs, repeats summed, as a 1-d device
    array: binary searches of the pairs' linear keys among A's sorted keys."""
    n = majors.size
    if A.nnz == 0 or n == 0:
        return loom.zeros(n, dtype=A.dtype, device=A.device)
    C = canonical(A)
    nminor = C._swap(C.shape)[1]
    keys = K.linear_keys(C._majors(), C.indices, nminor)
    wanted = K.linear_keys(majors, minors, nminor)
    at = loom.minimum(loom.searchsorted(keys, wanted, side="left"), C.nnz - 1)
    found = loom.take(keys, at) == wanted
    return loom.where(found, loom.take(C.data, at), loom.zeros((), dtype=C.dtype, device=C.device))
