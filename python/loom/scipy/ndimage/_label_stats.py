"""Per-label statistics (scipy.ndimage): minimum, maximum, their positions, extrema,
variance, standard_deviation, median, histogram, labeled_comprehension, find_objects and
value_indices.

The reductions run on the device over the labels' segments (_segments.py): with labels None
over everything, with index None over labels != 0, else one segment per requested label.
Like SciPy, a label with no element gives 0 for minimum, maximum and (in a sequence) median,
and NaN for the moments. Results are 0-d arrays for a scalar index and arrays of index's
shape for a sequence; positions are tuples of Python ints, the first in raster order where
values tie.
find_objects and value_indices describe the labels' geometry as Python objects and read the
labels once."""
import numpy as np

import loom

from .. import _util
from ._segments import segments


def _extreme(x, labels, index, largest):
    """(value per requested entry, its first flat position, scalar). As SciPy: one region
    (labels or index None, a scalar index) reduces its elements with min/max, so NaN
    propagates; a sequence of labels takes each segment's first (last) element after one sort
    by value, NaN sorting last. A label with no element gives 0 at position 0."""
    x = _util.asarray(x)
    s = segments(x, labels, index)
    if s.scalar:
        inside = s.seg == 0
        info = loom.finfo(x.dtype) if x.dtype.kind in "fc" else loom.iinfo(x.dtype) if x.dtype.kind in "iu" else None
        fill = (info.min if largest else info.max) if info is not None else (not largest)
        masked = loom.where(inside, s.values, fill)
        found = loom.any(inside)
        best = loom.max(masked) if largest else loom.min(masked)
        where = loom.argmax(masked) if largest else loom.argmin(masked)
        return loom.where(found, best, 0).astype(x.dtype), loom.where(found, where, 0), True
    values, flat, starts = s.sorted(last_first=largest)
    if values.size == 0:
        zero = loom.zeros((s.k,), dtype=x.dtype, device=x.device)
        return s.per_entry(zero), s.per_entry(zero.astype(loom.int64)), False
    found = starts[1:] > starts[:-1]
    at = loom.clip(starts[1:] - 1 if largest else starts[:-1], 0, values.size - 1)  # empty labels: any
    best = loom.where(found, values[at], 0).astype(x.dtype)
    return s.per_entry(best), s.per_entry(loom.where(found, flat[at], 0)), False


def minimum(input, labels=None, index=None):
    """The smallest value of each label (scipy.ndimage.minimum)."""
    return _extreme(input, labels, index, False)[0]


def maximum(input, labels=None, index=None):
    """The largest value of each label (scipy.ndimage.maximum)."""
    return _extreme(input, labels, index, True)[0]


def _positions(flat, shape, scalar):
    coords = [tuple(int(c) for c in np.unravel_index(int(i), shape)) for i in flat.numpy().reshape(-1)]
    return coords[0] if scalar else coords


def minimum_position(input, labels=None, index=None):
    """Where each label's smallest value first occurs (scipy.ndimage.minimum_position)."""
    x = _util.asarray(input)
    _, where, scalar = _extreme(x, labels, index, False)
    return _positions(where, x.shape, scalar)


def maximum_position(input, labels=None, index=None):
    """Where each label's largest value first occurs (scipy.ndimage.maximum_position)."""
    x = _util.asarray(input)
    _, where, scalar = _extreme(x, labels, index, True)
    return _positions(where, x.shape, scalar)


def extrema(input, labels=None, index=None):
    """(minimum, maximum, minimum_position, maximum_position) (scipy.ndimage.extrema)."""
    x = _util.asarray(input)
    low, low_at, scalar = _extreme(x, labels, index, False)
    high, high_at, _ = _extreme(x, labels, index, True)
    return (low, high, _positions(low_at, x.shape, scalar),
            _positions(high_at, x.shape, scalar))


def variance(input, labels=None, index=None):
    """The variance of each label's values, two-pass (scipy.ndimage.variance)."""
    x = _util.asarray(input)
    if x.dtype.kind == "c" and labels is not None and index is not None:
        raise TypeError("complex input with labels and index: SciPy's per-label sums take real values only")
    x = x.astype(loom.complex128 if x.dtype.kind == "c" else loom.float64)  # SciPy's float64 sums
    s = segments(x, labels, index)
    count = s.counts().astype(loom.float64)
    mean = s.sums(s.values) / count
    dev = loom.abs(s.values - s.spread(mean)) ** 2
    return s.per_entry(s.sums(dev) / count)


def standard_deviation(input, labels=None, index=None):
    """The standard deviation of each label's values (scipy.ndimage.standard_deviation)."""
    return loom.sqrt(variance(input, labels, index))


def median(input, labels=None, index=None):
    """The median of each label's values (scipy.ndimage.median). As SciPy: one region (labels
    or index None, a scalar index) is NumPy's median of its elements (NaN propagates; NaN when
    empty); a sequence of labels takes the middle of each segment after one sort by value (the
    mean of the two middle ones; NaN sorting last; 0 for an empty label). Floats keep their
    type, other inputs give float64."""
    x = _util.asarray(input)
    dt = x.dtype if x.dtype.kind in "fc" else loom.float64
    s = segments(x.astype(dt), labels, index)
    if s.scalar:
        inside = s.values[s.seg == 0]
        return loom.median(inside) if inside.size else loom.asarray(np.nan, dtype=dt, device=x.device)
    values, _, starts = s.sorted()
    if values.size == 0:
        return s.per_entry(loom.zeros((s.k,), dtype=dt, device=x.device))
    count = starts[1:] - starts[:-1]
    low = loom.clip(starts[:-1] + (count - 1) // 2, 0, values.size - 1)  # empty labels: any
    high = loom.clip(starts[:-1] + count // 2, 0, values.size - 1)
    middle = (values[low] + values[high]) / 2
    return s.per_entry(loom.where(count > 0, middle, 0).astype(dt))


def histogram(input, min, max, bins, labels=None, index=None):
    """The counts of each label's values in `bins` equal bins over [min, max]
    (scipy.ndimage.histogram): one int array, or an object array of them for a sequence."""
    x = _util.asarray(input)
    if labels is None and index is not None:
        raise ValueError("index without defined labels")
    s = segments(x, labels, index)
    counts = [loom.histogram(v, bins=int(bins), range=(min, max))[0] for v, _ in s.grouped()]
    if s.scalar:
        return counts[0]
    out = np.empty(len(counts), dtype=object)
    out[:] = counts
    return out


def labeled_comprehension(input, labels, index, func, out_dtype, default, pass_positions=False):
    """func over each label's values (and their flat positions when pass_positions), in an
    array of out_dtype with `default` for labels that have no element."""
    x = _util.asarray(input)
    if labels is None and index is not None:
        raise ValueError("index without defined labels")
    s = segments(x, labels, index)
    parts = s.grouped()
    if index is None:  # SciPy's rule: labels is then the mask of one region, func's result returned as it is
        v, p = parts[0]
        return func(v, p) if pass_positions else func(v)
    out = np.full(len(parts), default, dtype=out_dtype)
    for i, (v, p) in enumerate(parts):
        if v.size:
            res = func(v, p) if pass_positions else func(v)
            # a C cast into out_dtype, wrapping as SciPy's assignment of a NumPy scalar does
            out[i] = np.asarray(res.numpy() if isinstance(res, loom.ndarray) else res).astype(out.dtype)
    return loom.asarray(out[0] if s.scalar else out, device=x.device)


def find_objects(input, max_label=0):
    """The bounding box of each label 1..max_label as a tuple of slices, None for a label
    that does not occur (scipy.ndimage.find_objects)."""
    lab = _util.asarray(input)
    if lab.dtype.kind not in "iu":
        raise TypeError("Unsupported input type")
    host = lab.numpy()
    top = int(host.max(initial=0)) if max_label < 1 else int(max_label)
    flat = host.reshape(-1)
    keep = (flat > 0) & (flat <= top)
    ids = flat[keep].astype(np.int64) - 1
    boxes = []
    lows, highs = [], []
    for d, n in enumerate(host.shape):
        coord = np.indices(host.shape)[d].reshape(-1)[keep]
        low = np.full(top, n, np.int64)
        high = np.full(top, -1, np.int64)
        np.minimum.at(low, ids, coord)
        np.maximum.at(high, ids, coord)
        lows.append(low)
        highs.append(high)
    for k in range(top):
        if highs and highs[0][k] < 0:
            boxes.append(None)
        else:
            boxes.append(tuple(slice(int(lo[k]), int(hi[k]) + 1) for lo, hi in zip(lows, highs)))
    return boxes


def value_indices(arr, *, ignore_value=None, adaptive_index_dtype=False):
    """{value: the index arrays where arr equals it} for each distinct value of an integer
    array, ignore_value left out (scipy.ndimage.value_indices). adaptive_index_dtype (CuPy's
    option): the indices in the smallest signed integer type that holds every coordinate of
    arr's shape, not int64."""
    a = _util.asarray(arr)
    if a.dtype.kind not in "iu":
        raise ValueError("Parameter 'arr' must be an integer array")
    index_dtype = np.int64
    if adaptive_index_dtype:
        largest = max(a.shape, default=1) - 1
        index_dtype = next(t for t in (np.int8, np.int16, np.int32, np.int64) if largest <= np.iinfo(t).max)
    host = a.numpy()
    out = {}
    for v in np.unique(host):
        if ignore_value is not None and v == ignore_value:
            continue
        out[v] = tuple(loom.asarray(c.astype(index_dtype), device=a.device) for c in np.nonzero(host == v))
    return out
