"""label, center_of_mass, sum_labels, mean and generate_binary_structure (scipy.ndimage).

label runs on the device: every foreground element starts with its own flat index + 1 as
label; each round takes the minimum over the structure's neighbours, then jumps pointers
(label <- label of the element it names) so long components converge in about log rounds;
the loop stops when a round changes nothing (one bool read per few rounds). Components are
then numbered 1..n in raster order of their first element, as SciPy numbers them."""
import numpy as np

import loom

from .. import _util
from ._segments import segments
from . import _support

_ROUNDS_PER_CHECK = 4


def generate_binary_structure(rank, connectivity):
    """A rank-D 3 x ... x 3 boolean structure whose elements lie within `connectivity`
    squared steps of the centre (scipy.ndimage.generate_binary_structure)."""
    if connectivity < 1:
        connectivity = 1
    if rank < 1:
        return loom.asarray(np.array(True))
    grid = np.indices([3] * rank) - 1
    return loom.asarray(np.abs(grid).sum(axis=0) <= connectivity)


def _structure(structure, ndim):
    if structure is None:
        s = np.abs(np.indices([3] * ndim) - 1).sum(axis=0) <= 1
    else:
        s = np.asarray(structure.numpy() if isinstance(structure, loom.ndarray) else structure, dtype=bool)
    if s.ndim != ndim:
        raise RuntimeError("structure and input must have equal rank")
    if any(d != 3 for d in s.shape):
        raise ValueError("structure dimensions must be equal to 3")
    return s


def _neighbour_min(lab, offsets, big):
    out = lab
    padded = loom.pad(lab, [(1, 1)] * lab.ndim, mode="constant", constant_values=big)
    for off in offsets:
        sl = tuple(slice(1 + o, 1 + o + n) for o, n in zip(off, lab.shape))
        out = loom.minimum(out, padded[sl])
    return out


class BitDepthError(ValueError, RuntimeError):
    """More labels than the output's integer type holds: SciPy raises RuntimeError, CuPy
    ValueError; this is both, as NumPy's AxisError is both ValueError and IndexError."""


def label(input, structure=None, output=None):
    """(labels, num_features): the connected components of input's nonzero elements under
    `structure` (default: faces only), numbered 1..num_features (scipy.ndimage.label)."""
    x = _util.asarray(input)
    if x.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    shape = x.shape
    if x.ndim == 0:
        x = x.reshape(1)
    s = _structure(structure, x.ndim)
    n = x.size
    out_dt = loom.int32 if output is None else _support.output_dtype(x, output)
    if n == 0:
        res = loom.zeros(shape, dtype=out_dt, device=x.device)
        return (_write(output, res), 0)
    fg = x != 0
    idx_dt = loom.int32 if n < 2 ** 31 - 2 else loom.int64
    big = n + 1
    ids = loom.arange(1, n + 1, dtype=idx_dt, device=x.device).reshape(x.shape)
    bigv = loom.asarray(big, device=x.device).astype(idx_dt)
    lab = loom.where(fg, ids, bigv)
    offsets = [tuple(int(v) - 1 for v in k) for k in zip(*np.nonzero(s)) if any(v != 1 for v in k)]
    while True:
        prev = lab
        for _ in range(_ROUNDS_PER_CHECK):
            lab = loom.where(fg, _neighbour_min(lab, offsets, big), bigv)
            for _ in range(2):
                flat = lab.reshape(-1)
                jumped = loom.take(flat, loom.clip(flat - 1, 0, n - 1)).reshape(lab.shape)
                lab = loom.where(fg, loom.minimum(lab, jumped), bigv)
        if not bool(loom.any(lab != prev)):
            break
    is_root = fg & (lab == ids)
    number = loom.cumsum(is_root.reshape(-1).astype(idx_dt))
    count = int(number[-1])
    if np.dtype(str(out_dt)).kind in "iu" and count > np.iinfo(np.dtype(str(out_dt))).max:
        raise BitDepthError(f"[label] insufficient bit-depth in requested output type: {count} labels do not fit {out_dt}")
    res = loom.where(fg, loom.take(number, loom.clip(lab.reshape(-1) - 1, 0, n - 1)).reshape(lab.shape),
                     loom.zeros((), dtype=idx_dt, device=x.device))
    res = res.astype(out_dt).reshape(shape)
    if isinstance(output, loom.ndarray):
        output[...] = res
        return count
    return res, count


def _write(output, res):
    if isinstance(output, loom.ndarray):
        output[...] = res
        return output
    return res


def _sums(values, labels, index):
    """sum of values per label in index (a list or scalar), or over labels != 0 when index
    is None, or over everything when labels is None: device arrays. As SciPy: one region is
    NumPy's sum (an integer input sums to int64, float32 stays float32), a sequence of labels
    bincount's float64."""
    if labels is None:
        return loom.sum(values), True
    lab = _util.asarray(labels)
    lab = loom.broadcast_to(lab, values.shape)
    if index is None:
        return loom.sum(loom.where(lab != 0, values, 0)), True
    if values.dtype.kind == "c":  # SciPy sums labels by bincount, which has no complex form
        raise TypeError("complex input with labels and index: SciPy's per-label sums take real values only")
    s = segments(values, lab, index)
    if s.scalar:
        return loom.sum(loom.where(s.seg == 0, s.values, 0)), True
    return s.per_entry(s.sums(s.values)), False


def sum_labels(input, labels=None, index=None):
    """The sum of input over each label of index (scipy.ndimage.sum_labels)."""
    x = _util.asarray(input)
    total, scalar = _sums(x, labels, index)
    if scalar:
        return total
    # per-label sums of a sequence are SciPy's bincount: float64 (complex128)
    return total.astype(loom.complex128 if total.dtype.kind == "c" else loom.float64)


def mean(input, labels=None, index=None):
    """The mean of input over each label of index (scipy.ndimage.mean)."""
    x = _util.asarray(input)
    total, _ = _sums(x.astype(loom.float64) if x.dtype.kind in "biu" else x, labels, index)
    count, _ = _sums(loom.ones(x.shape, dtype=loom.float64, device=x.device), labels, index)
    return total / count


def center_of_mass(input, labels=None, index=None):
    """The centre of mass of input, or of each label of index: a tuple of 0-d device arrays
    (a list of tuples for a sequence of labels) (scipy.ndimage.center_of_mass)."""
    x = _util.asarray(input)
    if x.ndim == 0:
        raise IndexError("[center_of_mass] a 0-d input has no coordinates")  # SciPy's IndexError
    # SciPy's float64 (complex128) coordinate grids: every input gives float64 (complex128)
    x = x.astype(loom.complex128 if x.dtype.kind == "c" else loom.float64)
    normalizer, scalar = _sums(x, labels, index)
    results = []
    for d in range(x.ndim):
        shape = [1] * x.ndim
        shape[d] = x.shape[d]
        grid = loom.arange(x.shape[d], dtype=x.dtype, device=x.device).reshape(shape)
        results.append(_sums(x * grid, labels, index)[0] / normalizer)
    if scalar:
        return tuple(results)
    stacked = loom.stack(results, axis=-1).reshape(-1, x.ndim)
    return [tuple(stacked[i, d] for d in range(x.ndim)) for i in range(stacked.shape[0])]
