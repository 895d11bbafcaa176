"""
PyCUDA-style device memory: mem_alloc, memcpy_htod, memcpy_dtoh, In/Out/InOut.
"""

import loom._loom
from loom._loom import In as In, InOut as InOut, Out as Out


class DeviceAllocation:
    """
    Raw device memory from mem_alloc(); pass it to kernels as a pointer, int() gives its address. Freed by free() or when the last reference dies.
    """

    def __int__(self) -> int: ...

    def __index__(self) -> int: ...

    def free(self) -> None:
        """Returns the memory to loom's pool now."""

    @property
    def nbytes(self) -> int:
        """Its size in bytes."""

    @property
    def device(self) -> loom._loom.Device:
        """Where it lives."""

    def __repr__(self) -> str: ...

def mem_alloc(nbytes: int, device: object | None = None) -> DeviceAllocation:
    """
    Allocates `nbytes` on `device` (default: the default device), uninitialised.
    """

def memcpy_htod(dst: DeviceAllocation, src: object) -> None:
    """
    Copies the host buffer `src` (C-contiguous) into the allocation `dst`; returns when done.
    """

def memcpy_dtoh(dst: object, src: DeviceAllocation) -> None:
    """
    Copies the allocation `src` into the writeable C-contiguous host buffer `dst`; returns when done.
    """

class host_alloc_flags:
    """
    cudaHostAlloc flags for pagelocked_empty(mem_flags=...), combined with |.
    """

    PORTABLE: int = 1

    DEVICEMAP: int = 2

    WRITECOMBINED: int = 4

class HostAllocation:
    """
    Page-locked host memory from pagelocked_empty / pagelocked_zeros: the .base of their arrays, freed when the last of them dies.
    """

    def get_device_pointer(self) -> int:
        """
        The address kernels on a GPU use for this memory (an int; a kernel takes it as ctypes.c_void_p(address)); the memory must have been allocated with host_alloc_flags.DEVICEMAP.
        """

    @property
    def nbytes(self) -> int:
        """Bytes allocated."""

    @property
    def flags(self) -> int:
        """The host_alloc_flags it was allocated with."""

def pagelocked_empty(shape: object, dtype: object | None = None, order: str = 'C', mem_flags: int = 0) -> object:
    """
    A NumPy array (uninitialised) in page-locked host memory from cudaHostAlloc(mem_flags), freed when the array dies; order 'C' or 'F'. Without a GPU, ordinary page-aligned memory.
    """

def pagelocked_zeros(shape: object, dtype: object | None = None, order: str = 'C', mem_flags: int = 0) -> object:
    """pagelocked_empty, filled with zeros."""

def pagelocked_empty_like(array: object, mem_flags: int = 0) -> object:
    """
    pagelocked_empty with the shape and dtype of `array` (Fortran order when `array` is only Fortran-contiguous).
    """

def pagelocked_zeros_like(array: object, mem_flags: int = 0) -> object:
    """pagelocked_empty_like, filled with zeros."""

def memcpy_htod_async(dest: object, src: object, stream: object | None = None) -> None:
    """
    Copies the host buffer `src` into `dest` (a DeviceAllocation or contiguous loom array) on `stream` (a loom.Stream; the current one when None) without waiting. Keep `src` alive and unchanged until the stream has passed the copy; from page-locked memory the host does not wait at all.
    """

def memcpy_dtoh_async(dest: object, src: object, stream: object | None = None) -> None:
    """
    Copies `src` (a DeviceAllocation or contiguous loom array) into the writeable host buffer `dest` on `stream` without waiting: read `dest` after stream.synchronize() (page-locked `dest` for a truly asynchronous copy).
    """
