"""Numba's CUDA programming API on loom: `from loom import cuda` in place of
`from numba import cuda`, and the kernels run unchanged, on a GPU or, without one, on
cpu() through loom's CPU kernel emulator (docs/PYTHON_KERNELS.md, "from Numba").

    @cuda.jit
    def add_kernel(x, y, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = x[i] + y[i]
    add_kernel[blocks, threads](x, y, out)

Random numbers: `cuda.random`, Numba's xoroshiro128+ (pykernel/xoroshiro.py). libdevice's
C math functions: `cuda.libdevice` (pykernel/libdevice.py).
Types: Numba's type objects, `cuda.types` and the scalar names (`from loom.cuda import
float32, void`; `void(float32[:, ::1], int32)` as a signature; pykernel/numba_types.py).

PTX: `cuda.compile_ptx`, `cuda.compile` and `kernel.inspect_asm()` (pykernel/ptx.py).
CuPy's cupy.cuda names live here too (_cupy_cuda.py, _cupy_runtime.py): Stream, Event, Device,
get_current_stream, get_elapsed_time, runtime (also Numba's runtime.get_version()), memory,
MemoryPool, PinnedMemoryPool, MemoryPointer (CuPy's and Numba's), alloc, alloc_pinned_memory.
Host side: to_device, device_array, device_array_like, pinned_array, synchronize, gpus,
select_device, is_available; device arrays are loom arrays (copy_to_host()). Streams are
loom.Stream: stream, default_stream, legacy_default_stream, per_thread_default_stream,
external_stream; `with s.auto_synchronize():`, s.handle, s.external. Numba's modules:
cuda.devicearray, cuda.kernels.transpose, cuda.config (CUDA_NVRTC_EXTRA_SEARCH_PATHS),
cuda.vector_types with the vector types themselves (cuda.float32x3, C's cuda.double2, ...).
"""
import types as _types_module

import numpy as _np

from . import _loom
from .pykernel import bf16 as _bf16
from .pykernel.args import In, InOut, Out
from .pykernel import host_api as _host_api
from .pykernel import libdevice
from .pykernel import numba_types as types
from .pykernel import xoroshiro as random
from .pykernel import stubs as _stubs
from .pykernel.dispatcher import CUDADispatcher as Dispatcher
from .pykernel.dispatcher import jit
from .pykernel.errors import TypingError, UnsupportedError
from .pykernel.foreign import CUSource, declare_device
from .pykernel.ptx import compile, compile_for_current_device, compile_ptx, compile_ptx_for_current_device
from .pykernel.reduce import Reduce, reduce
from ._numpy.cupy_types import ndarray as _ndarray
from ._numpy.memptr import Memory, MemoryPointer
from ._cupy_cuda import Device, Event, ExternalStream, Stream, get_current_stream, get_elapsed_time
from ._cupy_runtime import (MemoryPool, PinnedMemoryPool, PinnedMemoryPointer, alloc, alloc_pinned_memory,
                            get_allocator, get_default_memory_pool, get_default_pinned_memory_pool, memory,
                            pinned_memory, runtime, set_allocator, set_pinned_memory_allocator)

# The intrinsics kernels name (markers the translator knows by identity).
for _n in _stubs.ALL:
    globals()[_n] = getattr(_stubs, _n)

# Numba's type objects: `from numba.cuda import float32, void` and `cuda.types` (as numba.types).
_TYPE_NAMES = types.TOP_LEVEL
for _n in _TYPE_NAMES:
    globals()[_n] = getattr(types, _n)
import sys as _sys  # noqa: E402

_sys.modules[__name__ + ".types"] = types  # import loom.cuda.types
_sys.modules[__name__ + ".random"] = random  # from loom.cuda.random import create_xoroshiro128p_states
_sys.modules[__name__ + ".libdevice"] = libdevice
for _n, _m in (("runtime", runtime), ("memory", memory), ("pinned_memory", pinned_memory)):
    _sys.modules[__name__ + "." + _n] = _m  # import loom.cuda.runtime (cupy.cuda.runtime)
from .pykernel import config  # noqa: E402  (Numba's settings loom honours)
_sys.modules[__name__ + ".config"] = config
from .pykernel import vector_types  # noqa: E402  (cuda.float32x3 and the other vector types; C's names too)
_sys.modules[__name__ + ".vector_types"] = vector_types
_VECTOR_NAMES = list(vector_types.STUBS) + list(vector_types.ALIASES)
for _n in _VECTOR_NAMES:
    globals()[_n] = vector_types.STUBS.get(_n) or vector_types.ALIASES[_n]
# numba.cuda.bf16: the bfloat16 type and CUDA's bfloat16 intrinsics (pykernel/bf16.py).
bf16 = _types_module.ModuleType(__name__ + ".bf16", "bfloat16 in kernels: the type and Numba's cuda.bf16 intrinsics.")
bf16.bfloat16 = types.bfloat16
for _n in _bf16.NAMES:
    setattr(bf16, _n, getattr(_bf16.intrinsics, _n))
_sys.modules[__name__ + ".bf16"] = bf16  # from loom.cuda import libdevice; libdevice.sinf(x)


def is_available():
    """True when a CUDA GPU is usable. Without one, kernels still run: on cpu()."""
    return _loom.num_gpus() > 0


def _device(device=None):
    if device is None:
        return _loom.default_device()
    if isinstance(device, int):
        return _loom.gpu(device)
    return device


def to_device(obj, stream=0, copy=True, to=None, device=None):
    """A copy of a host array on the current device (a GPU, or cpu() without one). With
    `to` (a device array), copies into it instead and returns it."""
    if to is not None:
        to[...] = _loom.asarray(obj, device=to.device)
        return to
    # A copy, as in Numba (asarray would share a NumPy array's memory on cpu()), in the same
    # layout: a Fortran-ordered array stays Fortran-ordered (the copy of its C-ordered transpose,
    # transposed back).
    if _host_api.order_of(obj) == "F":
        return _loom.array(obj.T, device=_device(device)).T
    return _loom.array(obj, device=_device(device))


def device_array(shape, dtype=_np.float64, strides=None, order="C", stream=0, device=None):
    """An uninitialised array on the current device (Numba's default dtype: float64); order "F"
    gives Fortran order (a transposed view of a C-order array)."""
    return _host_api.allocate(lambda s: _loom.empty(s, dtype=dtype, device=_device(device)), shape, order, strides,
                              "cuda.device_array")


def device_array_like(ary, stream=0, device=None):
    """An uninitialised array of ary's shape and dtype on the current device, in Fortran order
    when `ary` is Fortran- and not C-contiguous (Numba's rule)."""
    return device_array(tuple(ary.shape), dtype=ary.dtype, order=_host_api.order_of(ary), device=device)


def pinned_array(shape, dtype=_np.float64, strides=None, order="C"):
    """A NumPy array in page-locked host memory."""
    return _host_api.allocate(lambda s: _loom.empty_pinned(s, dtype), shape, order, strides, "cuda.pinned_array")


def pinned_array_like(ary):
    return pinned_array(tuple(ary.shape), ary.dtype, order=_host_api.order_of(ary))


def as_cuda_array(obj):
    """A loom array over an object's memory (CUDA array interface or DLPack), no copy."""
    return _loom.asarray(obj)


def is_cuda_array(obj):
    return isinstance(obj, _loom.ndarray) or hasattr(obj, "__cuda_array_interface__")


# numba.cuda.devicearray (also numba.cuda.cudadrv.devicearray): device arrays are loom arrays.
devicearray = _types_module.ModuleType(__name__ + ".devicearray",
                                       "Numba's device-array module: DeviceNDArray is loom.ndarray.")
devicearray.DeviceNDArray = devicearray.DeviceNDArrayBase = _ndarray
devicearray.auto_device = lambda obj, stream=0, copy=True, user_explicit=False: _host_api.auto_device(
    obj, to_device, device_array_like, stream, copy)
devicearray.from_array_like = lambda ary, stream=0, gpu_data=None: device_array_like(ary, stream=stream)
devicearray.is_cuda_ndarray = is_cuda_array
_sys.modules[__name__ + ".devicearray"] = devicearray

# numba.cuda.kernels.transpose.transpose: Numba's ready-made transpose kernel.
kernels = _types_module.ModuleType(__name__ + ".kernels", "Numba's ready-made kernels: transpose.")
kernels.transpose = _types_module.ModuleType(__name__ + ".kernels.transpose", "b = a.T for 2-d device arrays.")
kernels.transpose.transpose = _host_api.transpose
_sys.modules[__name__ + ".kernels"] = kernels
_sys.modules[__name__ + ".kernels.transpose"] = kernels.transpose


def synchronize():
    """Waits for the current device's pending work."""
    _loom.synchronize()


def stream():
    """A new stream on the current device."""
    return _loom.Stream()


def default_stream():
    """The current device's default stream (handle 0)."""
    return _loom.default_stream()


def legacy_default_stream():
    """CUDA's legacy default stream of the current GPU (handle 1, CU_STREAM_LEGACY); on cpu(),
    where every stream is the synchronous default one, the default stream (as in Numba's
    simulator)."""
    return _loom.legacy_default_stream()


def per_thread_default_stream():
    """The calling thread's per-thread default stream of the current GPU (handle 2,
    CU_STREAM_PER_THREAD); on cpu() the default stream (as in Numba's simulator)."""
    return _loom.per_thread_default_stream()


def external_stream(ptr):
    """A stream made by other code (ptr: its CUstream as an int) as a loom.Stream of the current
    GPU (s.external is True); loom never destroys it. cpu() has no CUDA streams: it raises
    NotImplementedError (a RuntimeError, as Numba's simulator raises) there."""
    return _loom.external_stream(ptr)


def event(timing=True):
    return _loom.Event()


def is_bfloat16_supported():
    """Whether kernels on the current device can use bfloat16: Numba's rule, a GPU of compute
    capability 8.0 or newer; cpu() (the kernel emulator) always can."""
    d = _loom.default_device()
    return d.type != "cuda" or tuple(d.compute_capability) >= (8, 0)


def is_fp16_supported():
    """Whether kernels on the current device can use float16: always (every GPU loom runs on
    has compute capability 7.5 or newer)."""
    return True


def select_device(device_id):
    """Makes gpu(device_id) the current device (loom's default device) and returns it."""
    dev = _loom.gpu(device_id)
    _loom.set_default_device(dev)
    return dev


def get_current_device():
    return _loom.default_device()


class _GPUs:
    """cuda.gpus: len(), indexing, iteration; `with cuda.gpus[1]:` makes gpu(1) current."""

    def __len__(self):
        return _loom.num_gpus()

    def __getitem__(self, i):
        if not 0 <= i < len(self):
            raise IndexError(f"[cuda.gpus] there is no GPU {i} ({len(self)} present)")
        return _loom.device(_loom.gpu(i))

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    @property
    def current(self):
        return _loom.default_device()

    def __repr__(self):
        return f"<loom.cuda.gpus: {[_loom.gpu(i) for i in range(len(self))]}>"


gpus = _GPUs()


# Numba's device-array methods on loom arrays.
def _copy_to_host(self, ary=None, stream=0):
    host = self.numpy()
    if ary is None:
        return host
    ary[...] = host
    return ary


def _copy_to_device(self, ary, stream=0):
    self[...] = _loom.asarray(ary, device=self.device)


for _name, _fn in (("copy_to_host", _copy_to_host), ("copy_to_device", _copy_to_device)):
    if not hasattr(_loom.ndarray, _name):
        setattr(_loom.ndarray, _name, _fn)
_host_api.install_array_methods()
detect, current_context, mapped_array = _host_api.detect, _host_api.current_context, _host_api.mapped_array
pinned, defer_cleanup = _host_api.pinned, _host_api.defer_cleanup
mapped_array_like = _host_api.mapped_array_like

__all__ = ["jit", "Dispatcher", "reduce", "Reduce", "TypingError", "UnsupportedError", "is_available", "to_device", "device_array",
           "device_array_like", "pinned_array", "pinned_array_like", "as_cuda_array", "is_cuda_array",
           "synchronize", "stream", "default_stream", "devicearray", "kernels", "config", "legacy_default_stream",
           "per_thread_default_stream", "external_stream", "event", "select_device", "get_current_device",
           "gpus", "types", "random", "detect", "current_context", "mapped_array", "pinned", "defer_cleanup",
           "declare_device", "CUSource", "mapped_array_like", "libdevice", "compile", "compile_ptx",
           "compile_for_current_device", "compile_ptx_for_current_device", "bf16", "is_bfloat16_supported", "In", "Out", "InOut",
           "is_fp16_supported", "vector_types",
           # CuPy's cupy.cuda names
           "Stream", "Event", "Device", "ExternalStream", "get_current_stream", "get_elapsed_time", "runtime", "memory",
           "pinned_memory", "MemoryPool", "PinnedMemoryPool", "PinnedMemoryPointer", "Memory", "MemoryPointer",
           "alloc", "alloc_pinned_memory", "get_default_memory_pool", "get_default_pinned_memory_pool",
           "set_allocator", "get_allocator", "set_pinned_memory_allocator"] \
    + _stubs.ALL + _TYPE_NAMES + _VECTOR_NAMES
