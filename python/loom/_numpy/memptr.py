"""CuPy's memory objects over loom arrays: `x.data` is a `MemoryPointer` (CuPy's, not NumPy's
memoryview: a device address has no host buffer to view), `cp.ndarray(shape, dtype,
memptr=p, strides=s)` makes an array over one, and `loom.cuda.alloc(n)` /
`MemoryPool.malloc(n)` make fresh ones.

A `Memory` is a span of one device's memory that a loom array owns: `ptr`, `size` (bytes),
`device_id`. A `MemoryPointer` is an address in one (`ptr`, `mem`, `device_id`); `p + n`
moves it. Numba's names are served too (`device_pointer`, `size`), as `cuda.MemoryPointer`
is both libraries' name for it. Arrays over a pointer share its memory and keep it alive.
"""
import ctypes

import numpy as _np

from .. import _loom


def address(arr):
    """The address of a loom array's element 0 in its device's memory (a host address on
    cpu()); 0 for an empty array on cpu()."""
    if arr.device == _loom.cpu():
        return int(_np.from_dlpack(arr).ctypes.data) if arr.size else 0
    return int(arr.__cuda_array_interface__["data"][0])


class _Interface:
    """An object with NumPy's or CUDA's array interface over (ptr, shape, dtype, strides),
    holding `owner` so that the memory outlives every array made from it."""

    def __init__(self, device, ptr, shape, dtype, strides, owner):
        desc = {"shape": tuple(shape), "typestr": dtype.str, "data": (int(ptr), False),
                "strides": tuple(strides), "version": 3}
        self.owner = owner
        if device == _loom.cpu():
            self.__array_interface__ = desc
        else:
            self.__cuda_array_interface__ = desc


def view(device, ptr, shape, dtype, strides, owner):
    """A loom array over memory at `ptr` on `device` (no copy), keeping `owner` alive."""
    dtype = _np.dtype(dtype)
    iface = _Interface(device, ptr, shape, dtype, strides, owner)
    if device == _loom.cpu():  # a NumPy view (its base keeps iface, so owner, alive) shared by loom
        return _loom.asarray(_np.asarray(iface), device=device)
    return _loom.asarray(iface)


def span(shape, strides, itemsize):
    """(low, high) byte offsets from element 0 that an array of shape/strides touches."""
    if any(n == 0 for n in shape):
        return 0, 0
    low = sum((n - 1) * s for n, s in zip(shape, strides) if s < 0)
    high = sum((n - 1) * s for n, s in zip(shape, strides) if s > 0)
    return low, high + itemsize


class Memory:
    """One span of device memory (CuPy's cupy.cuda.Memory): `ptr`, `size` in bytes, `device_id`
    (-1 for cpu(), CUDA's cudaCpuDeviceId), `device`; kept alive by the loom array owning it."""

    def __init__(self, owner, ptr, size):
        self._owner = owner
        self.ptr, self.size = int(ptr), int(size)
        self.device = owner.device
        self.device_id = device_id(self.device)

    def __int__(self):
        return self.ptr

    def __repr__(self):
        return f"<loom.cuda.Memory 0x{self.ptr:x} ({self.size} bytes) on {self.device!r}>"


class MemoryPointer:
    """An address in a `Memory` (CuPy's cupy.cuda.MemoryPointer and Numba's cuda.MemoryPointer):
    `ptr` (Numba: `device_pointer`), `mem`, `device_id`, `device`; `p + n` and `p - n` move it;
    the copy_* and memset methods take byte counts, as CuPy's do."""

    def __init__(self, mem, offset):
        self.mem = mem
        self.offset = int(offset)
        self.ptr = mem.ptr + self.offset
        self.device = mem.device
        self.device_id = mem.device_id

    # Numba's names for the same things.
    device_pointer = property(lambda self: self.ptr)
    handle = property(lambda self: self.ptr)
    size = property(lambda self: self.mem.size - self.offset)
    device_ctypes_pointer = property(lambda self: ctypes.c_void_p(self.ptr))

    def __int__(self):
        return self.ptr

    def __bool__(self):
        return self.ptr != 0

    def __add__(self, n):
        if not isinstance(n, int):
            return NotImplemented
        if not 0 <= self.offset + n <= self.mem.size:
            raise ValueError(f"[MemoryPointer] offset {self.offset + n} is outside the memory's "
                             f"{self.mem.size} bytes")
        return MemoryPointer(self.mem, self.offset + n)

    __radd__ = __add__

    def __sub__(self, n):
        return self + (-n) if isinstance(n, int) else NotImplemented

    def __eq__(self, other):
        return isinstance(other, MemoryPointer) and (self.ptr, self.device) == (other.ptr, other.device)

    def __hash__(self):
        return hash((self.ptr, self.device_id))

    def __repr__(self):
        return f"<loom.cuda.MemoryPointer 0x{self.ptr:x} on {self.device!r}>"

    def _bytes(self, op, size):
        if not 0 <= size <= self.size:
            raise ValueError(f"[MemoryPointer.{op}] {size} bytes do not fit in the {self.size} from this pointer")
        return view(self.device, self.ptr, (size,), _np.uint8, (1,), self.mem)

    def copy_from_device(self, src, size):
        """Copies `size` bytes from device pointer `src` (a MemoryPointer) to here."""
        self._bytes("copy_from_device", size)[...] = src._bytes("copy_from_device", size).copy()

    copy_from_device_async = copy_from_device

    def copy_from_host(self, mem, size):
        """Copies `size` bytes from host memory (an address as an int or ctypes pointer, or a
        buffer such as a NumPy array) to here."""
        self._bytes("copy_from_host", size)[...] = _loom.asarray(_host_bytes(mem, size), device=self.device)

    copy_from_host_async = copy_from_host

    def copy_from(self, mem, size):
        """copy_from_device for a MemoryPointer, else copy_from_host."""
        (self.copy_from_device if isinstance(mem, MemoryPointer) else self.copy_from_host)(mem, size)

    def copy_to_host(self, mem, size):
        """Copies `size` bytes from here to host memory (an address, or a writeable buffer)."""
        _host_bytes(mem, size)[...] = self._bytes("copy_to_host", size).numpy()

    copy_to_host_async = copy_to_host

    def memset(self, value, size):
        """Sets `size` bytes to `value` (an int of 0..255)."""
        self._bytes("memset", size)[...] = _np.uint8(value)

    memset_async = memset


def device_id(device):
    """CuPy's device number: the GPU's index, and for cpu() -1 (CUDA's cudaCpuDeviceId)."""
    return -1 if device == _loom.cpu() else device.index


def _host_bytes(mem, size):
    """A writeable uint8 NumPy view of `size` host bytes: an address, a ctypes pointer or a buffer."""
    if isinstance(mem, ctypes.c_void_p):
        mem = mem.value or 0
    if isinstance(mem, int):
        return _np.ctypeslib.as_array((ctypes.c_uint8 * size).from_address(mem)) if size else _np.empty(0, _np.uint8)
    return _np.frombuffer(memoryview(mem).cast("B"), dtype=_np.uint8, count=size)


def alloc(size, device=None):
    """A MemoryPointer to `size` fresh bytes on `device` (the current device)."""
    owner = _loom.empty((int(size),), dtype=_loom.uint8, device=device)
    return MemoryPointer(Memory(owner, address(owner), size), 0)


def data_of(arr):
    """x.data: a MemoryPointer to element 0 of x, in a Memory spanning what x touches."""
    low, high = span(arr.shape, arr.strides, arr.itemsize)
    p = address(arr)
    return MemoryPointer(Memory(arr, p + low, high - low), -low)


class _DataAttribute:
    """x.data (a descriptor on loom.ndarray, as loom._numpy.flags.FlagsAttribute)."""

    def __get__(self, arr, cls=None):
        return self if arr is None else data_of(arr)


_loom.ndarray.data = _DataAttribute()
