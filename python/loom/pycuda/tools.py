"""pycuda.tools: type names, test decorators, memory pools and device data, over loom."""
import functools

import numpy as np

import loom

from . import driver as _drv

_CTYPES = {np.dtype(np.int8): "signed char", np.dtype(np.uint8): "unsigned char",
           np.dtype(np.int16): "short", np.dtype(np.uint16): "unsigned short",
           np.dtype(np.int32): "int", np.dtype(np.uint32): "unsigned int",
           np.dtype(np.int64): "long", np.dtype(np.uint64): "unsigned long",
           np.dtype(np.float32): "float", np.dtype(np.float64): "double",
           np.dtype(np.complex64): "pycuda::complex<float>", np.dtype(np.complex128): "pycuda::complex<double>",
           np.dtype(np.bool_): "bool"}


_REGISTERED = {}


def register_dtype(dtype, c_name, alias_ok=False):
    """Names `dtype` (a struct dtype, say) `c_name` in generated kernels' source."""
    dtype = np.dtype(dtype)
    if not alias_ok and _REGISTERED.get(dtype, c_name) != c_name:
        raise RuntimeError(f"[register_dtype] {dtype} is registered as '{_REGISTERED[dtype]}' already")
    _REGISTERED[dtype] = c_name


def dtype_to_ctype(dtype, with_fp_tex_hack=False):
    """The C type name of `dtype` in kernel source ("float", "unsigned int", a vector type's name)."""
    if dtype is None:
        raise ValueError("[dtype_to_ctype] dtype may not be None")
    dtype = np.dtype(dtype)
    if with_fp_tex_hack and dtype in (np.dtype(np.float64), np.dtype(np.complex64), np.dtype(np.complex128)):
        return {"d": "fp_tex_double", "F": "fp_tex_cfloat", "D": "fp_tex_cdouble"}[dtype.char]
    if dtype in _REGISTERED:
        return _REGISTERED[dtype]
    from . import _vec
    for name, t in _vec.types.items():
        if t == dtype:
            return name
    try:
        return _CTYPES[dtype]
    except KeyError:
        raise ValueError(f"[dtype_to_ctype] unable to map dtype '{dtype}'") from None


def bitlog2(n):
    """floor(log2(n)) of a positive integer."""
    return int(n).bit_length() - 1


def make_default_context(ctx_maker=None):
    """A context on the first device that works (loom's default device first)."""
    _drv.init()
    return (ctx_maker or (lambda dev: dev.make_context()))(_drv.Device(0))


def get_default_device(default=0):
    return _drv.Device(default)


def clear_context_caches():
    """PyCUDA drops per-context kernel caches here; loom's caches are per device and stay valid."""


def context_dependent_memoize(func):
    """Memoizes `func` per current device (PyCUDA: per context)."""
    cache = {}

    @functools.wraps(func)
    def wrapper(*args):
        key = (str(_drv.Context.get_device().loom_device), args)
        if key not in cache:
            cache[key] = func(*args)
        return cache[key]
    wrapper.clear_cache = cache.clear
    return wrapper


def mark_cuda_test(inner_f):
    """Runs the test in a fresh context on the default device, popped afterwards."""
    @functools.wraps(inner_f)
    def f(*args, **kwargs):
        _drv.init()
        ctx = make_default_context()
        try:
            assert isinstance(ctx.get_device().name(), str)
            assert isinstance(ctx.get_device().compute_capability(), tuple)
            assert isinstance(ctx.get_device().get_attributes(), dict)
            return inner_f(*args, **kwargs)
        finally:
            ctx.pop()
    try:
        import pytest
    except ImportError:
        return f
    return pytest.mark.cuda(f)


def init_cuda_context_fixture():
    """A pytest fixture body (yield from it): a context for the test, popped after."""
    _drv.init()
    ctx = make_default_context()
    try:
        yield
    finally:
        ctx.pop()


class DeviceData:
    """What kernels are sized by on a device (warp size, thread and shared-memory limits)."""

    def __init__(self, dev=None):
        dev = dev or _drv.Context.get_device()
        a = _drv.device_attribute
        self.max_threads = dev.get_attribute(a.MAX_THREADS_PER_BLOCK)
        self.warp_size = dev.get_attribute(a.WARP_SIZE)
        self.warps_per_mp = 64 if dev.compute_capability() >= (7, 0) else 48
        self.thread_blocks_per_mp = 32 if dev.compute_capability() >= (8, 0) else 16
        self.registers = 65536
        self.shared_memory = dev.get_attribute(a.MAX_SHARED_MEMORY_PER_BLOCK)
        self.smem_granularity = 32
        self.smem_alloc_granularity = 128

    def align(self, bytes, word_size=4):  # noqa: A002 - PyCUDA's name
        return self.align_bytes(word_size) * -(-bytes // self.align_bytes(word_size))

    def align_bytes(self, word_size=4):
        return self.smem_granularity * word_size

    def align_words(self, word_size):
        return self.align_bytes(word_size) // word_size

    def align_dtype(self, elements, dtype_size):
        return -(-elements // self.align_words(dtype_size)) * self.align_words(dtype_size)


class DeviceMemoryPool:
    """PyCUDA's memory pool, over loom's caching allocator (every loom allocation is pooled):
    allocate() hands out DeviceAllocations; the bin arithmetic is PyCUDA's (2**bits bins per
    power of two), so code that sizes by bin_number/alloc_size gets the same sizes."""

    def __init__(self, leading_bits_in_bin_id=4):
        self.mantissa_bits = int(leading_bits_in_bin_id)

    def allocate(self, nbytes):
        return _drv.mem_alloc(self.alloc_size(self.bin_number(nbytes)) if nbytes else 0)

    __call__ = allocate

    def bin_number(self, size):
        size = int(size)
        if size == 0:
            return 0
        exponent = bitlog2(size)
        shift = exponent - self.mantissa_bits
        mantissa = (size >> shift if shift >= 0 else size << -shift) & ((1 << self.mantissa_bits) - 1)
        return exponent << self.mantissa_bits | mantissa

    def alloc_size(self, bin_nr):
        exponent = bin_nr >> self.mantissa_bits
        mantissa = bin_nr & ((1 << self.mantissa_bits) - 1)
        shift = exponent - self.mantissa_bits
        head = (1 << self.mantissa_bits) | mantissa
        if shift >= 0:
            ones = (1 << shift) - 1
            return head << shift | ones
        return head >> -shift

    @property
    def held_blocks(self):
        return 0

    @property
    def active_blocks(self):
        return 0

    def free_held(self):
        loom.memory.empty_cache(_drv.Context.get_device().loom_device)

    def stop_holding(self):
        self.free_held()


class PageLockedMemoryPool:
    """Page-locked host arrays (loom.driver.pagelocked_empty) on request."""

    def allocate(self, shape, dtype, order="C"):
        return _drv.pagelocked_empty(shape, dtype, order=order)

    def free_held(self):
        pass

    def stop_holding(self):
        pass


class VectorArg:
    def __init__(self, dtype, name):
        self.dtype, self.name = np.dtype(dtype), name

    def declarator(self):
        return f"{dtype_to_ctype(self.dtype)} *{self.name}"

    struct_char = "P"


class ScalarArg:
    def __init__(self, dtype, name):
        self.dtype, self.name = np.dtype(dtype), name

    def declarator(self):
        return f"{dtype_to_ctype(self.dtype)} {self.name}"

    @property
    def struct_char(self):
        return self.dtype.char


def parse_c_arg(c_arg):
    """"float *x" -> VectorArg(float32, 'x'); "int n" -> ScalarArg(int32, 'n')."""
    from ._cparse import parse_c_arg as parse
    return parse(c_arg, VectorArg, ScalarArg)


def get_arg_type(c_arg):
    return parse_c_arg(c_arg).struct_char
