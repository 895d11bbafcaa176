"""NumPy's index tricks and abstract scalar types on loom, as CuPy has them: `r_`, `c_`,
`mgrid`, `ogrid`, `s_`, `index_exp`, `broadcast`, `x.choose`, and `integer`, `floating`, ...

`s_`, `index_exp` and the abstract scalar types are NumPy's own objects (they make index
tuples and name type families; no array is involved), as in CuPy. The others build loom
arrays with loom's ops, on the device of the first loom array among their items (else the
default device), following NumPy's rules (numpy/lib/_index_tricks_impl.py's behaviour).
"""
import numpy as _np

from .. import _loom
from .cupy_names import array as _array  # NumPy's array(), with ndmin=

__all__ = ["r_", "c_", "mgrid", "ogrid", "s_", "index_exp", "broadcast", "generic", "number", "integer",
           "signedinteger", "unsignedinteger", "inexact", "floating", "complexfloating"]

s_ = _np.s_
index_exp = _np.index_exp
generic, number, integer = _np.generic, _np.number, _np.integer
signedinteger, unsignedinteger = _np.signedinteger, _np.unsignedinteger
inexact, floating, complexfloating = _np.inexact, _np.floating, _np.complexfloating


def _device_of(items):
    for it in items:
        if isinstance(it, _loom.ndarray):
            return it.device
    return _loom.default_device()


def _range_of(sl, device, op):
    """A slice as NumPy's index tricks read it: start:stop:step an arange, start:stop:nj a
    linspace of n points (stop included)."""
    start = 0 if sl.start is None else sl.start
    step = 1 if sl.step is None else sl.step
    if sl.stop is None:
        raise ValueError(f"[{op}] a slice needs a stop")
    if isinstance(step, complex):
        return _loom.linspace(start, sl.stop, num=int(abs(step)), device=device)
    return _loom.arange(start, sl.stop, step, device=device)


class _Concatenator:
    """r_ (axis 0) and c_ (axis -1, at least 2-d, 1-d items as columns)."""

    def __init__(self, name, axis, ndmin, trans1d):
        self._name, self._axis, self._ndmin, self._trans1d = name, axis, ndmin, trans1d

    def __getitem__(self, key):
        key = key if isinstance(key, tuple) else (key,)
        axis, ndmin, trans1d = self._axis, self._ndmin, self._trans1d
        device = _device_of(key)
        objs, kinds = [], []
        for k, item in enumerate(key):
            if isinstance(item, str):
                if k != 0:
                    raise ValueError(f"[{self._name}] special directives must be the first entry")
                if item in ("r", "c"):
                    raise NotImplementedError(f"[{self._name}] the '{item}' directive makes a numpy.matrix; "
                                              "loom has no matrix class")
                try:
                    parts = [int(p) for p in item.split(",")]
                except ValueError:
                    raise ValueError(f"[{self._name}] unknown special directive {item!r}") from None
                axis = parts[0]
                ndmin = parts[1] if len(parts) > 1 else ndmin
                trans1d = parts[2] if len(parts) > 2 else trans1d
                continue
            if isinstance(item, slice):
                obj = _range_of(item, device, self._name)
                if ndmin > 1:
                    obj = _array(obj, copy=None, ndmin=ndmin)
                    if trans1d != -1:
                        obj = obj.swapaxes(-1, trans1d)
                objs.append(obj)
                kinds.append(obj.dtype)
            elif _np.isscalar(item):
                objs.append(item)
                kinds.append(item)
            else:
                item_ndim = _np.ndim(item)
                obj = _array(item, copy=None, ndmin=ndmin, device=device)
                if trans1d != -1 and item_ndim < ndmin:
                    k2, k1 = ndmin - item_ndim, trans1d
                    k1 = k1 + k2 + 1 if k1 < 0 else k1
                    axes = list(range(ndmin))
                    obj = obj.transpose(axes[:k1] + axes[k2:] + axes[k1:k2])
                objs.append(obj)
                kinds.append(obj.dtype)
        dtype = _loom.result_type(*kinds) if kinds else _loom.float64
        arrays = [_array(o, dtype=dtype, copy=None, ndmin=max(ndmin, 1), device=device) for o in objs]
        return _loom.concatenate(arrays, axis=axis)

    def __len__(self):
        return 0


r_ = _Concatenator("r_", 0, 1, -1)
c_ = _Concatenator("c_", -1, 2, 0)


class _Grid:
    """mgrid (dense: one array, the grids stacked) and ogrid (open: broadcastable 1-d ranges)."""

    def __init__(self, name, sparse):
        self._name, self._sparse = name, sparse

    def __getitem__(self, key):
        device = _loom.default_device()
        if isinstance(key, slice):
            return _range_of(key, device, self._name)
        ranges = [_range_of(k, device, self._name) for k in key]
        dtype = _loom.result_type(*[r.dtype for r in ranges])
        ranges = [r.astype(dtype) for r in ranges]
        grids = _loom.meshgrid(*ranges, indexing="ij", sparse=self._sparse)
        return tuple(grids) if self._sparse else _loom.stack(list(grids))  # NumPy 2 gives a tuple


mgrid = _Grid("mgrid", False)
ogrid = _Grid("ogrid", True)


class broadcast:  # noqa: N801 - NumPy's and CuPy's name
    """broadcast(*arrays): the shape they broadcast to (`shape`, `size`, `nd`/`ndim`) and
    `values`, the arrays broadcast to it (views), as cupy.broadcast has them."""

    def __init__(self, *arrays):
        arrays = [a if isinstance(a, _loom.ndarray) else _loom.asarray(a) for a in arrays]
        self.shape = tuple(_np.broadcast_shapes(*[tuple(a.shape) for a in arrays]))
        self.values = tuple(_loom.broadcast_to(a, self.shape) for a in arrays)
        self.nd = self.ndim = len(self.shape)
        self.size = int(_np.prod(self.shape, dtype=_np.int64))


def _choose(self, choices, out=None, mode="raise"):
    """x.choose(choices, out=None, mode='raise'): choose(x, choices, ...), NumPy's method."""
    return _loom.choose(self, choices, out=out, mode=mode)


if not hasattr(_loom.ndarray, "choose"):
    _loom.ndarray.choose = _choose
