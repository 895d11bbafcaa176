"""Numba's host-side cuda.* functions that programs call around their kernels (loom.cuda re-
exports them): detect(), current_context() and its memory info, mapped_array, and the
context managers pinned() and defer_cleanup(). The device-array methods Numba code calls on
loom arrays (is_c_contiguous, split, bind, ...) are installed by install_array_methods().

pinned() and defer_cleanup() change nothing in loom, on purpose: Numba's pin host arrays for
faster copies and hold back frees inside a region, while loom's copies from pageable memory
already go through its pinned staging cache, and its frees are stream-ordered (a buffer in
use by queued work is never reused early). Programs written for Numba keep their meaning.
"""
import collections
import contextlib
import ctypes

import numpy as np

from .. import _loom

MemoryInfo = collections.namedtuple("MemoryInfo", ["free", "total"])


def detect():
    """Prints the GPUs loom sees (as Numba's cuda.detect does) and returns whether there is one;
    without one it says that kernels run on cpu()."""
    n = _loom.num_gpus()
    print(f"Found {n} CUDA devices")
    for i in range(n):
        d = _loom.gpu(i)
        major, minor = d.compute_capability
        print(f"id {i:<4d} {d.name!r:>40} {'[SUPPORTED]':>15}")
        print(f"{'Compute Capability:':>40} {major}.{minor}")
        print(f"{'Multiprocessors:':>40} {d.multiprocessor_count}")
    if n == 0:
        print("loom runs CUDA kernels on cpu() through its kernel emulator")
    print("Summary:")
    print(f"\t{n}/{n} devices are supported")
    return n > 0


class Context:
    """Numba's context object for a device: its memory information and synchronisation."""

    def __init__(self, device):
        self.device = device

    def get_memory_info(self):
        """(free, total) bytes of the device's memory."""
        return MemoryInfo(int(self.device.free_memory), int(self.device.total_memory))

    def synchronize(self):
        self.device.synchronize()

    def __repr__(self):
        return f"<loom.cuda context of {self.device}>"


def current_context(devnum=None):
    """The context of gpu(devnum), or of the current device (cpu() without a GPU)."""
    return Context(_loom.gpu(devnum) if devnum is not None else _loom.default_device())


def auto_device(obj, to_device, device_array_like, stream=0, copy=True):
    """Numba's devicearray.auto_device: (a device array for `obj`, whether one was made). A
    loom array, or an object with __cuda_array_interface__, is used as it is; host data (a
    number is a 0-d array) is copied, or only allocated when copy=False. A host array that is
    neither C- nor Fortran-contiguous is a ValueError (one copy cannot move it), as in Numba."""
    if isinstance(obj, _loom.ndarray):
        return obj, False
    if hasattr(obj, "__cuda_array_interface__"):
        return _loom.asarray(obj), False
    a = np.asarray(obj)
    if a.ndim and not (a.flags["C_CONTIGUOUS"] or a.flags["F_CONTIGUOUS"]):
        raise ValueError(f"[cuda.devicearray.auto_device] the array of shape {a.shape} and strides {a.strides} is not "
                         "contiguous, so no single copy moves it; pass np.ascontiguousarray(a)")
    return (to_device(a, stream=stream) if copy else device_array_like(a, stream=stream)), True


def transpose(a, b=None, stream=0):
    """Numba's cuda.kernels.transpose.transpose: b = a.T for a 2-d device array, into `b` (a
    device array of the transposed shape and a's dtype) or a new C-ordered array; returns b.
    loom's own transpose copy does it, on a's device."""
    if a.ndim != 2:
        raise ValueError(f"[cuda.kernels.transpose] takes a 2-d array, not a {a.ndim}-d one")
    want = (a.shape[1], a.shape[0])
    if b is None:
        b = _loom.empty(want, dtype=a.dtype, device=a.device)
    elif tuple(b.shape) != want or str(b.dtype) != str(a.dtype):
        raise ValueError(f"[cuda.kernels.transpose] the output must have shape {want} and dtype {a.dtype}, not "
                         f"{tuple(b.shape)} and {b.dtype}")
    b[...] = a.T
    return b


def order_of(ary):
    """The layout a *_like array takes (NumPy's order='K', as Numba's): "F" for an array
    Fortran- and not C-contiguous, or a non-contiguous view whose strides grow from the first
    axis to the last (a strided view of a Fortran array); else "C"."""
    f = getattr(ary, "flags", None)
    if f is None or f["C_CONTIGUOUS"]:
        return "C"
    if f["F_CONTIGUOUS"]:
        return "F"
    st = [abs(int(s)) for s, n in zip(ary.strides, ary.shape) if n > 1]
    return "F" if len(st) > 1 and all(a <= b for a, b in zip(st, st[1:])) and st[0] < st[-1] else "C"


def allocate(make, shape, order, strides, where):
    """make(shape) in C order, or a Fortran-ordered array (the transpose of make(reversed
    shape)); explicit strides are refused naming `where`."""
    if strides is not None:
        raise NotImplementedError(f"[{where}] explicit strides are not supported; pass order='C' or 'F'")
    if order not in ("C", "F"):
        raise ValueError(f"[{where}] order is 'C' or 'F', not {order!r}")
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    return make(shape[::-1]).T if order == "F" else make(shape)


def mapped_array(shape, dtype=np.float64, strides=None, order="C", stream=0, portable=False, wc=False):
    """A host array mapped into the GPUs' address space (loom.empty_mapped), which kernels may read
    and write directly."""
    return allocate(lambda s: _loom.empty_mapped(s, dtype=dtype), shape, order, strides, "cuda.mapped_array")


def mapped_array_like(ary, stream=0, portable=False, wc=False):
    """A mapped host array of `ary`'s shape, dtype and layout (Numba's mapped_array_like)."""
    return mapped_array(tuple(ary.shape), ary.dtype, order=order_of(ary), stream=stream, portable=portable, wc=wc)


@contextlib.contextmanager
def pinned(*arrays):
    """Numba's pinned(): a region in which `arrays` may be copied fast (see the module's note)."""
    yield


@contextlib.contextmanager
def defer_cleanup():
    """Numba's defer_cleanup(): a region without deallocations (see the module's note)."""
    yield


def _split(self, section, stream=0):
    """Numba's DeviceNDArray.split: views of `section` elements each (the last may be shorter)."""
    if self.ndim != 1:
        raise ValueError(f"[split] only a 1-d array splits, not a {self.ndim}-d one")
    return [self[i:i + section] for i in range(0, self.shape[0], section)]


def _is_c_contiguous(self):
    """Whether the array is C-contiguous (Numba's DeviceNDArray.is_c_contiguous: NumPy's flag)."""
    return self.flags.c_contiguous


def _is_f_contiguous(self):
    """Whether the array is Fortran-contiguous (1-d contiguous arrays are both)."""
    return self.flags.f_contiguous


def _bind(self, stream=0):
    """Numba binds an array to a stream for its later copies; a loom array's copies and ops run
    on the stream current where they are called, so the array itself is returned."""
    return self


def data_address(arr):
    """The address of a loom array's first element in its device's memory (a host address on
    cpu())."""
    if arr.device == _loom.cpu():
        return int(np.from_dlpack(arr).ctypes.data) if arr.size else 0
    return int(arr.__cuda_array_interface__["data"][0])


class _GpuData:
    """Numba's DeviceNDArray.gpu_data as programs read it: `device_pointer`, the address."""

    def __init__(self, arr):
        self.device_pointer = data_address(arr)

    def __int__(self):
        return self.device_pointer


class AddressAttribute:
    """An attribute of Numba's device arrays made from a loom array's address (a descriptor,
    as loom._numpy.flags.FlagsAttribute): `gpu_data` (its `.device_pointer`, to pass to a
    kernel's CPointer parameter) and `device_ctypes_pointer` (a ctypes.c_void_p)."""

    def __init__(self, make):
        self.make = make

    def __get__(self, arr, cls=None):
        return self if arr is None else self.make(arr)


ARRAY_METHODS = {"is_c_contiguous": _is_c_contiguous, "is_f_contiguous": _is_f_contiguous, "split": _split,
                 "bind": _bind, "gpu_data": AddressAttribute(_GpuData),
                 "device_ctypes_pointer": AddressAttribute(lambda a: ctypes.c_void_p(data_address(a)))}


def install_array_methods():
    for name, fn in ARRAY_METHODS.items():
        if not hasattr(_loom.ndarray, name):
            setattr(_loom.ndarray, name, fn)
