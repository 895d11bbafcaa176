"""pycuda.driver's memory calls: allocations, copies and memsets on the current device.

PyCUDA's rule is that a device pointer is an integer: `int(alloc) + offset` is an address
every call takes. loom's allocations (DeviceAllocation) keep their checked paths; a plain
address is reached through a zero-copy loom array over it: on a GPU an array made from a
`__cuda_array_interface__` of that address, on cpu() (where "device memory" is host memory)
a NumPy array over it. Copies between addresses are the driver's own (loom.driver._copy_raw);
fills are loom's own array operations on that view.
"""
import ctypes

import numpy as np

import loom
from loom._loom import driver as _driver
from loom.pykernel.host_api import data_address

from ._context import Context

DeviceAllocation = _driver.DeviceAllocation
HostAllocation = _driver.HostAllocation


class PointerHolderBase:
    """Base for objects that own device memory elsewhere: subclasses define get_pointer()."""

    def get_pointer(self):
        raise NotImplementedError("PointerHolderBase subclasses define get_pointer()")

    def __int__(self):
        return int(self.get_pointer())

    def __index__(self):
        return int(self.get_pointer())

    @property
    def gpudata(self):
        return self


def _device():
    return Context.get_device().loom_device


def address_of(ptr, op):
    """The integer address of a DeviceAllocation, a pointer holder, an integer or an array."""
    if isinstance(ptr, (int, np.integer)):
        return int(ptr)
    if isinstance(ptr, loom.ndarray):
        return data_address(ptr)
    cai = getattr(ptr, "__cuda_array_interface__", None)
    if cai is not None:
        return int(cai["data"][0])
    if isinstance(ptr, (str, bytes, float, complex, np.floating)):
        raise TypeError(f"[{op}] a {type(ptr).__name__} is not a device pointer (an allocation, an "
                        f"integer address or an array)")
    try:
        return int(ptr)
    except TypeError:
        raise TypeError(f"[{op}] {type(ptr).__name__} is not a device pointer (an allocation, an integer "
                        f"address or an array)") from None


class _RawDeviceMemory:
    """Device memory at `address`, as __cuda_array_interface__ describes it; keeps `owner`
    (the allocation it belongs to) alive as long as an array made from it."""

    def __init__(self, address, shape, dtype, strides, owner):
        self.owner = owner
        self.__cuda_array_interface__ = {
            "shape": tuple(shape), "typestr": np.dtype(dtype).str, "data": (address, False),
            "strides": None if strides is None else tuple(strides), "version": 3, "stream": None}


def array_at(ptr, shape, dtype, op, strides=None, device=None):
    """A zero-copy loom array of `shape`, `dtype` (and byte `strides`, default C order) over the
    memory at device pointer `ptr`, which it keeps alive when `ptr` is an allocation."""
    device = device or _device()
    dtype = np.dtype(dtype)
    shape = tuple(int(s) for s in shape)
    address = address_of(ptr, op)
    count = int(np.prod(shape))
    if address == 0 and count:
        raise ValueError(f"[{op}] the device pointer is NULL")
    owner = None if isinstance(ptr, (int, np.integer)) else ptr
    if device.type == "cpu":
        # cpu()'s "device memory" is host memory: a NumPy array over it, which loom shares.
        extent = count * dtype.itemsize if strides is None else (
            sum((n - 1) * abs(st) for n, st in zip(shape, strides)) + dtype.itemsize if count else 0)
        buf = (ctypes.c_char * extent).from_address(address) if extent else bytearray(0)
        if extent:
            buf._owner = owner  # the NumPy array keeps `buf`, and `buf` the allocation
        return loom.asarray(np.ndarray(shape, dtype=dtype, buffer=buf, strides=strides), device=device)
    return loom.asarray(_RawDeviceMemory(address, shape, dtype, strides, owner))


def view(ptr, count, dtype, op, device=None):
    """A zero-copy 1-D loom array of `count` elements of `dtype` at device pointer `ptr`."""
    return array_at(ptr, (count,), dtype, op, device=device)


def _host_bytes(ary, op, writable=False):
    a = ary if isinstance(ary, np.ndarray) else np.asarray(memoryview(ary))
    if not a.flags.c_contiguous and not a.flags.f_contiguous:
        raise ValueError(f"[{op}] the host array must be contiguous")
    if writable and not a.flags.writeable:
        raise ValueError(f"[{op}] the host array is read-only")
    return a.reshape(-1, order="A").view(np.uint8)


def _nonnull(ptr, op):
    address = address_of(ptr, op)
    if address == 0:
        raise ValueError(f"[{op}] the device pointer is NULL")
    return address


def _raw_copy(device_ptr, host_address, nbytes, kind, op, device_is_dst=True):
    """A copy between device pointer `device_ptr` (an integer address, or anything
    address_of takes) and host memory, by the driver's own copy (loom.driver._copy_raw)."""
    dev = _nonnull(device_ptr, op)
    if nbytes:
        dst, src = (dev, host_address) if device_is_dst else (host_address, dev)
        _driver._copy_raw(dst, src, int(nbytes), kind, _device())


def mem_alloc(nbytes):
    """`nbytes` of uninitialised memory on the current device."""
    return _driver.mem_alloc(int(nbytes), device=_device())


def mem_alloc_like(ary):
    return mem_alloc(ary.nbytes)


def mem_get_info():
    """(free, total) bytes of the current device."""
    d = _device()
    return int(d.free_memory), int(d.total_memory)


def memcpy_htod(dest, src):
    """Copies host buffer `src` to device pointer `dest`; returns when done."""
    host = _host_bytes(src, "memcpy_htod")  # its bytes in memory order
    if isinstance(dest, DeviceAllocation):
        _driver.memcpy_htod(dest, host)
        return
    _raw_copy(dest, host.ctypes.data, host.nbytes, "htod", "memcpy_htod")


def memcpy_dtoh(dest, src):
    """Copies from device pointer `src` into host buffer `dest`; returns when done."""
    host = _host_bytes(dest, "memcpy_dtoh", writable=True)  # its bytes in memory order: a view
    if isinstance(src, DeviceAllocation):
        _driver.memcpy_dtoh(host, src)
        return
    _raw_copy(src, host.ctypes.data, host.nbytes, "dtoh", "memcpy_dtoh", device_is_dst=False)


def memcpy_dtod(dest, src, size):
    """Copies `size` bytes between device pointers."""
    _driver._copy_raw(_nonnull(dest, "memcpy_dtod"), _nonnull(src, "memcpy_dtod"), int(size), "dtod", _device())


def _on(stream, fn, *args):
    if stream is None:
        return fn(*args)
    with stream:
        return fn(*args)


def memcpy_htod_async(dest, src, stream=None):
    _on(stream, memcpy_htod, dest, src)


def memcpy_dtoh_async(dest, src, stream=None):
    _on(stream, memcpy_dtoh, dest, src)


def memcpy_dtod_async(dest, src, size, stream=None):
    _on(stream, memcpy_dtod, dest, src, size)


def _memset(dtype, op):
    def memset(dest, data, count, stream=None):
        _on(stream, view(dest, int(count), dtype, op).__setitem__, Ellipsis, dtype(data))
    memset.__name__ = op
    memset.__doc__ = f"Sets `count` {np.dtype(dtype).itemsize}-byte words at device pointer `dest` to `data`."
    return memset


memset_d8 = _memset(np.uint8, "memset_d8")
memset_d16 = _memset(np.uint16, "memset_d16")
memset_d32 = _memset(np.uint32, "memset_d32")


def _async_memset(sync):
    def memset_async(dest, data, count, stream=None):
        sync(dest, data, count, stream)
    memset_async.__name__ = sync.__name__ + "_async"
    return memset_async


memset_d8_async = _async_memset(memset_d8)
memset_d16_async = _async_memset(memset_d16)
memset_d32_async = _async_memset(memset_d32)


def to_device(bf_obj):
    """A new allocation holding a copy of the host buffer `bf_obj`."""
    host = _host_bytes(bf_obj, "to_device")
    alloc = mem_alloc(host.nbytes)
    memcpy_htod(alloc, host)
    return alloc


def from_device(devptr, shape, dtype, order="C"):
    """A new host array of `shape` and `dtype` copied from device pointer `devptr`."""
    out = np.empty(shape, dtype=dtype, order=order)
    memcpy_dtoh(out, devptr)
    return out


def from_device_like(devptr, other_ary):
    out = np.empty_like(other_ary)
    memcpy_dtoh(out, devptr)
    return out
