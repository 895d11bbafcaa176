"""The elements of each requested label as segments, so that per-label statistics are
segment reductions over the elements -- bincount for sums and counts, one sort for the
order statistics -- in memory linear in the elements for any number of labels (an
(elements x labels) mask grows with both).

Segment s < k holds the elements of the s-th distinct requested label; segment k the rest.
With labels None every element is in segment 0; with index None, those of labels != 0."""
from dataclasses import dataclass

import numpy as np

import loom

from .. import _util


@dataclass
class Segments:
    values: "loom.ndarray"  # the input, flat
    seg: "loom.ndarray"     # int64 segment of each element, in [0, k]
    k: int                  # the number of requested segments
    pick: np.ndarray        # the segment of each entry of index (index's shape; () when scalar)
    scalar: bool            # a scalar index, or none: results are 0-d

    def per_entry(self, per_segment):
        """Results per segment (k,) as SciPy returns them: per entry of index, 0-d for a scalar."""
        out = per_segment[loom.asarray(self.pick.reshape(-1), device=per_segment.device)]
        return out[0] if self.scalar else out.reshape(self.pick.shape + tuple(per_segment.shape[1:]))

    def counts(self):
        """Elements per segment, int64 (k,)."""
        return loom.bincount(self.seg, minlength=self.k + 1)[: self.k]

    def sums(self, weights):
        """The sum of `weights` (flat, like values) per segment, in float64 (complex128)."""
        return loom.bincount(self.seg, weights=weights, minlength=self.k + 1)[: self.k]

    def spread(self, per_segment, fill=0):
        """per_segment (k,) gathered back to the elements (those of no segment get `fill`)."""
        tail = loom.full((1,), fill, dtype=per_segment.dtype, device=per_segment.device)
        return loom.concatenate([per_segment, tail])[self.seg]

    def sorted(self, last_first=False):
        """(values, flat indices) sorted by segment, then value (NaN last, as NumPy sorts), then
        index -- or index descending with last_first, so that a segment's last element is its
        largest value's first occurrence -- and starts (k + 1,): segment s is
        [starts[s], starts[s + 1])."""
        flat = loom.arange(self.values.size, dtype=loom.int64, device=self.values.device)
        order = loom.lexsort((-flat if last_first else flat, self.values, self.seg))
        seg = self.seg[order]
        starts = loom.searchsorted(seg, loom.arange(self.k + 1, dtype=loom.int64, device=seg.device))
        return self.values[order], flat[order], starts


    def grouped(self):
        """[(values, flat positions)] per entry of index (flattened), each in raster order: one
        stable sort by segment, then a slice per entry, for per-label host loops."""
        flat = loom.arange(self.values.size, dtype=loom.int64, device=self.values.device)
        order = loom.lexsort((flat, self.seg))
        starts = loom.searchsorted(self.seg[order], loom.arange(self.k + 1, dtype=loom.int64,
                                                                device=self.seg.device)).numpy()
        values, positions = self.values[order], flat[order]
        return [(values[starts[g]:starts[g + 1]], positions[starts[g]:starts[g + 1]]) for g in self.pick.reshape(-1)]


def segments(x, labels, index):
    """Segments of x's elements for labels and index, as scipy.ndimage's statistics read them."""
    values = x.reshape(-1)
    n = values.size
    if labels is None:
        return Segments(values, loom.zeros((n,), dtype=loom.int64, device=x.device), 1, np.zeros((), np.int64), True)
    lab = loom.broadcast_to(_util.asarray(labels), x.shape).reshape(-1)
    if index is None:
        return Segments(values, (lab == 0).astype(loom.int64), 1, np.zeros((), np.int64), True)
    scalar = np.ndim(index) == 0
    keys = np.asarray(index.numpy() if isinstance(index, loom.ndarray) else index)
    distinct, pick = np.unique(keys.reshape(-1), return_inverse=True)
    k = len(distinct)
    if k == 0:
        nothing = loom.zeros((n,), dtype=loom.int64, device=x.device)  # every element in segment k = 0
        return Segments(values, nothing, 0, pick.reshape(keys.shape), scalar)
    # Each element's label looked up among the distinct keys (in the labels' dtype, as
    # SciPy compares them): a hit is its segment, a miss segment k.
    table = loom.asarray(distinct, device=x.device).astype(lab.dtype)
    at = loom.minimum(loom.searchsorted(table, lab), k - 1)
    seg = loom.where(table[at] == lab, at, k).astype(loom.int64)
    return Segments(values, seg, k, pick.reshape(keys.shape), scalar)
