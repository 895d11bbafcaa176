"""`x.flags` on loom arrays, as NumPy's ndarray.flags reads: `x.flags["C_CONTIGUOUS"]`,
`x.flags.f_contiguous`, ... Read-only: a loom array's layout is its strides, and its memory
is always writeable and aligned (loom allocates it), so those two are True."""
from .. import _loom


def contiguous(shape, strides, itemsize, order):
    """Whether byte `strides` lay `shape` out densely in `order` ("C" or "F"), by NumPy's rule:
    a dimension of extent 1 may have any stride; empty arrays are both. (pykernel's layout_of
    has the same rule: the layering keeps _numpy and pykernel from importing each other.)"""
    if any(n == 0 for n in shape):
        return True
    dims = zip(shape, strides) if order == "F" else zip(reversed(shape), reversed(strides))
    expected = itemsize
    for n, s in dims:
        if n != 1 and s != expected:
            return False
        expected *= n
    return True


class ArrayFlags:
    """The flags of one array, computed when read."""

    _KEYS = {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "CONTIGUOUS": "c_contiguous",
             "F_CONTIGUOUS": "f_contiguous", "F": "f_contiguous", "FORTRAN": "f_contiguous",
             "WRITEABLE": "writeable", "W": "writeable", "ALIGNED": "aligned", "A": "aligned"}

    def __init__(self, array):
        shape, strides, size = tuple(array.shape), tuple(array.strides), array.itemsize
        self.c_contiguous = self.contiguous = contiguous(shape, strides, size, "C")
        self.f_contiguous = self.fortran = contiguous(shape, strides, size, "F")
        self.writeable = self.aligned = True

    def __getitem__(self, key):
        name = self._KEYS.get(str(key).upper())
        if name is None:
            # OWNDATA too: loom arrays do not record whether they are views (no .base)
            raise KeyError(f"[flags] loom arrays have the flags C_CONTIGUOUS, F_CONTIGUOUS, WRITEABLE and "
                           f"ALIGNED, not {key!r}")
        return getattr(self, name)

    def __repr__(self):
        return "\n".join(f"  {k} : {self[k]}" for k in ("C_CONTIGUOUS", "F_CONTIGUOUS", "WRITEABLE", "ALIGNED"))


class FlagsAttribute:
    """`ndarray.flags`: NumPy's layout and access flags of the array (read-only). A descriptor
    class rather than a property, which the stub generator cannot write for a Python getter."""

    def __get__(self, array, owner=None):
        return self if array is None else ArrayFlags(array)


_loom.ndarray.flags = FlagsAttribute()
