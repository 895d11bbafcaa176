"""CuPy's type names on loom: dtypes callable as NumPy's scalar types (`loom.float32(1.5)` is
`numpy.float32(1.5)`, `isinstance(v, loom.uint32)`), and `loom.ndarray(shape, dtype,
memptr=, strides=, order=)` as CuPy's constructor.

loom.float32 stays loom's dtype object (`loom.zeros(3, dtype=loom.float32)`,
`x.dtype == loom.float32`, `loom.float32.itemsize`); calling it makes NumPy's scalar, or for a
loom array `x.astype(loom.float32)` (kept on its device, as jax.numpy's do), and
isinstance/issubclass answer as for NumPy's type.

loom.ndarray is the arrays' own type; its constructor (bound in C++) calls construct() here.
"""
import numpy as _np

from .. import _loom
from . import cupy_names as _cupy_names
from . import memptr as _memptr

__all__ = ["ndarray"]


def _scalar_type(d):
    return _np.dtype(d).type


def _dtype_call(self, *args, **kwargs):
    """loom.float32(1.5): NumPy's scalar of this dtype (numpy.float32(1.5)); a loom array is cast
    with astype and stays on its device; a NumPy array or list gives NumPy's array, as NumPy's
    scalar types do."""
    if len(args) == 1 and not kwargs and isinstance(args[0], _loom.ndarray):
        return args[0].astype(self)
    return _scalar_type(self)(*args, **kwargs)


def _dtype_instancecheck(self, obj):
    """isinstance(v, loom.float32): as isinstance(v, numpy.float32)."""
    return isinstance(obj, _scalar_type(self))


def _dtype_subclasscheck(self, cls):
    """issubclass(t, loom.float32): as issubclass(t, numpy.float32)."""
    return isinstance(cls, type) and issubclass(cls, _scalar_type(self))


_loom.dtype.__call__ = _dtype_call
_loom.dtype.__instancecheck__ = _dtype_instancecheck
_loom.dtype.__subclasscheck__ = _dtype_subclasscheck


# ---- loom.ndarray -------------------------------------------------------------------------------

def _strides_for(shape, itemsize, order):
    strides, step = [0] * len(shape), itemsize
    for i in (reversed(range(len(shape))) if order == "C" else range(len(shape))):
        strides[i] = step
        step *= max(int(shape[i]), 1)
    return tuple(strides)


def construct(shape, dtype=float, memptr=None, strides=None, order="C"):
    """cupy.ndarray(shape, dtype=float, memptr=None, strides=None, order='C'): a new array, or one
    over `memptr` (a loom.cuda.MemoryPointer: x.data, loom.cuda.alloc(n), a pool's malloc),
    sharing its memory, with `strides` in bytes (C or F order when None)."""
    shape = (int(shape),) if _np.ndim(shape) == 0 else tuple(int(n) for n in shape)
    if any(n < 0 for n in shape):
        raise ValueError(f"[ndarray] negative dimensions are not allowed: {shape}")
    order = _cupy_names._check_order("ndarray", order, ("C", "F"))
    if memptr is None:
        if strides is not None:
            raise ValueError("[ndarray] strides= needs memptr= (the memory they lay out)")
        return _cupy_names.empty(shape, dtype=dtype, order=order)
    if not isinstance(memptr, _memptr.MemoryPointer):
        raise TypeError(f"[ndarray] memptr must be a loom.cuda.MemoryPointer (x.data, loom.cuda.alloc(n)), "
                        f"not {type(memptr).__name__}")
    dt = _np.dtype(dtype)
    strides = _strides_for(shape, dt.itemsize, order) if strides is None else tuple(int(s) for s in strides)
    if len(strides) != len(shape):
        raise ValueError(f"[ndarray] strides {strides} do not match shape {shape}")
    low, high = _memptr.span(shape, strides, dt.itemsize)
    if memptr.offset + low < 0 or memptr.offset + high > memptr.mem.size:
        raise ValueError(f"[ndarray] shape {shape} with strides {strides} of {dt} reaches bytes "
                         f"{memptr.offset + low}..{memptr.offset + high} of a memory of {memptr.mem.size}")
    return _memptr.view(memptr.device, memptr.ptr, shape, dt, strides, memptr.mem)


# The arrays' own type: its constructor (python/src/array.cpp) calls construct() above.
ndarray = _loom.ndarray
