"""numba.cuda.np: numpy_support (from_dtype is loom.cuda.types.from_dtype)."""
from ..._missing import module_getattr as _module_getattr

__getattr__ = _module_getattr(__name__, submodules=("numpy_support",))
