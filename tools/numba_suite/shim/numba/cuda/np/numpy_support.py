"""numba.cuda.np.numpy_support: from_dtype is loom.cuda.types.from_dtype; carray, farray and
the rest raise an ImportError naming them."""
from loom.cuda.types import from_dtype  # noqa: F401

from ..._missing import module_getattr as _module_getattr

__getattr__ = _module_getattr(__name__)
