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
