"""numba.cuda.cgutils: Numba's LLVM code-generation helpers; loom generates CUDA C++, so every
use raises LoomHasNo (importing the module, as extension code does at its top, works)."""
from .._missing import module_getattr as _module_getattr

__getattr__ = _module_getattr(__name__)
