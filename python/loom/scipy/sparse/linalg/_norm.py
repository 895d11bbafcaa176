"""scipy.sparse.linalg.norm over a sparse matrix's stored values, on its device: results
are loom arrays (0-d for a matrix norm, 1-d along an axis)."""
import math

import loom

from .._base import _spbase


def _real_dtype(dt):
    if dt.kind in "biu":
        return loom.float64
    return {"complex64": loom.float32, "complex128": loom.float64}.get(dt.name, dt)


def _axis_stats(A, axis):
    """(row or column index of each stored value, their absolute values, the axis length,
    the number of results): the pieces of a vector norm along axis."""
    row, col, data = A._triples()
    idx = col if axis == 0 else row
    return idx, loom.abs(data).astype(_real_dtype(A.dtype)), A.shape[axis], A.shape[1 - axis]


def _segment(idx, vals, count, op, init):
    out = loom.full(count, init, dtype=vals.dtype, device=vals.device)
    if not vals.size:
        return out
    return getattr(out.at[idx], op)(vals)


def _vector_norm(A, ord, axis):
    idx, a, length, count = _axis_stats(A, axis)
    if ord in (None, 2):
        return loom.sqrt(_segment(idx, a * a, count, "add", 0))
    if ord == 1:
        return _segment(idx, a, count, "add", 0)
    if ord == math.inf:
        return _segment(idx, a, count, "max", 0)
    if ord == -math.inf:
        # The smallest |value|, which is an implicit zero wherever the line is not full.
        stored = _segment(idx, loom.ones_like(a), count, "add", 0)
        low = _segment(idx, a, count, "min", math.inf)
        return loom.where(stored < length, loom.zeros_like(low), low)
    if ord == 0:  # a count of nonzeros, int64 as SciPy's
        return _segment(idx, (a != 0).astype(loom.int64), count, "add", 0)
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    return _segment(idx, a ** ord, count, "add", 0) ** (1.0 / ord)


def _matrix_norm(A, ord):
    a = abs(A)
    if ord in (None, "fro", "f"):
        data = a.data.astype(_real_dtype(A.dtype))
        return loom.sqrt(loom.sum(data * data)) if data.size else loom.zeros((), dtype=data.dtype, device=A.device)
    if ord in (1, -1, math.inf, -math.inf):
        sums = _vector_norm(A, 1, 0 if abs(ord) == 1 else 1)
        if not sums.size:
            return loom.zeros((), dtype=sums.dtype, device=A.device)
        return loom.max(sums) if ord > 0 else loom.min(sums)
    if ord in (2, -2, "nuc"):
        raise NotImplementedError(f"norm: ord={ord!r} needs singular values (svds), which loom.scipy.sparse "
                                  "does not have yet; use loom.linalg.norm(A.toarray(), ord) for small A")
    raise ValueError("Invalid norm order for matrices.")


def norm(x, ord=None, axis=None):
    """The Frobenius (default), 1, -1, inf or -inf norm of a sparse matrix, or vector norms
    along axis (ord None/2, 1, inf, -inf, 0 or any p), as scipy.sparse.linalg.norm."""
    if not isinstance(x, _spbase):
        raise TypeError("input is not sparse. use numpy.linalg.norm")
    A = x.tocsr()
    if not A.has_canonical_format:  # repeats must add up before taking absolute values
        A = A.copy()
        A.sum_duplicates()
    if axis is None or (isinstance(axis, tuple) and len(axis) == 2):
        if isinstance(axis, tuple):
            axes = tuple(a % 2 for a in axis)
            if axes[0] == axes[1]:
                raise ValueError("Duplicate axes given.")
            A = A.T if axes == (1, 0) else A
        return _matrix_norm(A, ord)
    if isinstance(axis, tuple):
        if len(axis) != 1:
            raise ValueError("Improper number of dimensions to norm.")
        axis = axis[0]
    if axis not in (0, 1, -1, -2):
        raise ValueError(f"Invalid axis {axis!r} for an array of shape {A.shape}")
    return _vector_norm(A, ord, axis % 2)
