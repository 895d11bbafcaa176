"""SciPy's reading of a key into a 2-d sparse matrix (its _validate_indices), shared by A[key] and
A[key] = x: Ellipsis and None expanded; integers (Python, NumPy, 0-d NumPy or loom arrays) checked
and made non-negative; boolean arrays (dense or sparse, shaped as the axes they index) replaced by
their nonzero positions; integer arrays of 1 or 2 dimensions checked against their axis and
moved to the device as int64.

validate() returns the index of each axis (an int, a slice, or an int64 device array with values
in [0, axis length)) and the shape SciPy gives A[key] (1-d or more than 2-d too: the callers
decide). Host reads: the value of a 0-d loom index, the bounds of a loom index array (one read of
two ints), the count of a loom boolean mask's nonzeros: what SciPy reads to check or size."""
import operator

import numpy as np

import loom

from ._sputils import read_ints


def is_sparse_like(x):
    """A loom sparse matrix or a SciPy one."""
    from ._base import is_scipy_sparse, issparse  # lazy: _base imports this module at its top
    return issparse(x) or is_scipy_sparse(x)


def is_intlike(x):
    """x can index one position (SciPy's isintlike): a 0-d value that operator.index takes.
    A whole float (2.0) raises ValueError, as in SciPy; other values are not int-like."""
    if is_sparse_like(x):
        return False
    ndim = x.ndim if isinstance(x, loom.ndarray) else np.ndim(x)
    if ndim != 0:
        return False
    try:
        operator.index(x)
        return True
    except (TypeError, ValueError):
        pass
    try:
        loose = bool(int(x) == x)
    except (TypeError, ValueError):
        return False
    if loose:
        raise ValueError("Inexact indices into sparse matrices are not allowed")
    return False


def _boolean_index(idx, ndim=2):
    """idx as a boolean array (NumPy, loom or sparse) when it is one, else None. A sequence is
    taken for a boolean one when its first element (nested up to ndim levels) is a bool."""
    if not hasattr(idx, "ndim"):
        try:
            first = next(iter(idx), None)
            for _ in range(ndim):
                if isinstance(first, bool):
                    break
                first = next(iter(first), None)
            else:
                return None
        except TypeError:
            return None
        idx = np.asanyarray(idx)
    return idx if getattr(getattr(idx, "dtype", None), "kind", None) == "b" else None


def _nonzero(mask, device):
    """The positions of a boolean mask's true values, one int64 device array per axis."""
    if isinstance(mask, loom.ndarray):
        return [p.astype(loom.int64) for p in loom.nonzero(mask.to_device(device))]
    if is_sparse_like(mask):
        if not hasattr(mask, "_triples"):  # a SciPy matrix: loom's own copy of it
            from ._base import CLASSES  # lazy: _base imports this module at its top
            mask = CLASSES[("coo", False)](mask, device=device)
        return [p.astype(loom.int64).to_device(device) for p in mask.nonzero()]
    return [loom.asarray(p.astype(np.int64), device=device) for p in np.nonzero(np.asarray(mask))]


def _as_indices(idx, n, device):
    """An integer index array (1-d or 2-d, as SciPy's compressed formats take) for an axis of
    length n, checked and made non-negative, as int64 on the device."""
    if idx.ndim not in (1, 2):
        raise IndexError(f"Index dimension must be 1 or 2. Got {idx.ndim}")
    if idx.size == 0:
        return loom.zeros(idx.shape, dtype=loom.int64, device=device)
    if idx.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    if isinstance(idx, loom.ndarray):
        idx = idx.to_device(device).astype(loom.int64)
        lo, hi = read_ints(loom.min(idx), loom.max(idx))  # the bounds check: one read
    else:
        lo, hi = int(idx.min()), int(idx.max())
    if hi >= n:
        raise IndexError(f"index ({hi}) out of range")
    if lo < -n:
        raise IndexError(f"index ({lo}) out of range")
    if isinstance(idx, np.ndarray):
        return loom.asarray(np.where(idx < 0, idx + n, idx).astype(np.int64), device=device)
    return loom.where(idx < 0, idx + n, idx) if lo < 0 else idx


def _first_pass(key, ndim):
    """The key's parts with boolean and dense arrays recognised, and where its Ellipsis was."""
    parts, ellipsis, used = [], None, 0
    for pos, idx in enumerate(key):
        if idx is Ellipsis:
            if ellipsis is not None:
                raise IndexError("an index can only have a single ellipsis")
            ellipsis = pos
        elif idx is None:
            parts.append(idx)
        elif isinstance(idx, slice) or is_intlike(idx):
            parts.append(idx)
            used += 1
        elif (mask := _boolean_index(idx, ndim)) is not None:
            parts.append(mask)
            used += mask.ndim
        elif is_sparse_like(idx):
            raise IndexError("Indexing with sparse matrices is not supported except boolean indexing "
                             "where matrix and index are equal shapes.")
        else:
            if not isinstance(idx, loom.ndarray):
                try:
                    idx = np.asarray(idx)
                except (ValueError, TypeError) as e:
                    raise IndexError("invalid index") from e
            parts.append(idx)
            used += 1
    if used > ndim:
        raise IndexError(f"Too many indices for array or tuple index out of range: the key needs {used} "
                         f"dimensions, the sparse matrix has {ndim}")
    fill = [slice(None)] * (ndim - used)
    if ellipsis is None:
        return parts + fill
    return parts[:ellipsis] + fill + parts[ellipsis:]


def validate(key, shape, device):
    """(index of each axis, the shape of A[key] in SciPy)."""
    if key is Ellipsis:
        return (slice(None), slice(None)), tuple(shape)
    parts = _first_pass(key if isinstance(key, tuple) else [key], len(shape))
    out_shape, index, arrays, arr_int_pos = [], [], [], []
    for part in parts:
        axis = len(index)
        if part is None:
            out_shape.append(1)
        elif isinstance(part, slice):
            index.append(part)
            out_shape.append(len(range(*part.indices(shape[axis]))))
        elif is_intlike(part):
            n, i = shape[axis], operator.index(part)
            if not -n <= i < n:
                raise IndexError(f"index ({i}) out of range")
            index.append(i % n)
            arr_int_pos.append(axis)
        elif _boolean_index(part) is not None:
            axes = range(axis, axis + part.ndim)
            if tuple(part.shape) != tuple(shape[axis:axis + part.ndim]):
                raise IndexError(f"bool index {len(index)} has shape {tuple(part.shape)} instead of "
                                 f"{tuple(shape[axis:axis + part.ndim])}")
            index.extend(_nonzero(part, device))
            arrays.extend(axes)
            arr_int_pos.extend(axes)
        else:
            index.append(_as_indices(part, shape[axis], device))
            arrays.append(axis)
            arr_int_pos.append(axis)
    if arrays:
        try:
            arr_shape = list(np.broadcast_shapes(*[tuple(index[a].shape) for a in arrays]))
        except ValueError:
            shapes = " ".join(str(tuple(index[a].shape)) for a in arrays)
            raise IndexError(f"shape mismatch: indexing arrays could not be broadcast together with shapes "
                             f"{shapes}") from None
        # NumPy's rule: arrays (and ints) not next to each other put their axes first.
        adjacent = len(arr_int_pos) == arr_int_pos[-1] - arr_int_pos[0] + 1
        at = arr_int_pos[0] if adjacent else 0
        out_shape = out_shape[:at] + arr_shape + out_shape[at:]
    return tuple(index), tuple(out_shape)
