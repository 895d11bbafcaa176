"""x.flat (NumPy's flatiter: x's elements in C order, to index, assign, iterate and copy),
x.partition / x.argpartition, and partition / argpartition with axis=None (the flattened
array) and NumPy's AxisError for a 0-d array, over the bound partition functions.
"""
import operator as _operator

import numpy as _np

from .. import _loom

__all__ = ["partition", "argpartition"]

_bound_partition = _loom.partition
_bound_argpartition = _loom.argpartition


class flatiter:
    """x.flat: a view of x's elements in C order. `x.flat[i]`, `x.flat[2:10:2]`,
    `x.flat[...]` read (an int or a slice; NumPy's other index kinds raise IndexError, as
    CuPy's); assigning writes through to x, a shorter value repeated as NumPy repeats it;
    len(), iteration and copy() as NumPy's. `base` is x."""

    __slots__ = ("base", "index", "_flat")

    def __init__(self, base):
        self.base = base
        self.index = 0  # the next element's position, as numpy.flatiter.index
        self._flat = None

    def __len__(self):
        return self.base.size

    def __iter__(self):
        return self  # a flatiter is its own iterator, as NumPy's

    def __next__(self):
        if self.index >= self.base.size:
            raise StopIteration
        if self._flat is None:
            self._flat = self.base.ravel()
        self.index += 1
        return self._flat[self.index - 1]

    def copy(self):
        """x's elements in C order, a new 1-d array."""
        return self.base.flatten()

    def _index(self, index):
        if index is Ellipsis:
            return slice(None)
        if isinstance(index, slice):
            return index
        if not isinstance(index, (bool, _np.bool_, _loom.ndarray, _np.ndarray)):
            try:
                return _operator.index(index)
            except TypeError:
                pass
        raise IndexError(f"[flat] unsupported iterator index {index!r}: an int, a slice or ... ")

    def __getitem__(self, index):
        return self.base.ravel()[self._index(index)]

    def __setitem__(self, index, value):
        index = self._index(index)
        a = self.base
        count = len(range(a.size)[index]) if isinstance(index, slice) else 1
        if not isinstance(value, (bool, int, float, complex)):
            value = value if isinstance(value, _loom.ndarray) else _loom.asarray(_np.asarray(value), device=a.device)
            if value.size != count and value.size:  # NumPy repeats (or cuts) the values to fill the selection
                value = _loom.resize(value.ravel(), (count,))
            value = value.ravel() if isinstance(index, slice) else value.ravel()[0]
            value = value.astype(a.dtype) if value.dtype != a.dtype else value
        if a.flags.c_contiguous:
            a.reshape((-1,))[index] = value  # a view of a's memory
        else:
            flat = a.flatten()
            flat[index] = value
            a[...] = flat.reshape(tuple(a.shape))


class FlatAttribute:
    """x.flat: x's elements in C order (numpy.flatiter). A descriptor class rather than a
    property, which the stub generator cannot write for a Python getter."""

    def __get__(self, x, owner=None):
        return self if x is None else flatiter(x)


_loom.ndarray.flat = FlatAttribute()


def _flat_or_check(op, a, axis):
    a = a if isinstance(a, _loom.ndarray) else _loom.asarray(a)
    if axis is None:
        return a.ravel(), -1
    if a.ndim == 0:
        raise _np.exceptions.AxisError(f"[{op}] axis {axis} is out of bounds for array of dimension 0")
    return a, axis


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """numpy.partition: a copy of a with the kth element(s) in their sorted place along axis,
    smaller ones before, larger ones after (axis=None: of the flattened array)."""
    if axis is not None and isinstance(a, _loom.ndarray) and a.ndim:
        return _bound_partition(a, kth, axis)
    a, axis = _flat_or_check("partition", a, axis)
    return _bound_partition(a, kth, axis)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """numpy.argpartition: the indices that partition a along axis (axis=None: flattened)."""
    if axis is not None and isinstance(a, _loom.ndarray) and a.ndim:
        return _bound_argpartition(a, kth, axis)
    a, axis = _flat_or_check("argpartition", a, axis)
    return _bound_argpartition(a, kth, axis)


def _partition_method(self, kth, axis=-1, kind="introselect", order=None):
    """x.partition(kth, axis=-1): x partitioned in place (numpy.ndarray.partition)."""
    if self.ndim == 0:
        raise _np.exceptions.AxisError(f"[partition] axis {axis} is out of bounds for array of dimension 0")
    self[...] = partition(self, kth, axis)


def _argpartition_method(self, kth, axis=-1, kind="introselect", order=None):
    """x.argpartition(kth, axis=-1): numpy.argpartition(x, kth, axis)."""
    return argpartition(self, kth, axis)


_loom.ndarray.partition = _partition_method
_loom.ndarray.argpartition = _argpartition_method
