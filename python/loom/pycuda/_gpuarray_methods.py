"""PyCUDA's GPUArray methods on loom's ndarray (installed by loom.pycuda.gpuarray).

loom's arrays already have NumPy's methods and operators, and CuPy's get and fill (which take
PyCUDA's forms too: _numpy/cupy_names.py); PyCUDA code also calls set, reads
gpudata/ptr/mem_size, and uses mul_add, view and reverse. Each is added only where loom's
ndarray has no attribute of that name, so loom's own meaning always wins.
"""
import numpy as np

import loom
from loom.pykernel.host_api import data_address

from ._errors import LogicError
from ._memory import array_at, mem_alloc


class ArrayPointer:
    """A GPUArray's `gpudata`: its data address as an integer (int(), np.intp(), + offset work),
    holding the array so the memory stays valid while the pointer is held."""

    def __init__(self, arr):
        self._arr = arr
        self._address = data_address(arr)

    def __int__(self):
        return self._address

    __index__ = __int__

    def __add__(self, offset):
        return self._address + int(offset)

    __radd__ = __add__

    def __eq__(self, other):
        try:
            return self._address == int(other)
        except TypeError:
            return NotImplemented

    def __hash__(self):
        return hash(self._address)

    def free(self):
        """Releases this pointer's hold on the memory. Unlike PyCUDA, arrays that still use it
        keep it valid: loom frees memory when its last user goes, never under one."""
        self._arr = None

    def __repr__(self):
        return f"<loom.pycuda pointer {self._address:#x}>"


def _on_stream(stream, fn, *args):
    with stream:
        return fn(*args)


def _set(self, ary, async_=False, stream=None):
    """Copies host array `ary` (same size and dtype) into this array."""
    ary = np.asarray(ary)
    if ary.size != self.size:
        raise ValueError(f"[set] ary has {ary.size} elements, the array {self.size}")
    if ary.dtype != self.dtype:
        raise ValueError(f"[set] ary has dtype {ary.dtype}, the array {self.dtype}")
    src = loom.asarray(np.ascontiguousarray(ary).reshape(self.shape), device=self.device)
    if stream is None:
        self[...] = src
    else:
        _on_stream(stream, self.__setitem__, Ellipsis, src)


def _mul_add(self, selffac, other, otherfac, add_timer=None, stream=None, out=None):
    """selffac * self + otherfac * other, into `out` when given."""
    result = selffac * self + otherfac * other
    if out is None:
        return result.astype(self.dtype) if result.dtype != self.dtype else result
    out[...] = result
    return out


def _bind_to_texref(self, *args, **kwargs):
    raise LogicError("[GPUArray.bind_to_texref] texture references were removed in CUDA 12")


def _reinterpret(self, dtype=None):
    """A view of the same memory as `dtype` (the last axis rescaled), PyCUDA's and NumPy's view."""
    if dtype is None:
        return self[...]
    dtype = np.dtype(dtype)
    if dtype == self.dtype:
        return self[...]
    old = self.dtype.itemsize
    if not self.flags.c_contiguous:
        raise ValueError("[view] only a C-contiguous array can be viewed as another dtype")
    last = self.shape[-1] if self.ndim else 1
    if (last * old) % dtype.itemsize:
        raise ValueError(f"[view] the last axis ({last * old} bytes) is not a multiple of {dtype}'s size")
    shape = (*self.shape[:-1], last * old // dtype.itemsize) if self.ndim else (old // dtype.itemsize,)
    return array_at(ArrayPointer(self), shape, dtype, "view", device=self.device)


_METHODS = {
    "set": _set,
    "get_async": lambda self, stream=None, ary=None: self.get(stream, ary=ary),
    "set_async": lambda self, ary, stream=None: _set(self, ary, stream=stream),
    "mul_add": _mul_add,
    "reverse": lambda self, stream=None: self[::-1].copy(),
    "view": _reinterpret,
    "bind_to_texref": _bind_to_texref,
    "bind_to_texref_ext": _bind_to_texref,
    "gpudata": property(ArrayPointer, doc="The data address as a pointer object (PyCUDA's gpudata)."),
    "ptr": property(data_address, doc="The data address as an integer."),
    "mem_size": property(lambda self: self.size, doc="The number of elements (PyCUDA's mem_size)."),
    "allocator": property(lambda self: mem_alloc, doc="What allocates like arrays (PyCUDA's allocator)."),
}


def install():
    for name, value in _METHODS.items():
        if not hasattr(loom.ndarray, name):
            setattr(loom.ndarray, name, value)
