"""pycuda.characterize: what the current device supports."""
import numpy as np

from . import driver as _drv


def has_double_support():
    """Whether the device computes in float64 (every GPU loom runs on, and cpu())."""
    return _drv.Context.get_device().compute_capability() >= (1, 3)


def has_stack():
    return _drv.Context.get_device().compute_capability() >= (2, 0)


def platform_bits():
    return np.dtype(np.intp).itemsize * 8


def sizeof(type_name, preamble=""):
    """The size in bytes of C type `type_name`, as NumPy knows it (scalars and vector types)."""
    from ._cparse import ctype_to_dtype
    return ctype_to_dtype(type_name).itemsize
