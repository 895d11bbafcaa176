"""pycuda.driver over loom: devices and contexts, memory, copies, streams, events, kernels.

Device pointers are integers, as in PyCUDA: an allocation, `int(alloc) + offset`,
`np.intp(...)`, a GPUArray's `gpudata` or a (address, size) from get_global go wherever a
pointer goes (copies, memsets, kernel arguments). See loom.pycuda's docstring for devices.
"""
import numpy as np

from loom._loom import In, InOut, Out  # noqa: F401 - PyCUDA's argument handlers
from loom._loom.driver import (host_alloc_flags, pagelocked_empty, pagelocked_empty_like,  # noqa: F401
                               pagelocked_zeros, pagelocked_zeros_like)

from ._attributes import (compute_mode, ctx_flags, device_attribute, event_flags,  # noqa: F401
                          func_cache, function_attribute, limit)
from ._context import Context, Device, get_driver_version, get_version, init  # noqa: F401
from ._errors import CompileError, Error, LaunchError, LogicError, MemoryError, RuntimeError  # noqa: F401
from ._function import Function  # noqa: F401
from ._memory import (DeviceAllocation, HostAllocation, PointerHolderBase, from_device,  # noqa: F401
                      from_device_like, mem_alloc, mem_alloc_like, mem_get_info, memcpy_dtod,
                      memcpy_dtod_async, memcpy_dtoh, memcpy_dtoh_async, memcpy_htod, memcpy_htod_async,
                      memset_d8, memset_d8_async, memset_d16, memset_d16_async, memset_d32,
                      memset_d32_async, to_device)
from ._streams import Event, Stream  # noqa: F401

ArgumentHandler = (In, Out, InOut)


class stream_flags:  # noqa: N801 - PyCUDA's name
    DEFAULT = 0
    NON_BLOCKING = 1


def aligned_empty(shape, dtype, order="C", alignment=4096):
    """A NumPy array whose data starts on an `alignment`-byte boundary."""
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape)) * dtype.itemsize
    raw = np.empty(nbytes + alignment, dtype=np.uint8)
    start = (-raw.ctypes.data) % alignment
    return raw[start:start + nbytes].view(dtype).reshape(shape, order=order)


def aligned_zeros(shape, dtype, order="C", alignment=4096):
    a = aligned_empty(shape, dtype, order, alignment)
    a.fill(0)
    return a


def aligned_empty_like(ary, alignment=4096):
    return aligned_empty(ary.shape, ary.dtype, "F" if ary.flags.f_contiguous and not ary.flags.c_contiguous else "C",
                         alignment)


def aligned_zeros_like(ary, alignment=4096):
    a = aligned_empty_like(ary, alignment)
    a.fill(0)
    return a
