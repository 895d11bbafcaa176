"""numba.cuda.np.numpy_support: from_dtype and as_dtype are loom.cuda.types', carray and farray
loom.cuda's; the rest raise an ImportError naming them."""
from loom.cuda import carray, farray  # noqa: F401
from loom.cuda.types import as_dtype, from_dtype  # noqa: F401

import numpy as _np

from ..._missing import module_getattr as _module_getattr

# The NumPy the suite runs with, as Numba records it (major, minor).
numpy_version = tuple(int(p) for p in _np.__version__.split(".")[:2])

__getattr__ = _module_getattr(__name__)
