"""numba.cuda.cudadrv: Numba's CUDA driver bindings. loom drives CUDA from C++; the names Numba's
tests import at their top are given so that the files load (driver.py, error.py)."""
import sys as _sys

from loom.cuda import devicearray  # noqa: F401  (numba.cuda.cudadrv.devicearray is loom.cuda's)

from ..._missing import module_getattr as _module_getattr

_sys.modules[__name__ + ".devicearray"] = devicearray

__getattr__ = _module_getattr(__name__, submodules=("driver", "error"))
