"""numba.cuda.random: loom.cuda.random (xoroshiro128+); names loom lacks (the record dtype
xoroshiro128p_dtype) raise an ImportError naming them."""
from loom.cuda import random as _lr

from .._missing import module_getattr as _module_getattr

for _n in _lr.__all__:
    globals()[_n] = getattr(_lr, _n)

__getattr__ = _module_getattr(__name__)
