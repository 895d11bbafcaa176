"""pycuda.gpuarray over loom: GPUArray is loom's ndarray.

Arrays made here live on the current device (loom.pycuda.driver's context), have NumPy's
whole API as loom arrays, and PyCUDA's methods besides (get, set, gpudata, mul_add, fill,
...: _gpuarray_methods). `isinstance(x, GPUArray)` is true of every loom array, and
GPUArray(shape, dtype, gpudata=ptr) views existing device memory, as in PyCUDA. Functions
that take `allocator=` allocate their result through it.
"""
import builtins

import numpy as np

import loom

from . import _gpuarray_methods, _vec as vec  # noqa: F401 - gpuarray.vec is PyCUDA's
from ._context import Context
from ._memory import array_at

_gpuarray_methods.install()


def _device():
    return Context.get_device().loom_device


def _shape(shape):
    a = np.asarray(shape)
    if a.ndim == 0:
        return (int(a),)
    return tuple(int(s) for s in a.ravel())


def _strides(shape, itemsize, order):
    strides, step = [], itemsize
    dims = shape if order == "F" else shape[::-1]
    for n in dims:
        strides.append(step)
        step *= builtins.max(n, 1)
    return tuple(strides if order == "F" else strides[::-1])


class _GPUArrayType(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, loom.ndarray)

    def __subclasscheck__(cls, sub):
        return issubclass(sub, loom.ndarray)


class GPUArray(metaclass=_GPUArrayType):
    """GPUArray(shape, dtype, allocator=None, base=None, gpudata=None, strides=None, order="C"):
    a new loom array on the current device, or a view of the memory at `gpudata` (an
    allocation, a pointer holder or an integer address)."""

    def __new__(cls, shape, dtype, allocator=None, base=None, gpudata=None, strides=None, order="C"):
        shape, dtype = _shape(shape), np.dtype(dtype)
        if order not in ("C", "F"):
            raise ValueError(f"[GPUArray] order must be 'C' or 'F', not {order!r}")
        nbytes = int(np.prod(shape)) * dtype.itemsize
        if gpudata is None and allocator is not None:
            gpudata = allocator(nbytes)
        if gpudata is None:
            return empty(shape, dtype, order=order)
        if strides is None:
            strides = _strides(shape, dtype.itemsize, order)
        return array_at(gpudata, shape, dtype, "GPUArray", strides=strides, device=_device())


def _written(result, out):
    """`result`, or `out` holding it when given (PyCUDA's out= argument)."""
    if out is None:
        return result
    out[...] = result
    return out


def _into(value, allocator):
    """`value` (a loom array) in memory from `allocator`, when one is given."""
    return _written(value, None if allocator is None else GPUArray(value.shape, value.dtype, allocator=allocator))


# ---- creation -------------------------------------------------------------------------
def to_gpu(ary, allocator=None):
    """A copy of host array `ary` on the current device."""
    ary = np.asarray(ary)
    if ary.ndim > 1 and ary.flags.f_contiguous and not ary.flags.c_contiguous:
        return _into(loom.array(ary.T, device=_device()).T, allocator)  # keeps Fortran order
    return _into(loom.array(ary, device=_device()), allocator)


def to_gpu_async(ary, allocator=None, stream=None):
    if stream is None:
        return to_gpu(ary, allocator)
    with stream:
        return to_gpu(ary, allocator)


def empty(shape, dtype=np.float64, allocator=None, order="C"):
    shape, dtype = _shape(shape), np.dtype(dtype)
    if allocator is not None:
        return GPUArray(shape, dtype, allocator=allocator, order=order)
    if order == "F":
        return loom.empty(shape[::-1], dtype=dtype, device=_device()).T
    return loom.empty(shape, dtype=dtype, device=_device())


def zeros(shape, dtype=np.float64, allocator=None, order="C"):
    return empty(shape, dtype, allocator, order).fill(0)


def ones(shape, dtype=np.float64, allocator=None, order="C"):
    return empty(shape, dtype, allocator, order).fill(1)


def _order_of(other, order):
    if order in ("A", "K"):
        return "F" if other.flags.f_contiguous and not other.flags.c_contiguous else "C"
    return order


def empty_like(other_ary, dtype=None, order="K"):
    return empty(other_ary.shape, dtype or other_ary.dtype, order=_order_of(other_ary, order))


def zeros_like(other_ary, dtype=None, order="K"):
    return empty_like(other_ary, dtype, order).fill(0)


def ones_like(other_ary, dtype=None, order="K"):
    return empty_like(other_ary, dtype, order).fill(1)


def arange(*args, **kwargs):
    """arange(start, stop, step, dtype=None): NumPy's arange on the current device."""
    kwargs.setdefault("device", _device())
    return loom.arange(*args, **kwargs)


# ---- indexing, joining ----------------------------------------------------------------
def take(a, indices, out=None, stream=None):
    return _written(loom.take(a, indices), out)


def multi_take(arrays, indices, out=None, stream=None):
    results = [take(a, indices) for a in arrays]
    if out is not None:
        for o, r in zip(out, results):
            o[...] = r
        return out
    return results


def multi_put(arrays, dest_indices, dest_shape=None, out=None, stream=None):
    if out is None:
        out = [empty(dest_shape, a.dtype) for a in arrays]
    for o, a in zip(out, arrays):
        o[dest_indices] = a[:dest_indices.size]
    return out


def multi_take_put(arrays, dest_indices, src_indices, dest_shape=None, out=None, stream=None,
                   src_offsets=None):
    """out[i][dest_indices] = arrays[i][src_indices + src_offsets[i]]."""
    offsets = src_offsets or [0] * len(arrays)
    if out is None:
        out = [zeros(dest_shape, a.dtype) for a in arrays]
    for o, a, off in zip(out, arrays, offsets):
        o[dest_indices] = loom.take(a, src_indices.astype(np.int64) + int(off))
    return out


def concatenate(arrays, axis=0, allocator=None):
    return _into(loom.concatenate(list(arrays), axis=axis), allocator)


def stack(arrays, axis=0, allocator=None):
    return _into(loom.stack(list(arrays), axis=axis), allocator)


def hstack(arrays, allocator=None):
    return _into(loom.hstack(list(arrays)), allocator)


def transpose(a, axes=None):
    return loom.transpose(a, axes)


def reshape(a, shape, order="C"):
    return a.reshape(shape, order=order) if order != "C" else a.reshape(shape)


# ---- reductions (0-d arrays, as PyCUDA returns them) ----------------------------------
def sum(a, dtype=None, stream=None, allocator=None):  # noqa: A001 - PyCUDA's name
    return _into(loom.sum(a, dtype=dtype), allocator)


def subset_sum(subset, a, dtype=None, stream=None, allocator=None):
    return _into(loom.sum(loom.take(a, subset), dtype=dtype), allocator)


def dot(a, b, dtype=None, stream=None, allocator=None):
    """sum(a * b) over all elements (PyCUDA's dot), as a 0-d array."""
    prod = a.ravel() * b.ravel()
    return _into(loom.sum(prod, dtype=dtype), allocator)


def subset_dot(subset, a, b, dtype=None, stream=None, allocator=None):
    return dot(loom.take(a, subset), loom.take(b, subset), dtype, stream, allocator)


def min(a, stream=None, allocator=None):  # noqa: A001
    return _into(loom.min(a), allocator)


def max(a, stream=None, allocator=None):  # noqa: A001
    return _into(loom.max(a), allocator)


def subset_min(subset, a, stream=None, allocator=None):
    return _into(loom.min(loom.take(a, subset)), allocator)


def subset_max(subset, a, stream=None, allocator=None):
    return _into(loom.max(loom.take(a, subset)), allocator)


# ---- elementwise ----------------------------------------------------------------------
def _binary(fn):
    def op(a, b, out=None, stream=None):
        return _written(fn(a, b), out)
    op.__name__ = fn.__name__
    return op


minimum = _binary(loom.minimum)
maximum = _binary(loom.maximum)
logical_and = _binary(loom.logical_and)
logical_or = _binary(loom.logical_or)


def logical_not(x, out=None, stream=None):
    return _written(loom.logical_not(x), out)


def if_positive(criterion, then_, else_, out=None, stream=None):
    """then_ where criterion > 0, else else_."""
    return _written(loom.where(criterion > 0, then_, else_), out)


def where(criterion, then_, else_, out=None, stream=None):
    """then_ where criterion is nonzero, else else_."""
    return _written(loom.where(criterion != 0, then_, else_), out)


def is_vector(a):
    return isinstance(a, loom.ndarray) and a.ndim == 1
