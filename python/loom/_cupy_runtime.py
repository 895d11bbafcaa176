"""cupy.cuda.runtime and cupy.cuda.memory in loom.cuda: device queries under CUDA runtime names,
and CuPy's memory pools over loom's caching allocator (loom.memory).

`loom.cuda.runtime` serves both libraries: CuPy's functions (getDeviceCount, getDevice,
setDevice, getDeviceProperties, memGetInfo, ...) and Numba's `runtime.get_version()` /
`is_supported_version()`. Without a GPU, getDeviceCount() is 0 (CuPy raises), and the
current device is cpu(), numbered -1 (CUDA's cudaCpuDeviceId).

A MemoryPool is a view of loom's one allocator per device, not a second one: used_bytes() is
what live arrays hold on the current device, free_bytes() what the cache keeps, and
free_all_blocks() / set_limit() act on loom's cache.
"""
import re
import types

from . import _loom
from . import _cupy_cuda
from ._numpy import memptr as _memptr

__all__ = ["runtime", "memory", "MemoryPool", "PinnedMemoryPool", "PinnedMemoryPointer", "alloc",
           "alloc_pinned_memory", "get_default_memory_pool", "get_default_pinned_memory_pool", "set_allocator",
           "get_allocator", "set_pinned_memory_allocator"]

# CUDA device attribute numbers (cudaDeviceAttr) of the properties CuPy's getDeviceProperties gives.
_ATTRIBUTES = {
    "maxThreadsPerBlock": 1, "sharedMemPerBlock": 8, "totalConstMem": 9, "warpSize": 10, "memPitch": 11,
    "regsPerBlock": 12, "clockRate": 13, "textureAlignment": 14, "deviceOverlap": 15, "multiProcessorCount": 16,
    "kernelExecTimeoutEnabled": 17, "integrated": 18, "canMapHostMemory": 19, "computeMode": 20,
    "maxTexture1D": 21, "concurrentKernels": 31, "ECCEnabled": 32, "pciBusID": 33, "pciDeviceID": 34,
    "tccDriver": 35, "memoryClockRate": 36, "memoryBusWidth": 37, "l2CacheSize": 38,
    "maxThreadsPerMultiProcessor": 39, "asyncEngineCount": 40, "unifiedAddressing": 41, "pciDomainID": 50,
    "texturePitchAlignment": 51, "sharedMemPerMultiprocessor": 81, "regsPerMultiprocessor": 82,
    "managedMemory": 83, "isMultiGpuBoard": 84, "cooperativeLaunch": 95, "cooperativeMultiDeviceLaunch": 96,
    "sharedMemPerBlockOptin": 97,
}
_TRIPLES = {"maxThreadsDim": (2, 3, 4), "maxGridSize": (5, 6, 7), "maxTexture2D": (22, 23), "maxTexture3D": (24, 25, 26)}


def properties(device, op="getDeviceProperties"):
    """CuPy's getDeviceProperties dict for a loom GPU Device."""
    if device == _loom.cpu():
        raise ValueError(f"[{op}] cpu() has no CUDA device properties")
    major, minor = device.compute_capability
    props = {"name": device.name.encode(), "totalGlobalMem": device.total_memory, "major": major, "minor": minor}
    for key, attribute in _ATTRIBUTES.items():
        props[key] = device.attribute(attribute)
    for key, attributes in _TRIPLES.items():
        props[key] = tuple(device.attribute(a) for a in attributes)
    return props


def _version(text):
    """'13.0' -> 13000, CUDA's integer form (major * 1000 + minor * 10); '' -> 0."""
    m = re.match(r"(\d+)\.(\d+)", text or "")
    return int(m.group(1)) * 1000 + int(m.group(2)) * 10 if m else 0


def _gpu(i, op):
    return _cupy_cuda._to_device(int(i), op)


def _make_runtime():
    rt = types.ModuleType("loom.cuda.runtime", "cupy.cuda.runtime's device queries, and Numba's cuda.runtime.")
    rt.is_hip = False
    rt.CUDARuntimeError = _loom.CudaError
    rt.getDeviceCount = _loom.num_gpus
    rt.getDevice = lambda: _cupy_cuda.Device().id
    rt.setDevice = lambda device: None if _cupy_cuda.Device(device).use() else None
    rt.getDeviceProperties = lambda device: properties(_gpu(device, "getDeviceProperties"))
    rt.deviceGetAttribute = lambda attrib, device: _gpu(device, "deviceGetAttribute").attribute(int(attrib))
    rt.memGetInfo = lambda: _cupy_cuda.Device().mem_info
    rt.deviceSynchronize = lambda: _loom.default_device().synchronize()
    rt.runtimeGetVersion = lambda: _version(_loom.build_info().get("cuda_runtime"))
    rt.driverGetVersion = lambda: _version(_loom.build_info().get("driver"))
    rt.streamSynchronize = lambda stream: stream.synchronize()
    rt.eventSynchronize = lambda event: event.synchronize()
    rt.eventElapsedTime = _cupy_cuda.get_elapsed_time

    # Numba's numba.cuda.runtime: the CUDA toolkit (NVRTC) version as (major, minor).
    def get_version():
        m = re.match(r"(\d+)\.(\d+)", _loom.build_info().get("nvrtc") or "")
        return (int(m.group(1)), int(m.group(2))) if m else (0, 0)

    rt.get_version = get_version
    rt.is_supported_version = lambda: get_version()[0] in (12, 13)
    rt.__all__ = [n for n in vars(rt) if not n.startswith("_")]
    return rt


runtime = _make_runtime()


def alloc(size):
    """cupy.cuda.alloc(size): a MemoryPointer to `size` fresh bytes on the current device."""
    return _memptr.alloc(size, _loom.default_device())


class MemoryPool:
    """cupy.cuda.MemoryPool over loom's caching allocator of the current device (loom.memory):
    used_bytes(), free_bytes(), total_bytes(), free_all_blocks(), set_limit(size=, fraction=),
    get_limit(), malloc(size). Every pool object shows the same allocator: loom has one."""

    def __init__(self, allocator=None):
        if allocator is not None:
            raise NotImplementedError("[MemoryPool] a custom allocator needs C++ hooks loom does not have")

    @staticmethod
    def _stats():
        return _loom.memory.stats(_loom.default_device())

    def malloc(self, size):
        return alloc(size)

    def used_bytes(self):
        return self._stats()["in_use"]

    def free_bytes(self):
        return self._stats()["cached"]

    def total_bytes(self):
        s = self._stats()
        return s["in_use"] + s["cached"]

    def free_all_blocks(self, stream=None):
        _loom.memory.empty_cache(_loom.default_device())

    def free_all_free(self):
        self.free_all_blocks()

    def set_limit(self, size=None, fraction=None):
        """The most bytes the current device's allocator hands out (0: no limit); size= in bytes
        or fraction= of the device's memory, as CuPy's."""
        if size is not None and fraction is not None:
            raise ValueError("[MemoryPool.set_limit] give size or fraction, not both")
        dev = _loom.default_device()
        if fraction is not None:
            if not 0 <= fraction <= 1:
                raise ValueError(f"[MemoryPool.set_limit] fraction must be in [0, 1], not {fraction}")
            size = int(fraction * dev.total_memory)
        _loom.memory.set_limit(int(size or 0), dev)

    def get_limit(self):
        return self._stats()["limit"]


class PinnedMemoryPointer:
    """A pointer to page-locked host memory (CuPy's): `ptr`, `size`, `mem`; `array` is the
    NumPy array of its bytes (loom.empty_pinned)."""

    def __init__(self, array):
        self.array = self.mem = array
        self.ptr, self.size = int(array.ctypes.data), array.nbytes

    def __int__(self):
        return self.ptr


class PinnedMemoryPool:
    """cupy.cuda.PinnedMemoryPool over loom's pinned host cache: used_bytes(), free_bytes(),
    total_bytes(), free_all_blocks(), set_limit(size), get_limit(), malloc(size)."""

    def __init__(self, allocator=None):
        if allocator is not None:
            raise NotImplementedError("[PinnedMemoryPool] a custom allocator needs C++ hooks loom does not have")

    def malloc(self, size):
        return alloc_pinned_memory(size)

    def used_bytes(self):
        return _loom.memory.pinned_cache_stats()["in_use"]

    def free_bytes(self):
        return _loom.memory.pinned_cache_stats()["cached"]

    def total_bytes(self):
        s = _loom.memory.pinned_cache_stats()
        return s["in_use"] + s["cached"]

    def free_all_blocks(self):
        _loom.memory.empty_pinned_cache()

    def set_limit(self, size):
        _loom.memory.set_pinned_cache_limit(int(size))

    def get_limit(self):
        return _loom.memory.pinned_cache_stats()["limit"]


def alloc_pinned_memory(size):
    """cupy.cuda.alloc_pinned_memory(size): `size` bytes of page-locked host memory."""
    return PinnedMemoryPointer(_loom.empty_pinned((int(size),), _loom.uint8))


_default_pool, _default_pinned_pool = MemoryPool(), PinnedMemoryPool()


def get_default_memory_pool():
    """cupy.get_default_memory_pool(): the pool of loom's device allocator."""
    return _default_pool


def get_default_pinned_memory_pool():
    """cupy.get_default_pinned_memory_pool(): the pool of loom's pinned host cache."""
    return _default_pinned_pool


def get_allocator():
    return _default_pool.malloc


def set_allocator(allocator=None):
    """Accepts loom's own pools' malloc (and None: CuPy's "no pool"); loom's allocator always
    caches, so neither changes how memory is obtained. Other allocators need C++ hooks."""
    if allocator is not None and not isinstance(getattr(allocator, "__self__", None), MemoryPool):
        raise NotImplementedError("[set_allocator] loom allocates through its own caching allocator; "
                                  "custom allocators are not supported")


def set_pinned_memory_allocator(allocator=None):
    """As set_allocator, for pinned host memory."""
    if allocator is not None and not isinstance(getattr(allocator, "__self__", None), PinnedMemoryPool):
        raise NotImplementedError("[set_pinned_memory_allocator] custom allocators are not supported")


memory = types.ModuleType("loom.cuda.memory", "cupy.cuda.memory: MemoryPointer, Memory, MemoryPool, alloc.")
for _n, _v in {"MemoryPointer": _memptr.MemoryPointer, "Memory": _memptr.Memory, "MemoryPool": MemoryPool,
               "alloc": alloc, "set_allocator": set_allocator, "get_allocator": get_allocator}.items():
    setattr(memory, _n, _v)
pinned_memory = types.ModuleType("loom.cuda.pinned_memory", "cupy.cuda.pinned_memory: PinnedMemoryPool.")
for _n, _v in {"PinnedMemoryPool": PinnedMemoryPool, "PinnedMemoryPointer": PinnedMemoryPointer,
               "alloc_pinned_memory": alloc_pinned_memory,
               "set_pinned_memory_allocator": set_pinned_memory_allocator}.items():
    setattr(pinned_memory, _n, _v)
