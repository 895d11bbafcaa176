"""numba.cuda.compiler: compile_ptx and its kin are loom.cuda's (NVRTC's PTX of the CUDA C++
loom's translator writes)."""
from loom.cuda import compile, compile_for_current_device, compile_ptx, compile_ptx_for_current_device  # noqa: F401

from .._missing import module_getattr as _module_getattr

__getattr__ = _module_getattr(__name__)
