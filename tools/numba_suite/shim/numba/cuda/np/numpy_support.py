"""numba.cuda.np.numpy_support: from_dtype and as_dtype are loom.cuda.types'; carray and farray
raise LoomHasNo when called; the rest raise an ImportError naming them."""
from loom.cuda.types import as_dtype, from_dtype  # noqa: F401

import numpy as _np

from ..._missing import missing_callable, module_getattr as _module_getattr

# Arrays made from a raw pointer inside a kernel: loom's kernels have no such constructor.
carray = missing_callable("numba.cuda.np.numpy_support.carray", "arrays from pointers in kernels")
farray = missing_callable("numba.cuda.np.numpy_support.farray", "arrays from pointers in kernels")

# The NumPy the suite runs with, as Numba records it (major, minor).
numpy_version = tuple(int(p) for p in _np.__version__.split(".")[:2])

__getattr__ = _module_getattr(__name__)
