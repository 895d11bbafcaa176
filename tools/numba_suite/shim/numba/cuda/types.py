"""numba.cuda.types: loom.cuda.types (Numba's type objects); a type loom has no equivalent of
(CPointer, Record, UniTuple, ...) raises an ImportError naming it."""
from loom.cuda import types as _lt

from .._missing import module_getattr as _module_getattr

for _n in _lt.__all__:
    globals()[_n] = getattr(_lt, _n)

__getattr__ = _module_getattr(__name__, type_names=True)
